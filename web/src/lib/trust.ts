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

/** The open dispute, if any: what the page says about it. What each side may do is the server's `actions`. */
export const openDispute = (trust: PlacementTrust): Dispute | null => (trust.dispute?.status === 'OPEN' ? trust.dispute : null)
