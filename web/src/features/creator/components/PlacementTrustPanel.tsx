import { useQuery } from '@tanstack/react-query'
import { AlertTriangle, Camera, Hourglass } from 'lucide-react'
import { isNotFound } from '@/api/errors'
import { trustQuery } from '@/api/trust'
import { fmtDateTime } from '@/components/common'
import { DisputeSummary } from '@/components/dispute-summary'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { openDispute } from '@/lib/trust'
import { ScreenshotAnswerForm } from './ScreenshotAnswerForm'

/** The server's deadline passes on the browser's clock too while the page stays open (the server has the last
 *  word: 409 answer_window_closed). */
const timeUp = (until: string | null) => until !== null && Date.now() > Date.parse(until)

/** A pinned placement seen by its creator: the brand's check, a fresh screenshot asked for, a report to answer. */
export function PlacementTrustPanel({ bidId }: { bidId: string }) {
  const trust = useQuery(trustQuery(bidId))
  if (trust.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner /> Checking the placement...
      </p>
    )
  }
  if (trust.isError) {
    if (isNotFound(trust.error)) return null
    return (
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <p role="alert" className="text-destructive">
          Failed to load this placement’s checks.
        </p>
        <Button size="sm" variant="outline" onClick={() => void trust.refetch()}>
          Try again
        </Button>
      </div>
    )
  }
  const t = trust.data
  const dispute = openDispute(t)
  const { answer } = t.actions
  // a report still waiting for the creator's answer: answerable (until the server's deadline) or its time passed
  const reportWaits = dispute !== null && !dispute.answeredAt
  const answersReport = reportWaits && answer.open && answer.kind === 'ANSWER' && !timeUp(answer.until)
  const answersRecheck = answer.open && answer.kind === 'RECHECK'
  return (
    <div className="grid gap-3">
      {t.acceptance.status === 'AWAITING' && !dispute && (
        <p className="flex items-start gap-2 text-sm text-muted-foreground">
          <Hourglass className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          The brand is checking your screenshot. It counts as accepted on {fmtDateTime(t.acceptance.acceptBy)}; your earnings are released from then.
        </p>
      )}
      {answersRecheck && (
        <section aria-label="Fresh screenshot requested" className="grid gap-3 rounded-lg border border-primary/30 bg-primary/5 p-3">
          <p className="flex items-start gap-2 text-sm font-medium">
            <Camera className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            Send a fresh screenshot by {fmtDateTime(answer.until)}. Without it, the placement is reported and its releases stop.
          </p>
          <ScreenshotAnswerForm bidId={bidId} purpose="recheck" />
        </section>
      )}
      {dispute && reportWaits && !answersReport && (
        <p role="status" className="flex items-start gap-2 rounded-lg border border-destructive/30 bg-destructive/5 p-3 text-sm">
          <AlertTriangle className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
          <span className="break-words">
            The time to answer this report passed on {fmtDateTime(dispute.answerBy)}. An operator decides it now, and tells you why.
          </span>
        </p>
      )}
      {dispute && answersReport && (
        <section aria-label="Report to answer" className="grid gap-3 rounded-lg border border-destructive/30 bg-destructive/5 p-3">
          <p className="flex items-start gap-2 text-sm font-medium">
            <AlertTriangle className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
            <span className="break-words">
              {dispute.reporter === 'SYSTEM' ? 'No fresh screenshot arrived in time' : `The brand reported: “${dispute.reason}”`} — answer by {fmtDateTime(answer.until)}.
            </span>
          </p>
          <p className="text-sm text-muted-foreground">Releases are stopped until an operator decides. Your note and a new screenshot help them decide.</p>
          <ScreenshotAnswerForm bidId={bidId} purpose="dispute" />
        </section>
      )}
      {t.dispute && !reportWaits && <DisputeSummary dispute={t.dispute} viewer="CREATOR" />}
      {t.ended && (
        <p className="rounded-lg bg-muted/60 p-3 text-sm">
          This placement has ended{t.endReason ? `: ${t.endReason}` : '.'}
        </p>
      )}
    </div>
  )
}
