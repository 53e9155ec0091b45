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
import { FormDialogFooter } from '@/components/form-dialog-footer'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Textarea } from '@/components/ui/textarea'
import { useFocusReturn } from '@/hooks/use-focus-return'
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
  const focusReturn = useFocusReturn()
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
    <Dialog open={kind !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent {...focusReturn}>
        <Form {...form}>
          <form onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4">
            <DialogHeader>
              <DialogTitle>{copy.title}</DialogTitle>
              <DialogDescription>{copy.description()}</DialogDescription>
            </DialogHeader>
            <FormField
              control={form.control}
              name="reason"
              render={({ field }) => (
                <FormItem controlId="report-reason">
                  <FormLabel>What is wrong?</FormLabel>
                  <FormControl>
                    <Textarea {...field} maxLength={reasonMax()} placeholder={copy.placeholder} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormDialogFooter error={error} onCancel={onClose} pending={report.isPending}>
              {copy.submit}
            </FormDialogFooter>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  )
}
