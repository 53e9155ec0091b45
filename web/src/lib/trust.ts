/** What the placement trust screens offer and say, without React (issue 22). */
import { z } from '@/lib/zod'
import type { Dispute, DisputeOutcome, PlacementTrust } from '@/api/trust'

export const REASON_MAX = 1000

/** A reason someone must give (a report, an operator's decision or action), as the server takes it: 1..1000. */
export const reasonField = (required: string) =>
  z.string().trim().min(1, required).max(REASON_MAX, `At most ${REASON_MAX} characters.`)

export const OUTCOME_LABELS: Record<DisputeOutcome, string> = {
  CONTINUE: 'The placement continues',
  REFUND_UNEARNED: 'The unearned share is refunded to the brand',
  REFUND_ALL: 'Refunded to the brand in full',
}

export const openDispute = (trust: PlacementTrust): Dispute | null => (trust.dispute?.status === 'OPEN' ? trust.dispute : null)

/** "Looks right" and "Report a problem": the acceptance window is open and nothing is reported yet. */
export const canAccept = (trust: PlacementTrust) => trust.acceptance.status === 'AWAITING' && !trust.ended && !openDispute(trust)

/** "Report: no longer pinned": any time while the placement runs, unless a report is already open. */
export const canReportUnpinned = (trust: PlacementTrust) => !trust.ended && !openDispute(trust) && trust.acceptance.status !== 'AWAITING'

/** The creator is asked for a fresh screenshot and has not sent it. */
export const recheckDue = (trust: PlacementTrust) => Boolean(trust.recheck && !trust.recheck.answeredAt && !trust.ended)

/** The creator can still answer the open dispute (once, within its window; the server checks the time). */
export const disputeAnswerDue = (trust: PlacementTrust) => {
  const dispute = openDispute(trust)
  return Boolean(dispute && !dispute.answeredAt)
}
