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
    priceHistory: [
      { at: '2026-11-20T10:00:00Z', price: 80 },
      { at: '2026-11-20T12:00:00Z', price: 88 },
      { at: '2026-11-21T09:00:00Z', price: 105 },
    ],
  }

  it("is the server's price as it moved, the minimum bid first", () => {
    expect(priceHistory(slot).map((p) => [new Date(p.at).toISOString(), p.price, p.label])).toEqual([
      ['2026-11-20T10:00:00.000Z', 80, 'Minimum bid'],
      ['2026-11-20T12:00:00.000Z', 88, 'Price'],
      ['2026-11-21T09:00:00.000Z', 105, 'Price'],
    ])
  })

  it('is only the minimum bid before any bid', () => {
    expect(priceHistory({ priceHistory: [slot.priceHistory[0]] })).toEqual([{ at: Date.parse('2026-11-20T10:00:00Z'), price: 80, label: 'Minimum bid' }])
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
