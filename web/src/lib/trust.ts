/** What the placement trust screens offer and say, without React (issue 22). */
import { z } from '@/lib/zod'
import type { Dispute, DisputeOutcome, PlacementTrust } from '@/api/trust'
import { rules } from '@/config'

/** The longest reason (or note) the server takes (served: pinbid_kit/product_rules.py). */
export const reasonMax = () => rules().reasonMaxLength

/** A text of at most reasonMax() characters, with the message the forms show. */
export const reasonText = () => z.string().trim().max(reasonMax(), `At most ${reasonMax()} characters.`)

/** A reason someone must give (a report, an operator's decision or action), as the server takes it. */
export const reasonField = (required: string) => reasonText().min(1, required)

export const OUTCOME_LABELS: Record<DisputeOutcome, string> = {
  CONTINUE: 'The placement continues',
  REFUND_UNEARNED: 'The unearned share is refunded to the brand',
  REFUND_ALL: 'Refunded to the brand in full',
}

/** The open dispute, if any: what the page says about it. What each side may do is the server's `actions`. */
export const openDispute = (trust: PlacementTrust): Dispute | null => (trust.dispute?.status === 'OPEN' ? trust.dispute : null)
