/* The figures behind the charts, as plain data: month labels and a slot's price over time. */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** "2026-09" → "Sep 2026" (or "Sep" when `short`). */
export function monthLabel(month: string, short = false): string {
  const [year, number] = month.split('-')
  const name = MONTHS[Number(number) - 1] ?? month
  return short ? name : `${name} ${year}`
}

export type PricePoint = { at: number; price: number; label: string }

/**
 * The slot's public price over time, as the server kept it each time it moved (the minimum bid first): never
 * rebuilt from bids, whose amounts can be a bidder's maximum reached later, and never a hidden maximum.
 */
export function priceHistory(slot: { priceHistory: { at: string; price: number }[] }): PricePoint[] {
  return slot.priceHistory.map((point, i) => ({ at: Date.parse(point.at), price: point.price, label: i === 0 ? 'Minimum bid' : 'Price' }))
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
