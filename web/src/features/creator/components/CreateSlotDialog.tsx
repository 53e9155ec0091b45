import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { FormDialogFooter } from '@/components/form-dialog-footer'
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { toast } from 'sonner'
import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
import { KEYS } from '@/api/keys'
import { categoriesQuery } from '@/api/queries'
import type { Post } from '@/api/types'
import { MoneyField } from '@/components/money-field'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
import { NativeSelect } from '@/components/ui/native-select'
import { Textarea } from '@/components/ui/textarea'
import { useFocusReturn } from '@/hooks/use-focus-return'
import { readMoney } from '@/lib/money'
import { showServerErrors } from '@/lib/server-errors'
import { capitalize } from '@/lib/utils'
import { daysText } from '@/lib/spans'
import { auctionEndChoices, durationChoices, slotFormDefaults, slotFormProblem, slotFormSchema, type SlotFormValues } from '../slot-form'

export const CREATE_FAILED = 'Failed to create pin slot. Please try again.'

export function CreateSlotDialog({ post, onClose }: { post: Post | null; onClose: () => void }) {
  const focusReturn = useFocusReturn()
  return (
    <Dialog open={post !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto" {...focusReturn}>{post && <CreateSlotForm key={post.id} post={post} onClose={onClose} />}</DialogContent>
    </Dialog>
  )
}

type SlotBody = { postId: string; title: string; description: string; category: string; minBid: number; buyNowPrice?: number; auctionEnd: string; duration: number }

function CreateSlotForm({ post, onClose }: { post: Post; onClose: () => void }) {
  const queryClient = useQueryClient()
  const categories = useQuery(categoriesQuery())
  const form = useForm<SlotFormValues>({
    resolver: zodResolver(slotFormSchema),
    defaultValues: { title: '', description: post.caption, category: '', minBid: '', buyNow: '', ...slotFormDefaults() },
  })
  // the form's one message: shown after the first attempt, following every field, and gone once all is fixed
  const values = useWatch({ control: form.control }) as SlotFormValues
  const error = form.formState.submitCount > 0 ? slotFormProblem(values) : null

  const create = useMutation({
    mutationFn: async (body: SlotBody) => unwrap(await api().POST('/influencer/pin-slots', { body })),
    onSuccess: () => {
      toast.success('Pin slot created successfully!')
      for (const key of [KEYS.posts, KEYS.activeSlots, KEYS.influencerDashboard]) void queryClient.invalidateQueries({ queryKey: key })
      onClose()
    },
    onError: (err) => {
      showServerErrors(form, err, { buyNowPrice: 'buyNow' })
      toast.error(CREATE_FAILED)
    },
  })

  function onSubmit(values: SlotFormValues) {
    const min = readMoney(values.minBid)
    const buy = values.buyNow.trim() ? readMoney(values.buyNow) : null
    if (!min.ok || (buy && !buy.ok)) return
    const auctionEnd = new Date(Date.now() + Number(values.endIn) * 3600_000).toISOString()
    create.mutate({
      postId: post.id,
      title: values.title.trim(),
      description: values.description.trim(),
      category: values.category,
      minBid: min.cents / 100,
      ...(buy?.ok ? { buyNowPrice: buy.cents / 100 } : {}),
      auctionEnd,
      duration: Number(values.duration),
    })
  }

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4">
        <DialogHeader>
          <DialogTitle>Create Pin Slot</DialogTitle>
          <DialogDescription>Auction the pinned comment on this post.</DialogDescription>
        </DialogHeader>
        <FormField
          control={form.control}
          name="title"
          render={({ field }) => (
            <FormItem controlId="slot-title">
              <FormLabel>Title</FormLabel>
              <FormControl>
                <Input maxLength={120} placeholder="e.g. Morning routine reel — pinned comment" {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="description"
          render={({ field }) => (
            <FormItem controlId="slot-description">
              <FormLabel>Description</FormLabel>
              <FormControl>
                <Textarea maxLength={1000} {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            control={form.control}
            name="category"
            render={({ field }) => (
              <FormItem controlId="slot-category">
                <FormLabel>Category</FormLabel>
                <FormControl>
                  <NativeSelect {...field}>
                    <option value="">Choose a category</option>
                    {(categories.data ?? []).map((c) => (
                      <option key={c} value={c}>
                        {capitalize(c)}
                      </option>
                    ))}
                  </NativeSelect>
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <MoneyField control={form.control} name="minBid" id="slot-min-bid" label="Minimum bid (USD)" />
          <MoneyField control={form.control} name="buyNow" id="slot-buy-now" label="Buy Now price (optional)" />
          <FormField
            control={form.control}
            name="endIn"
            render={({ field }) => (
              <FormItem controlId="slot-end">
                <FormLabel>Auction ends in</FormLabel>
                <FormControl>
                  <NativeSelect {...field}>
                    {auctionEndChoices().map((c) => (
                      <option key={c.value} value={c.value}>
                        {c.label}
                      </option>
                    ))}
                  </NativeSelect>
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="duration"
            render={({ field }) => (
              <FormItem controlId="slot-duration" className="sm:col-span-2">
                <FormLabel>Comment stays pinned for</FormLabel>
                <FormControl>
                  <NativeSelect {...field}>
                    {durationChoices().map((d) => (
                      <option key={d} value={d}>
                        {daysText(d)}
                      </option>
                    ))}
                  </NativeSelect>
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
        </div>
        <FormDialogFooter error={error} onCancel={onClose} pending={create.isPending}>
          Create Pin Slot
        </FormDialogFooter>
      </form>
    </Form>
  )
}
