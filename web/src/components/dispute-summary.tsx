import { Gavel } from 'lucide-react'
import type { Dispute } from '@/api/trust'
import { Badge } from '@/components/ui/badge'
import { fmtDateTime } from '@/components/common'
import { OUTCOME_LABELS } from '@/lib/trust'

type Viewer = 'BRAND' | 'CREATOR'

function reportLine(dispute: Dispute, viewer: Viewer) {
  if (dispute.reporter === 'SYSTEM') return 'No fresh screenshot arrived in time, so Pinbid opened a dispute.'
  return viewer === 'BRAND' ? `You reported: “${dispute.reason}”` : `The brand reported: “${dispute.reason}”`
}

/** A dispute's state for either side: the report, the creator's answer, the operator's decision and its reason. */
export function DisputeSummary({ dispute, viewer }: { dispute: Dispute; viewer: Viewer }) {
  const decided = dispute.status === 'DECIDED'
  return (
    <section aria-label="Dispute" className="grid gap-3 rounded-lg border p-3 text-sm sm:p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="flex items-center gap-2 font-semibold">
          <Gavel className="size-4" aria-hidden="true" /> Dispute
        </h4>
        <Badge variant={decided ? 'secondary' : 'destructive'}>{decided ? 'Decided' : 'Open: releases are stopped'}</Badge>
      </div>
      <div>
        <p className="break-words">{reportLine(dispute, viewer)}</p>
        <p className="text-xs text-muted-foreground">Reported {fmtDateTime(dispute.reportedAt)}</p>
      </div>
      <div>
        <p className="text-xs text-muted-foreground">{viewer === 'BRAND' ? 'The creator’s answer' : 'Your answer'}</p>
        {dispute.answeredAt ? (
          <>
            <p className="break-words">{dispute.creatorNote ? `“${dispute.creatorNote}”` : 'A new screenshot, without a note.'}</p>
            <p className="text-xs text-muted-foreground">Sent {fmtDateTime(dispute.answeredAt)}</p>
          </>
        ) : decided ? (
          <p className="text-muted-foreground">No answer was sent.</p>
        ) : (
          <p>Due by {fmtDateTime(dispute.answerBy)}</p>
        )}
      </div>
      <div>
        <p className="text-xs text-muted-foreground">Decision</p>
        {decided && dispute.outcome ? (
          <>
            <p className="font-medium">{OUTCOME_LABELS[dispute.outcome]}</p>
            {dispute.decisionReason && <p className="break-words">Reason: {dispute.decisionReason}</p>}
            {dispute.decidedAt && <p className="text-xs text-muted-foreground">Decided {fmtDateTime(dispute.decidedAt)}</p>}
          </>
        ) : (
          <p className="text-muted-foreground">An operator decides after the creator’s answer, or when its time is up.</p>
        )}
      </div>
    </section>
  )
}
