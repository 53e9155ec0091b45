import { describe, expect, it } from 'vitest'
import { monthLabel, placementSeries, priceHistory } from './charts'

describe('monthLabel', () => {
  it('names the month', () => {
    expect(monthLabel('2026-09')).toBe('Sep 2026')
    expect(monthLabel('2026-01', true)).toBe('Jan')
  })
})

describe('priceHistory', () => {
  const slot = {
    minBid: 80,
    currentBid: 105,
    createdAt: '2026-11-20T10:00:00Z',
    bids: [
      { amount: 104, createdAt: '2026-11-21T09:00:00Z', updatedAt: '2026-11-21T09:00:00Z', status: 'OUTBID' },
      { amount: 88, createdAt: '2026-11-20T12:00:00Z', updatedAt: '2026-11-20T15:00:00Z', status: 'OUTBID' },
      { amount: 105, createdAt: '2026-11-20T15:00:00Z', updatedAt: '2026-11-21T09:00:00Z', status: 'ACTIVE' },
    ],
  }

  it('runs from the minimum bid through the outbid amounts to the current price, in time order', () => {
    expect(priceHistory(slot).map((p) => [new Date(p.at).toISOString(), p.price, p.label])).toEqual([
      ['2026-11-20T10:00:00.000Z', 80, 'Minimum bid'],
      ['2026-11-20T12:00:00.000Z', 88, 'Bid'],
      ['2026-11-21T09:00:00.000Z', 104, 'Bid'],
      ['2026-11-21T09:00:00.000Z', 105, 'Current price'],
    ])
  })

  it('is only the minimum bid without bids', () => {
    expect(priceHistory({ ...slot, currentBid: null, bids: [] })).toEqual([{ at: Date.parse(slot.createdAt), price: 80, label: 'Minimum bid' }])
  })
})

describe('placementSeries', () => {
  it('merges the figures and the hourly clicks into one running series', () => {
    const series = placementSeries(
      [{ at: '2026-11-20T10:30:00Z', likes: 5, replies: 1 }, { at: '2026-11-20T12:30:00Z', likes: 9, replies: 2 }],
      [{ hour: '2026-11-20T11:00:00Z', clicks: 3 }, { hour: '2026-11-20T13:00:00Z', clicks: 2 }],
    )
    expect(series.map(({ likes, replies, clicks }) => [likes, replies, clicks])).toEqual([[5, 1, 0], [5, 1, 3], [9, 2, 3], [9, 2, 5]])
    expect(placementSeries([], [])).toEqual([])
  })
})
