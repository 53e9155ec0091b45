/** The approvals page's rules, without React: what a card offers, the net to expect, when to look again. */
import type { Bid } from '@/api/types'
import { net } from '@/lib/bids'

/** What the approval card offers for a bid status (spec section 4). */
export function approvalAction(status: string): 'decide' | 'awaiting-payment' | 'pin' | 'pinned' | 'waiting-pin' {
  if (status === 'PENDING_INFLUENCER_APPROVAL') return 'decide'
  // APPROVED: the payment request is on its way; for the creator, the brand is the one to act now
  if (status === 'APPROVED' || status === 'AWAITING_PAYMENT') return 'awaiting-payment'
  if (status === 'WON') return 'pin'
  if (status === 'PINNED') return 'pinned'
  return 'waiting-pin'
}

/** Potential net revenue: the sum of the bid amounts, less the platform fee. */
export function potentialNet(bids: Pick<Bid, 'amount' | 'finalPrice'>[]) {
  return net(bids.reduce((sum, b) => sum + (b.finalPrice ?? b.amount), 0))
}

/** How often to look again while an approved bid waits for its payment to be opened (seconds after the
 * approval): the live stream tells a creator nothing at that step, so this one transient state is asked about. */
export const PAYMENT_REQUEST_CHECK_MS = 2_000

export function untilPaymentRequested(query: { state: { data?: Pick<Bid, 'status'>[] } }): number | false {
  return query.state.data?.some((b) => b.status === 'APPROVED') ? PAYMENT_REQUEST_CHECK_MS : false
}

/** From an auction's end to the creator's decision, on average: "N/A" until a first decision. */
export function responseTime(minutes: number | null | undefined): string {
  if (minutes == null) return 'N/A'
  if (minutes < 90) return `${minutes} min`
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h`
  return `${Math.round(minutes / (24 * 60))} days`
}

/** The creator's record under the response time: the share kept, and placements ended by a dispute, if any. */
export function recordHint(record?: { keptPercent?: number | null; disputedPlacements?: number }): string | undefined {
  const parts = []
  if (record?.keptPercent != null) parts.push(`${record.keptPercent}% of placements kept`)
  if (record?.disputedPlacements) parts.push(`${record.disputedPlacements} ended by a dispute`)
  return parts.length ? parts.join(' · ') : undefined
}
