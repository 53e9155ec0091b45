/** Pure rules of the landing-page demo: proxy bidding at one price, the second price, shown and paid (see ARCHITECTURE §5). */
import { platformFeePercent } from '@/lib/bids'

export interface DemoBidder {
  id: string
  name: string
  ceiling: number
  /** order in which the ceiling was reached; ties go to the earlier one */
  seq: number
  isYou?: boolean
}

export const RESERVE = 25

export function rank(bidders: DemoBidder[]): DemoBidder[] {
  return [...bidders].sort((a, b) => b.ceiling - a.ceiling || a.seq - b.seq)
}

/** What the leader pays at the close: the runner-up's maximum (never below the reserve, never above the leader's own
 *  maximum), the reserve while it is alone; 0 with no bidder. */
export function secondPrice(bidders: DemoBidder[]): number {
  const [leader, runnerUp] = rank(bidders)
  if (!leader) return 0
  if (!runnerUp) return RESERVE
  return Math.min(leader.ceiling, Math.max(RESERVE, runnerUp.ceiling))
}

/** The price shown while the auction runs, one for everyone: what the leader would pay if it ended now (the app's
 *  rule, ARCHITECTURE §5); the reserve before any bid. */
export function currentPrice(bidders: DemoBidder[]): number {
  return bidders.length ? secondPrice(bidders) : RESERVE
}

export function split(price: number) {
  const fee = Math.round(price * platformFeePercent()) / 100
  return { fee, net: Math.round((price - fee) * 100) / 100 }
}

