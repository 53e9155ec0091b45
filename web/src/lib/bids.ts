import type { Schemas } from '@/api/client'
import { rules } from '@/config'
import { dollarsToCents, formatMoney, readMoney } from './money'

export type Slot = Schemas['SlotOut']
export type Bid = Schemas['BidOut']
export type BidStatus =
  | 'ACTIVE'
  | 'OUTBID'
  | 'WON'
  | 'CANCELLED'
  | 'EXPIRED'
  | 'AWAITING_PAYMENT'
  | 'PENDING_INFLUENCER_APPROVAL'
  | 'APPROVED'
  | 'REJECTED'
  | 'PINNED'
  | 'OFFERED'

/** Spec section 9: the platform's fee and the creator's share, in percent, as the server charges them. */
export const platformFeePercent = () => rules().platformFeePercent
export const creatorSharePercent = () => 100 - platformFeePercent()
export const BID_STEP = 0.01
/** The suggested raise over the current bid (marketplace's proxy step, MARKETPLACE_BID_STEP) and Bid Again's (spec:
 *  plus 10), as served. */
export const bidIncrement = () => rules().bidIncrement
export const bidAgainIncrement = () => rules().bidAgainIncrement
/** The shortest and longest pin durations a slot may have, in days (served: the durations offered). */
export function pinDurationSpan(): { shortest: number; longest: number } {
  const days = rules().pinDurationDays.choices
  return { shortest: Math.min(...days), longest: Math.max(...days) }
}

export const round2 = (n: number) => Math.round(n * 100) / 100
export const money2 = (n: number) => n.toFixed(2)
export const net = (gross: number) => round2((gross * creatorSharePercent()) / 100)

/** What the current bid is, one price for everyone (ARCHITECTURE §5): the second price, what the leader pays at the close. */
export const CURRENT_BID_MEANS = 'What the leading brand would pay if the auction ended now'

/** The leader's line: the price it would pay now, which may be below its own bid and maximum. */
export function leaderPaysLine(slot: Pick<Slot, 'currentBid'>): string | null {
  return slot.currentBid != null ? `You are leading: you would pay ${formatMoney(slot.currentBid)} if the auction ended now.` : null
}

/** The default amount: the current bid plus the increment, or the minimum bid when nobody has bid yet. */
export function defaultBidAmount(slot: Pick<Slot, 'currentBid' | 'minBid'>): number {
  return slot.currentBid != null ? round2(slot.currentBid + bidIncrement()) : slot.minBid
}

/** With no bid yet there is no current bid to beat: the message speaks of the minimum bid only. */
export function bidAmountMessage(slot: Pick<Slot, 'currentBid' | 'minBid'>): string {
  if (slot.currentBid == null) return `Your bid must be at least the minimum bid (${formatMoney(slot.minBid)}).`
  return `Your bid must be higher than the current bid (${formatMoney(slot.currentBid)}) and at least the minimum bid (${formatMoney(slot.minBid)}).`
}

/** The lowest amount the server accepts now: a cent above the current bid, and never under the minimum bid. */
export function minimumNextBid(slot: Pick<Slot, 'currentBid' | 'minBid'>): number {
  return slot.currentBid != null ? Math.max(round2(slot.currentBid + BID_STEP), slot.minBid) : slot.minBid
}

/** Bid amount rules (spec section 5): not empty, read exactly (lib/money), >= minBid, > currentBid when one exists.
 *  Returns the message or null. */
export function validateBidAmount(raw: string, slot: Pick<Slot, 'currentBid' | 'minBid'>): string | null {
  if (!raw.trim()) return bidAmountMessage(slot)
  const reading = readMoney(raw)
  if (!reading.ok) return reading.message
  if (reading.cents < dollarsToCents(slot.minBid)) return bidAmountMessage(slot)
  if (slot.currentBid != null && reading.cents <= dollarsToCents(slot.currentBid)) return bidAmountMessage(slot)
  return null
}

export const AUTO_BID_MESSAGE = 'Your maximum auto-bid must be at least your bid amount.'

export function validateMaxAutoBid(raw: string, amountCents: number): string | null {
  if (!raw.trim()) return AUTO_BID_MESSAGE
  const reading = readMoney(raw)
  if (!reading.ok) return reading.message
  return reading.cents < amountCents ? AUTO_BID_MESSAGE : null
}

/** A bid above this many times the current price (or the minimum bid) asks for a confirmation naming the amount. */
export const LARGE_BID_RATIO = 2

