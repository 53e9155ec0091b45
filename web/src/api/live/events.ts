/** What the live stream (`GET /events/stream`) sends, by SSE event name. Money as dollars, dates as ISO strings. */
export interface SlotEvent {
  id: string
  currentBid: number | null
  bidCount: number
  /** brands in the running (the number shown); absent or null from a server that predates it */
  bidderCount?: number | null
  auctionEnd: string
  status: string
}

/** `amount`: the bid's own amount when the event tells it, else null (unchanged); `currentBid`: the slot's price
 * after the change; `slotId` is null for the payment steps. */
export interface BidEvent {
  id: string
  slotId: string | null
  status: string
  amount: number | null
  currentBid?: number | null
  slotTitle?: string | null
}

export interface LiveNotice {
  id: string
  title: string
  message: string
  createdAt: string
  kind: string
  read: boolean
  link?: string | null
}

export interface NotificationEvent {
  notification: LiveNotice
  unreadCount: number
}

/** A placement's proof, acceptance, recheck or dispute changed (issue 22): its screens ask the server again.
 *  The stream names the bid as `id`; `change` says what happened (ACCEPTED, DISPUTED, ANSWERED, DECIDED,
 *  RECHECK_REQUESTED, ENDED). */
export interface PlacementEvent {
  bidId: string
  change: string | null
}

export type LiveEvent =
  | { type: 'ready' }
  | { type: 'slot'; data: SlotEvent }
  | { type: 'bid'; data: BidEvent }
  | { type: 'notification'; data: NotificationEvent }
  | { type: 'placement'; data: PlacementEvent }
  | { type: 'end'; reason: string }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null
const isMoney = (v: unknown) => v === null || typeof v === 'number'

/** One SSE message as a typed event, or null for anything unknown or malformed (a newer server may send more). */
export function parseLiveEvent(event: string, raw: string): LiveEvent | null {
  let data: unknown
  try {
    data = raw ? JSON.parse(raw) : {}
  } catch {
    return null
  }
  if (!isObject(data)) return null
  switch (event) {
    case 'ready':
      return { type: 'ready' }
    case 'end':
      return { type: 'end', reason: typeof data.reason === 'string' ? data.reason : 'ended' }
    case 'slot':
      if (typeof data.id !== 'string' || !isMoney(data.currentBid) || typeof data.bidCount !== 'number' || typeof data.auctionEnd !== 'string' || typeof data.status !== 'string') return null
      return { type: 'slot', data: data as unknown as SlotEvent }
    case 'bid':
      if (typeof data.id !== 'string' || !(data.slotId === null || typeof data.slotId === 'string') || typeof data.status !== 'string' || !isMoney(data.amount)) return null
      return { type: 'bid', data: data as unknown as BidEvent }
    case 'notification': {
      const n = data.notification
      if (!isObject(n) || typeof n.id !== 'string' || typeof n.title !== 'string' || typeof data.unreadCount !== 'number') return null
      return { type: 'notification', data: data as unknown as NotificationEvent }
    }
    case 'placement': {
      const bidId = data.id ?? data.bidId
      if (typeof bidId !== 'string') return null
      return { type: 'placement', data: { bidId, change: typeof data.change === 'string' ? data.change : null } }
    }
    default:
      return null
  }
}
