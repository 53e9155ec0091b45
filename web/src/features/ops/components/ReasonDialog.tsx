import * as React from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from '@/lib/zod'
import { reasonField, reasonMax } from '@/lib/trust'
import { FormDialogFooter } from '@/components/form-dialog-footer'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Textarea } from '@/components/ui/textarea'
import { serverMessage } from '@/api/errors'
import { useFocusReturn } from '@/hooks/use-focus-return'

export const reasonSchema = z.object({
  reason: reasonField('Give the reason: it is written to the audit log and told to the people concerned.'),
})
type ReasonValues = z.infer<typeof reasonSchema>

/** An operator's action that needs a reason (clear a flag, suspend, restore, refund): the dialog is the confirmation. */
export function ReasonDialog({
  open,
  onClose,
  title,
  description,
  submitLabel,
  onSubmit,
}: {
  open: boolean
  onClose: () => void
  title: string
  description: React.ReactNode
  submitLabel: string
  onSubmit: (reason: string) => Promise<unknown>
}) {
  const form = useForm<ReasonValues>({ resolver: zodResolver(reasonSchema), defaultValues: { reason: '' } })
  const [error, setError] = React.useState<string | null>(null)
  const focusReturn = useFocusReturn()
  const pending = form.formState.isSubmitting

  React.useEffect(() => {
    if (open) {
      form.reset({ reason: '' })
      setError(null)
    }
  }, [open, form])

  async function submit({ reason }: ReasonValues) {
    setError(null)
    try {
      await onSubmit(reason.trim())
      onClose()
    } catch (err) {
      setError(serverMessage(err, 'That did not work. Please try again.'))
    }
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent {...focusReturn}>
        <Form {...form}>
          <form onSubmit={form.handleSubmit(submit)} noValidate className="grid gap-4">
            <DialogHeader>
              <DialogTitle>{title}</DialogTitle>
              <DialogDescription>{description}</DialogDescription>
            </DialogHeader>
            <FormField
              control={form.control}
              name="reason"
              render={({ field }) => (
                <FormItem controlId="ops-reason">
                  <FormLabel>Reason</FormLabel>
                  <FormControl>
                    <Textarea rows={4} maxLength={reasonMax()} autoFocus {...field} />
                  </FormControl>
                  <FormDescription>Kept in the audit log.</FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormDialogFooter error={error} onCancel={onClose} pending={pending}>
              {submitLabel}
            </FormDialogFooter>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  )
}
