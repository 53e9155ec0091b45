import type { QueryClient, QueryKey } from '@tanstack/react-query'
import { KEYS } from '@/api/keys'
import type { BidEvent, LiveNotice, NotificationEvent, PlacementEvent, SlotEvent } from './events'

type Role = 'INFLUENCER' | 'BUYER' | 'ADMIN' | string | undefined

/** The queries whose data holds slots (alone, in pages, or inside bids): a slot event is written into each. */
const SLOT_HOLDERS: QueryKey[] = [['marketplace'], KEYS.buyerBids, KEYS.activeSlots, KEYS.influencerBids, KEYS.approvals]

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

/** The slot with the event's figures, or the same object when the event is older than what it shows or changes nothing. */
export function mergeSlot<T extends { bidCount: number; bidderCount?: number | null; status: string; currentBid?: number | null; auctionEnd: string }>(slot: T, e: SlotEvent): T {
  // Bid actions only add up and a closed auction does not reopen: an event behind what a refetch already showed is old.
  if (e.bidCount < slot.bidCount) return slot
  if (slot.status !== 'ACTIVE' && e.status === 'ACTIVE') return slot
  const bidderCount = e.bidderCount ?? slot.bidderCount
  if (slot.currentBid === e.currentBid && slot.bidCount === e.bidCount && slot.bidderCount === bidderCount && slot.auctionEnd === e.auctionEnd && slot.status === e.status) return slot
  return { ...slot, currentBid: e.currentBid, bidCount: e.bidCount, bidderCount, auctionEnd: e.auctionEnd, status: e.status }
}

const looksLikeSlot = (v: Record<string, unknown>, id: string) => v.id === id && 'bidCount' in v && 'auctionEnd' in v && 'status' in v

/** Every copy of the slot inside `value` updated; untouched branches keep their identity (no needless re-render). */
export function patchSlotIn(value: unknown, e: SlotEvent): unknown {
  if (Array.isArray(value)) {
    let changed = false
    const out = value.map((item) => {
      const next = patchSlotIn(item, e)
      if (next !== item) changed = true
      return next
    })
    return changed ? out : value
  }
  if (!isObject(value)) return value
  if (looksLikeSlot(value, e.id)) return mergeSlot(value as unknown as SlotEvent, e)
  let out: Record<string, unknown> | null = null
  for (const [key, child] of Object.entries(value)) {
    const next = patchSlotIn(child, e)
    if (next !== child) {
      out ??= { ...value }
      out[key] = next
    }
  }
  return out ?? value
}

export function applySlotEvent(client: QueryClient, e: SlotEvent, role: Role) {
  for (const queryKey of SLOT_HOLDERS) client.setQueriesData({ queryKey }, (data: unknown) => patchSlotIn(data, e))
  if (role === 'INFLUENCER') {
    // a creator's own slot: the bid history, the counters and (once closed) the approvals come from the server
    for (const queryKey of [KEYS.activeSlots, KEYS.influencerDashboard, KEYS.influencerBids]) void client.invalidateQueries({ queryKey })
    if (e.status !== 'ACTIVE') void client.invalidateQueries({ queryKey: KEYS.approvals })
  } else if (e.status !== 'ACTIVE') {
    void client.invalidateQueries({ queryKey: KEYS.buyerBids })
    void client.invalidateQueries({ queryKey: KEYS.buyerDashboard })
  }
}

type BidLike = { id: string; status: string; amount: number }

/** Writes the bid's new status and amount into My Bids and answers the status it had before (undefined when unseen). */
export function applyBidEvent(client: QueryClient, e: BidEvent): string | undefined {
  let before: string | undefined
  client.setQueryData(KEYS.buyerBids, (bids: BidLike[] | undefined) => {
    if (!Array.isArray(bids)) return bids
    const index = bids.findIndex((b) => b.id === e.id)
    if (index < 0) return bids
    const bid = bids[index]!
    before = bid.status
    const amount = e.amount ?? bid.amount
    if (bid.status === e.status && bid.amount === amount) return bids
    const next = bids.slice()
    next[index] = { ...bid, status: e.status, amount }
    return next
  })
  // the rest of a bid's change (final price, payment, counters, the proof of its pin) is the server's to say
  void client.invalidateQueries({ queryKey: KEYS.buyerBids })
  void client.invalidateQueries({ queryKey: KEYS.placementTrust(e.id) })
  void client.invalidateQueries({ queryKey: KEYS.buyerDashboard })
  // a campaign's bid moved: its counts, committed money and the bid's line on the campaign's page
  void client.invalidateQueries({ queryKey: KEYS.buyerCampaigns })
  return before
}

export function applyNotificationEvent(client: QueryClient, e: NotificationEvent, role: Role) {
  client.setQueryData(KEYS.notifications, (list: LiveNotice[] | undefined) => {
    if (!Array.isArray(list) || list.some((n) => n.id === e.notification.id)) return list
    return [e.notification, ...list]
  })
  client.setQueryData(KEYS.notificationsUnread, { unreadCount: e.unreadCount })
  // a notice says something changed on a screen the stream has no slot or bid event for (a payment, a payout, a pin,
  // a second-chance offer made to the brand or answered for the creator)
  const lists = role === 'INFLUENCER' ? [KEYS.approvals, KEYS.earnings, KEYS.payouts, KEYS.influencerDashboard, KEYS.influencerBids, KEYS.activeSlots, KEYS.secondChances] : [KEYS.buyerBids, KEYS.buyerDashboard, KEYS.buyerCampaigns]
  // placement notices (check the pin, a report, a recheck, a decision) change a placement's proof and dispute
  for (const queryKey of [...lists, KEYS.placementTrustAll]) void client.invalidateQueries({ queryKey })
}

/** A placement's acceptance, recheck or dispute changed: its proof, the lists and the money behind it are asked again. */
export function applyPlacementEvent(client: QueryClient, e: PlacementEvent, role: Role) {
  void client.invalidateQueries({ queryKey: KEYS.placementTrust(e.bidId) })
  const lists = role === 'INFLUENCER' ? [KEYS.approvals, KEYS.earnings] : [KEYS.buyerBids, KEYS.placementResults(e.bidId)]
  for (const queryKey of lists) void client.invalidateQueries({ queryKey })
}

/** After a (re)connection nothing missed is replayed: what is on screen is fetched again. */
export function refetchOnScreen(client: QueryClient) {
  void client.invalidateQueries({ refetchType: 'active' })
}
