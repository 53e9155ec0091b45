/* The figures behind the charts, as plain data: month labels and a slot's price over time. */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** "2026-09" → "Sep 2026" (or "Sep" when `short`). */
export function monthLabel(month: string, short = false): string {
  const [year, number] = month.split('-')
  const name = MONTHS[Number(number) - 1] ?? month
  return short ? name : `${name} ${year}`
}

export type PricePoint = { at: number; price: number; label: string }

type HistoryBid = { amount: number; createdAt: string; updatedAt: string; status: string }

/**
 * The slot's price over time, from its minimum bid to its current price. The history keeps each bidder's
 * latest visible amount, so the path is rebuilt from what it can tell: every bid that is no longer leading
 * set the price when it came in (its amount is where it was outbid), and the current price was reached
 * when the leading bid last changed.
 */
export function priceHistory(slot: { minBid: number; currentBid: number | null; createdAt: string; bids: HistoryBid[] }): PricePoint[] {
  const points: PricePoint[] = [{ at: Date.parse(slot.createdAt), price: slot.minBid, label: 'Minimum bid' }]
  const leading = new Set(['ACTIVE', 'PENDING_INFLUENCER_APPROVAL', 'APPROVED', 'AWAITING_PAYMENT', 'WON', 'PINNED'])
  const bids = [...slot.bids].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt))
  let price = slot.minBid
  for (const bid of bids) {
    if (leading.has(bid.status)) continue
    price = Math.max(price, bid.amount)
    points.push({ at: Date.parse(bid.createdAt), price, label: 'Bid' })
  }
  const leader = bids.find((b) => leading.has(b.status))
  if (leader && slot.currentBid != null) {
    const at = Math.max(Date.parse(leader.updatedAt), points[points.length - 1].at)
    points.push({ at, price: Math.max(price, slot.currentBid), label: 'Current price' })
  }
  return points
}

export type PlacementPoint = { at: number; likes: number; replies: number; clicks: number }

/** One series of a placement's figures over time: likes and replies as the tracker saw them change, clicks as a
 * running total of the hours' counts; each point carries the latest of all three. */
export function placementSeries(
  figures: readonly { at: string; likes: number; replies: number }[],
  clicksByHour: readonly { hour: string; clicks: number }[],
): PlacementPoint[] {
  const events = [
    ...figures.map((f) => ({ at: Date.parse(f.at), likes: f.likes, replies: f.replies, clicks: 0 })),
    ...clicksByHour.map((c) => ({ at: Date.parse(c.hour), likes: -1, replies: -1, clicks: c.clicks })),
  ].sort((a, b) => a.at - b.at)
  const points: PlacementPoint[] = []
  let likes = 0
  let replies = 0
  let clicks = 0
  for (const e of events) {
    if (e.likes >= 0) {
      likes = e.likes
      replies = e.replies
    }
    clicks += e.clicks
    points.push({ at: e.at, likes, replies, clicks })
  }
  return points
}
