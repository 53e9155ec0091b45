/** Pure rules of the landing-page demo: proxy bidding with a second-price close (see ARCHITECTURE §5). */
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
export const STEP = 1

export function rank(bidders: DemoBidder[]): DemoBidder[] {
  return [...bidders].sort((a, b) => b.ceiling - a.ceiling || a.seq - b.seq)
}

/** Visible price while the auction runs. */
export function currentPrice(bidders: DemoBidder[]): number {
  const [leader, runnerUp] = rank(bidders)
  if (!leader) return RESERVE
  if (!runnerUp) return RESERVE
  return Math.max(RESERVE, Math.min(leader.ceiling, runnerUp.ceiling + STEP))
}

/** What the winner pays at close: the second price, never below the reserve or above the winner's ceiling. */
export function secondPrice(bidders: DemoBidder[]): number {
  const [leader, runnerUp] = rank(bidders)
  if (!leader) return 0
  if (!runnerUp) return RESERVE
  return Math.min(leader.ceiling, Math.max(RESERVE, runnerUp.ceiling))
}

export function split(price: number) {
  const fee = Math.round(price * platformFeePercent()) / 100
  return { fee, net: Math.round((price - fee) * 100) / 100 }
}

