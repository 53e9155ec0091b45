import { useQuery } from '@tanstack/react-query'
import { FormDialogBody, FormDialogShell } from '@/components/form-dialog'
import { SelectField, TextareaField, TextField } from '@/components/text-field'
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { toast } from 'sonner'
import { categoriesQuery } from '@/api/queries'
import type { Post } from '@/api/types'
import { MoneyField } from '@/components/money-field'
import { readMoney } from '@/lib/money'
import { showServerErrors } from '@/lib/server-errors'
import { capitalize } from '@/lib/utils'
import { daysText } from '@/lib/spans'
import { useCreateSlot } from '../api/mutations'
import { auctionEndChoices, durationChoices, slotFormDefaults, slotFormProblem, slotFormSchema, type SlotFormValues } from '../slot-form'

export const CREATE_FAILED = 'Failed to create pin slot. Please try again.'

export function CreateSlotDialog({ post, onClose }: { post: Post | null; onClose: () => void }) {
  return (
    <FormDialogShell open={post !== null} onClose={onClose} className="max-h-[90dvh] overflow-y-auto">
      {post && <CreateSlotForm key={post.id} post={post} onClose={onClose} />}
    </FormDialogShell>
  )
}

function CreateSlotForm({ post, onClose }: { post: Post; onClose: () => void }) {
  const categories = useQuery(categoriesQuery())
  const form = useForm<SlotFormValues>({
    resolver: zodResolver(slotFormSchema),
    defaultValues: { title: '', description: post.caption, category: '', minBid: '', buyNow: '', ...slotFormDefaults() },
  })
  // the form's one message: shown after the first attempt, following every field, and gone once all is fixed
  const values = useWatch({ control: form.control }) as SlotFormValues
  const error = form.formState.submitCount > 0 ? slotFormProblem(values) : null

  const create = useCreateSlot({
    onSuccess: () => {
      toast.success('Pin slot created successfully!')
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
    <FormDialogBody
      form={form}
      onSubmit={form.handleSubmit(onSubmit)}
      title="Create Pin Slot"
      description="Auction the pinned comment on this post."
      error={error}
      pending={create.isPending}
      onCancel={onClose}
      submitLabel="Create Pin Slot"
    >
      <TextField control={form.control} name="title" id="slot-title" label="Title" maxLength={120} placeholder="e.g. Morning routine reel — pinned comment" />
      <TextareaField control={form.control} name="description" id="slot-description" label="Description" maxLength={1000} />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField control={form.control} name="category" id="slot-category" label="Category">
          <option value="">Choose a category</option>
          {(categories.data ?? []).map((c) => (
            <option key={c} value={c}>
              {capitalize(c)}
            </option>
          ))}
        </SelectField>
        <MoneyField control={form.control} name="minBid" id="slot-min-bid" label="Minimum bid (USD)" />
        <MoneyField control={form.control} name="buyNow" id="slot-buy-now" label="Buy Now price (optional)" />
        <SelectField control={form.control} name="endIn" id="slot-end" label="Auction ends in">
          {auctionEndChoices().map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </SelectField>
        <SelectField control={form.control} name="duration" id="slot-duration" label="Comment stays pinned for" className="sm:col-span-2">
          {durationChoices().map((d) => (
            <option key={d} value={d}>
              {daysText(d)}
            </option>
          ))}
        </SelectField>
      </div>
    </FormDialogBody>
  )
}