/** How many times the current price the highest amount of a bid is, when that is enough to ask first; else null. */
export function largeBidRatio(highestCents: number, slot: Pick<Slot, 'currentBid' | 'minBid'>): number | null {
  const reference = dollarsToCents(slot.currentBid ?? slot.minBid)
  return reference > 0 && highestCents > LARGE_BID_RATIO * reference ? highestCents / reference : null
}

/** 'keep' raises a bid without naming a comment, so it keeps the one it has. */
export type CommentMode = 'keep' | 'existing' | 'new' | 'later'

export interface ValidationToast {
  title: string
  description: string
}

export const COMMENT_MESSAGES = {
  noneSelected: { title: 'No Comment Selected', description: 'Please select one of your previous comments to pin.' },
  empty: { title: 'Comment is Empty', description: 'Please write a new comment to pin.' },
} as const

/** Comment choice rules (spec section 5). 'keep' and 'later' name no comment (the bid keeps its own, or gets one on My Bids). */
export function validateComment(mode: CommentMode, selectedId: string | null, text: string): ValidationToast | null {
  if (mode === 'existing' && !selectedId) return COMMENT_MESSAGES.noneSelected
  if (mode === 'new' && !text.trim()) return COMMENT_MESSAGES.empty
  return null
}

export interface PlaceBidBody {
  pinSlotId: string
  amount: number
  autoBidEnabled: boolean
  maxAutoBid?: number
  commentId?: string
  commentUsername?: string
  commentText?: string
  newCommentText?: string
}

/** The POST /buyer/bids payload; maxAutoBid only when auto bid is on, and commentId (with the words of that
 *  comment, so the bid shows them) or newCommentText, or neither. */
export function buildBidBody(input: {
  slotId: string
  amount: number
  autoBid: boolean
  maxAutoBid: number | null
  mode: CommentMode
  commentId: string | null
  commentUsername?: string | null
  commentText?: string | null
  text: string
}): PlaceBidBody {
  const body: PlaceBidBody = { pinSlotId: input.slotId, amount: round2(input.amount), autoBidEnabled: input.autoBid }
  if (input.autoBid && input.maxAutoBid != null) body.maxAutoBid = round2(input.maxAutoBid)
  if (input.mode === 'existing' && input.commentId) {
    body.commentId = input.commentId
    if (input.commentUsername) body.commentUsername = input.commentUsername
    if (input.commentText?.trim()) body.commentText = input.commentText.trim()
  }
  if (input.mode === 'new' && input.text.trim()) body.newCommentText = input.text.trim()
  return body
}

export type BidTab = 'active' | 'won' | 'live' | 'past'

type TabInput = Pick<Bid, 'tab'> & { pinnedComment?: { status: string } | null }

/** My Bids tab (spec section 4): the server's, one definition shared with the dashboard's figures. */
export function bidTab(bid: TabInput): BidTab {
  return bid.tab
}

export function groupBids<T extends TabInput>(bids: T[]): Record<BidTab, T[]> {
  const out: Record<BidTab, T[]> = { active: [], won: [], live: [], past: [] }
  for (const b of bids) out[bidTab(b)].push(b)
  return out
}

/** Counters: Active Bids, Won Auctions, Live Pins, Completed (placements that ran their whole duration, on the
 *  past tab). Active Bids and Won Auctions are the dashboard's figures: the active tab, and every auction won
 *  (the server's `wonAuction`: a win stays one once paid, pinned or completed, off the won tab). */
export function bidCounters(bids: (TabInput & Pick<Bid, 'wonAuction'>)[]) {
  const g = groupBids(bids)
  return {
    active: g.active.length,
    won: bids.filter((b) => b.wonAuction).length,
    live: g.live.length,
    completed: bids.filter((b) => b.pinnedComment?.status === 'COMPLETED').length,
  }
}

export interface BuyerControls {
  payNow: boolean
  pendingApproval: boolean
  bidAgain: boolean
  timeLeft: boolean
  waitingForPin: boolean
  submitComment: boolean
  cancel: boolean
}

type ControlInput = Pick<Bid, 'status'> & {
  pinSlot: Pick<Slot, 'auctionEnd'> & { currentBid?: number | null }
  payment?: { status: string } | null
  pinnedComment?: unknown
}

/** Per-status buyer UI (spec section 4). */
export function buyerControls(bid: ControlInput, now: Date = new Date()): BuyerControls {
  const s = bid.status
  const future = new Date(bid.pinSlot.auctionEnd).getTime() > now.getTime()
  const paidNotPinned = s === 'WON' && bid.payment?.status === 'COMPLETED' && !bid.pinnedComment
  return {
    payNow: s === 'AWAITING_PAYMENT',
    pendingApproval: s === 'PENDING_INFLUENCER_APPROVAL',
    bidAgain: s === 'OUTBID' && future,
    timeLeft: s === 'ACTIVE',
    waitingForPin: paidNotPinned,
    submitComment: paidNotPinned,
    // the FAQ: only before the auction ends and only when not leading
    cancel: s === 'OUTBID' && future,
  }
}

