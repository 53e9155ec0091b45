/** The bid panel's words, without React. */
import type { Bid, Slot } from '@/api/types'
import { bidMaximum, minimumNextBid, validateBidAmount, validateComment, validateMaxAutoBid, type CommentMode } from '@/lib/bids'
import { formatMoney, readMoney } from '@/lib/money'

export const BID_FAILED = 'There was an error placing your bid.'

/** The success toast's words: a leader's raise moves only the maximum, so say so rather than repeat the price. */
type BidFigures = Pick<Bid, 'status' | 'amount' | 'maxAutoBid' | 'autoBidEnabled'> & { pinSlot?: Pick<Bid['pinSlot'], 'currentBid'> }

/** Said beside the amount, before the buyer submits, when the amount typed no longer beats the current bid. An
 *  amount that cannot be read is not also called too low: the field says how to type it. */
export function tooLowWarning(raw: string, slot: Pick<Slot, 'currentBid' | 'minBid'>, openedAt: number | null): string | null {
  if (!readMoney(raw).ok || !validateBidAmount(raw, slot)) return null
  const least = `Bid at least ${formatMoney(minimumNextBid(slot))}.`
  if (slot.currentBid != null && slot.currentBid !== openedAt) return `Too low: the current bid is now ${formatMoney(slot.currentBid)}. ${least}`
  return `Too low. ${least}`
}

export function bidPlacedText(placed: BidFigures, before?: BidFigures): string {
  const max = bidMaximum(placed)
  if (before?.status === 'ACTIVE' && placed.status === 'ACTIVE' && placed.amount === before.amount && max != null) {
    const stays = `Your visible bid stays at ${formatMoney(placed.amount)} until someone bids against you.`
    if (max > (bidMaximum(before) ?? before.amount)) return `Your maximum is now ${formatMoney(max)}. ${stays}`
    return `Your maximum stays at ${formatMoney(max)}, above this amount. ${stays}`
  }
  if (placed.status !== 'ACTIVE') return `Your bid of ${formatMoney(placed.amount)} was placed, but another bidder's maximum is higher.`
  const price = placed.pinSlot?.currentBid
  // one price: the leader pays the second price, which may be below its own bid
  const pays = price != null && price < placed.amount ? ` If the auction ended now you would pay ${formatMoney(price)}.` : ''
  return `You are the highest bidder at ${formatMoney(placed.amount)}${max != null ? `, with a maximum of ${formatMoney(max)}` : ''}.${pays}`
}

/** What the bid panel holds when the buyer submits (the amount as typed, or the suggested one). */
export interface BidInput {
  amount: string
  autoBid: boolean
  maxAutoBid: string
  mode: CommentMode
  selected: string | null
  text: string
}

/** The first thing that stops a bid, in the order the panel tells it (amount, maximum, comment), with the
 *  field it belongs to and the toast's words; null when the bid can be sent. */
export function bidProblem(input: BidInput, slot: Pick<Slot, 'currentBid' | 'minBid'>): { field: 'typedAmount' | 'maxAutoBid' | 'text'; title: string; description: string } | null {
  const amountError = validateBidAmount(input.amount, slot)
  const reading = readMoney(input.amount)
  if (amountError || !reading.ok) return { field: 'typedAmount', title: 'Invalid Bid Amount', description: amountError ?? BID_FAILED }
  if (input.autoBid) {
    const maxError = validateMaxAutoBid(input.maxAutoBid, reading.cents)
    if (maxError || !readMoney(input.maxAutoBid).ok) return { field: 'maxAutoBid', title: 'Invalid Maximum Bid', description: maxError ?? BID_FAILED }
  }
  const problem = validateComment(input.mode, input.selected, input.text)
  return problem ? { field: 'text', ...problem } : null
}
