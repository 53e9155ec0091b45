import * as React from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { toast } from 'sonner'
import { z } from '@/lib/zod'
import { ApiError, serverMessage } from '@/api/errors'
import { KEYS } from '@/api/keys'
import { sendPlacementScreenshot } from '@/api/upload'
import { FormAlert } from '@/components/form-alert'
import { ScreenshotField, UploadProgress } from '@/components/screenshot-field'
import { SubmitButton } from '@/components/submit-button'
import { TextareaField } from '@/components/text-field'
import { Form } from '@/components/ui/form'
import { useOnce } from '@/hooks/use-once'
import { screenshotHint, screenshotRefusal, screenshotSchema } from '@/lib/screenshot'
import { showServerErrors } from '@/lib/server-errors'
import { reasonMax, reasonText } from '@/lib/trust'

const answerSchema = z.object({
  note: reasonText(),
  screenshot: screenshotSchema,
})
type AnswerValues = z.infer<typeof answerSchema>

/** The creator's fresh screenshot (a recheck) or answer to a report: POST /influencer/placements/{bidId}/screenshot. */
export function ScreenshotAnswerForm({ bidId, purpose }: { bidId: string; purpose: 'recheck' | 'dispute' }) {
  const queryClient = useQueryClient()
  const once = useOnce()
  const form = useForm<AnswerValues>({ resolver: zodResolver(answerSchema), defaultValues: { note: '', screenshot: null } })
  const [error, setError] = React.useState<string | null>(null)
  const [progress, setProgress] = React.useState<number | null>(null)
  const send = useMutation({
    mutationFn: ({ note, screenshot }: { note: string; screenshot: File }) => {
      setProgress(null)
      return sendPlacementScreenshot(bidId, screenshot, note, { onProgress: setProgress })
    },
    onSuccess: (trust) => {
      queryClient.setQueryData(KEYS.placementTrust(bidId), trust)
      toast.success(purpose === 'dispute' ? 'Answer sent' : 'Screenshot sent', {
        description: purpose === 'dispute' ? 'An operator now decides, and tells you and the brand why.' : 'Thank you: the placement carries on.',
      })
      setError(null)
      form.reset({ note: '', screenshot: null })
    },
    onError: (err) => {
      const onField = showServerErrors(form, err)
      const refusal = screenshotRefusal(err)
      if (!onField && refusal) form.setError('screenshot', { type: 'server', message: refusal }, { shouldFocus: true })
      setError(onField || refusal ? null : serverMessage(err, 'Could not send it. Please try again.'))
      if (err instanceof ApiError && err.status === 409) {
        // answered meanwhile, or its time is up: the panel now shows what the server holds, and the form may go
        // with it, so the refusal is said in a toast too
        toast.error('Not sent', { description: serverMessage(err, 'Nothing was changed.') })
        void queryClient.invalidateQueries({ queryKey: KEYS.placementTrust(bidId) })
      }
    },
  })
  const onSubmit = ({ note, screenshot }: AnswerValues) => {
    if (!screenshot) return
    once((done) => send.mutate({ note, screenshot }, { onSettled: done }))
  }
  const label = purpose === 'dispute' ? 'Send my answer' : 'Send the screenshot'

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} className="grid gap-3" aria-label={purpose === 'dispute' ? 'Answer the report' : 'Fresh screenshot'} noValidate>
        <ScreenshotField
          control={form.control}
          name="screenshot"
          id={`${purpose}-screenshot-${bidId}`}
          label={purpose === 'dispute' ? 'A new screenshot of the pinned comment' : 'A fresh screenshot of the pinned comment'}
          hint={screenshotHint()}
          disabled={send.isPending}
        />
        <TextareaField
          control={form.control}
          name="note"
          id={`${purpose}-note-${bidId}`}
          label={purpose === 'dispute' ? 'Your answer' : 'Note (optional)'}
          maxLength={reasonMax()}
          placeholder={purpose === 'dispute' ? 'For example: it has stayed pinned; here is the post today.' : undefined}
        />
        {send.isPending && <UploadProgress share={progress} />}
        {error && <FormAlert>{error}</FormAlert>}
        <div>
          <SubmitButton pending={send.isPending}>{label}</SubmitButton>
        </div>
      </form>
    </Form>
  )
}
