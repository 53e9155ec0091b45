import * as React from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from '@/lib/zod'
import { reasonField, reasonMax } from '@/lib/trust'
import { FormDialog } from '@/components/form-dialog'
import { TextareaField } from '@/components/text-field'
import { serverMessage } from '@/api/errors'

export const reasonSchema = z.object({
  reason: reasonField('Give the reason: it is written to the audit log and told to the people concerned.'),
})
type ReasonValues = z.infer<typeof reasonSchema>

/** An operator's action that needs a reason (clear a flag, suspend, restore, refund): the dialog is the confirmation,
 *  open while there is a `subject` to act on, which `onSubmit` is given with the reason. */
export function ReasonDialog<T>({
  subject,
  onClose,
  title,
  description,
  submitLabel,
  onSubmit,
}: {
  subject: T | null
  onClose: () => void
  title: string
  description: React.ReactNode
  submitLabel: string
  onSubmit: (subject: T, reason: string) => Promise<unknown>
}) {
  const open = subject !== null
  const form = useForm<ReasonValues>({ resolver: zodResolver(reasonSchema), defaultValues: { reason: '' } })
  const [error, setError] = React.useState<string | null>(null)
  const pending = form.formState.isSubmitting

  React.useEffect(() => {
    if (open) {
      form.reset({ reason: '' })
      setError(null)
    }
  }, [open, form])

  async function submit({ reason }: ReasonValues) {
    if (subject === null) return
    setError(null)
    try {
      await onSubmit(subject, reason.trim())
      onClose()
    } catch (err) {
      setError(serverMessage(err, 'That did not work. Please try again.'))
    }
  }

  return (
    <FormDialog
      open={open}
      form={form}
      onSubmit={form.handleSubmit(submit)}
      title={title}
      description={description}
      error={error}
      pending={pending}
      onCancel={onClose}
      submitLabel={submitLabel}
    >
      <TextareaField control={form.control} name="reason" id="ops-reason" label="Reason" hint="Kept in the audit log." rows={4} maxLength={reasonMax()} autoFocus />
    </FormDialog>
  )
}
