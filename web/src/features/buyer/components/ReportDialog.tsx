import * as React from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { toast } from 'sonner'
import { rules } from '@/config'
import { hoursText } from '@/lib/spans'
import { toldByAction } from '@/lib/told'
import { z } from '@/lib/zod'
import { ApiError, serverMessage } from '@/api/errors'
import { KEYS } from '@/api/keys'
import { reportPlacement } from '@/api/trust'
import { FormDialog } from '@/components/form-dialog'
import { TextareaField } from '@/components/text-field'
import { useOnce } from '@/hooks/use-once'
import { showServerErrors } from '@/lib/server-errors'
import { reasonField, reasonMax } from '@/lib/trust'

export type ReportKind = 'problem' | 'unpinned'

const reportSchema = z.object({
  reason: reasonField('Say what is wrong, so the creator can answer and an operator can check.'),
})
type ReportValues = z.infer<typeof reportSchema>

/** The creator's time to answer, as social runs it (its setting, served in the rules). */
const answerWithin = () => hoursText(rules().trustWindowHours.disputeAnswer)

const COPY: Record<ReportKind, { title: string; description: () => string; placeholder: string; submit: string }> = {
  problem: {
    title: 'Report a problem',
    description: () => `Releases to the creator stop at once. The creator can answer within ${answerWithin()} with a note and a new screenshot, then an operator decides.`,
    placeholder: 'For example: the comment is not pinned, or it is not the approved text.',
    submit: 'Send the report',
  },
  unpinned: {
    title: 'Report: no longer pinned',
    description: () => `Releases to the creator stop at once. The creator can answer within ${answerWithin()} with a fresh screenshot, then an operator decides.`,
    placeholder: 'For example: the comment was no longer pinned on Monday morning.',
    submit: 'Report it',
  },
}

/** The brand's report (POST /buyer/placements/{bidId}/report): in the acceptance window, or any time it runs. */
export function ReportDialog({ bidId, kind, onClose }: { bidId: string; kind: ReportKind | null; onClose: () => void }) {
  const queryClient = useQueryClient()
  const once = useOnce()
  const form = useForm<ReportValues>({ resolver: zodResolver(reportSchema), defaultValues: { reason: '' } })
  const [error, setError] = React.useState<string | null>(null)
  React.useEffect(() => {
    form.reset({ reason: '' })
    setError(null)
  }, [kind, form])
  const report = useMutation({
    mutationFn: (reason: string) => reportPlacement(bidId, reason),
    onSuccess: (trust) => {
      queryClient.setQueryData(KEYS.placementTrust(bidId), trust)
      toldByAction(['placement.disputed']) // "Your report was received" says the same
      toast.success('Problem reported', { description: `Releases are stopped. The creator has ${answerWithin()} to answer, then an operator decides.` })
      void queryClient.invalidateQueries({ queryKey: KEYS.buyerBids })
      onClose()
    },
    onError: (err) => {
      showServerErrors(form, err)
      setError(serverMessage(err, 'Could not send the report. Please try again.'))
      // already reported or ended meanwhile: the page shows what is true now
      if (err instanceof ApiError && err.status === 409) void queryClient.invalidateQueries({ queryKey: KEYS.placementTrust(bidId) })
    },
  })
  const copy = COPY[kind ?? 'problem']
  const onSubmit = ({ reason }: ReportValues) => once((done) => report.mutate(reason, { onSettled: done }))

  return (
    <FormDialog
      open={kind !== null}
      form={form}
      onSubmit={form.handleSubmit(onSubmit)}
      title={copy.title}
      description={copy.description()}
      error={error}
      pending={report.isPending}
      onCancel={onClose}
      submitLabel={copy.submit}
    >
      <TextareaField control={form.control} name="reason" id="report-reason" label="What is wrong?" maxLength={reasonMax()} placeholder={copy.placeholder} />
    </FormDialog>
  )
}