/** The buyer's live bid on a slot, if any: a new bid from the panel replaces (or raises) it. */
export function liveBidOn<T extends Pick<Bid, 'status'> & { pinSlot: Pick<Slot, 'id'> }>(bids: T[] | undefined, slotId: string): T | undefined {
  return bids?.find((b) => b.pinSlot.id === slotId && (b.status === 'ACTIVE' || b.status === 'OUTBID'))
}

/** The most a bid may go to: its auto-bid maximum, shown beside the visible amount when it is higher. */
export function bidMaximum(bid: Pick<Bid, 'amount' | 'maxAutoBid' | 'autoBidEnabled'>): number | null {
  return bid.autoBidEnabled && bid.maxAutoBid != null && bid.maxAutoBid > bid.amount ? bid.maxAutoBid : null
}

type HistoryLine = { status?: string; user?: { name: string; email?: string | null } | null }

/** The people in the running on a slot: one per bidder (their latest bid), in the order of the history (newest
 *  first); a bidder whose latest bid was cancelled or withdrawn has left, as in the slot's `bidderCount`. */
export function bidders<T extends HistoryLine>(history: T[]): T[] {
  const seen = new Set<string>()
  return history.filter((line, i) => {
    const who = line.user ? (line.user.email ?? line.user.name) : `#${i}`
    if (seen.has(who)) return false
    seen.add(who)
    return line.status !== 'CANCELLED'
  })
}

export function bidAgainAmount(slot: Pick<Slot, 'currentBid' | 'minBid'>): number {
  return round2((slot.currentBid ?? slot.minBid) + bidAgainIncrement())
}

/** '2d 4h left', '3h 12m left', '45m left', 'Ended'. */
const SECONDS_SHOWN_BELOW_MS = 5 * 60_000

export function timeLeft(iso: string, now: Date = new Date()): string {
  const ms = new Date(iso).getTime() - now.getTime()
  if (!Number.isFinite(ms) || ms <= 0) return 'Ended'
  // the soft-close window is counted in seconds, so a moved end is seen moving
  if (ms < SECONDS_SHOWN_BELOW_MS) {
    const s = Math.ceil(ms / 1000)
    return s >= 60 ? `${Math.floor(s / 60)}m ${s % 60}s left` : `${s}s left`
  }
  const m = Math.floor(ms / 60000)
  const d = Math.floor(m / 1440)
  const h = Math.floor((m % 1440) / 60)
  if (d > 0) return `${d}d ${h}h left`
  if (h > 0) return `${h}h ${m % 60}m left`
  return `${Math.max(1, m)}m left`
}

export const STATUS_LABELS: Record<string, string> = {
  ACTIVE: 'Leading',
  OUTBID: 'Outbid',
  WON: 'Won',
  CANCELLED: 'Cancelled',
  EXPIRED: 'Expired',
  AWAITING_PAYMENT: 'Awaiting Payment',
  PENDING_INFLUENCER_APPROVAL: 'Pending Approval',
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
  PINNED: 'Pinned',
  OFFERED: 'Offered to you',
}

export function statusLabel(s: string) {
  return STATUS_LABELS[s] ?? s.charAt(0) + s.slice(1).toLowerCase().replace(/_/g, ' ')
}

export function compactNumber(n: number) {
  return new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(n)
}

type Ending = Pick<Bid, 'status' | 'payment' | 'pinnedComment' | 'refunded' | 'disputeOutcome'>

/** How a bid that was paid for ended, in words, for its badge: null while nothing ended (issue 31). A refunded or
 *  ended placement is never shown as a green "Pinned". */
export function placementEnd(bid: Ending): string | null {
  if (bid.payment?.status === 'REFUNDED') return 'Refunded'
  const placement = bid.pinnedComment?.status
  if (bid.disputeOutcome === 'REFUND_UNEARNED' || (placement === 'ENDED' && (bid.refunded ?? 0) > 0)) return 'Ended · part refunded'
  if (placement === 'COMPLETED') return 'Completed'
  if (placement === 'UNPINNED') return (bid.refunded ?? 0) > 0 ? 'Ended early · part refunded' : 'Ended early'
  if (placement === 'ENDED') return 'Ended'
  return null
}
