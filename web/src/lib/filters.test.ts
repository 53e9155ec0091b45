import { describe, expect, it } from 'vitest'
import { clearFilters, DEFAULT_FILTERS, filtersActive, opportunitiesFound, slotQuery, totalText } from './filters'

describe('marketplace filters', () => {
  it("shows 'Active' only when a filter differs from its default", () => {
    expect(filtersActive(DEFAULT_FILTERS)).toBe(false)
    expect(filtersActive({ ...DEFAULT_FILTERS, price: [10, 1000] })).toBe(true)
    expect(filtersActive({ ...DEFAULT_FILTERS, price: [0, 990] })).toBe(true)
    expect(filtersActive({ ...DEFAULT_FILTERS, minViews: '100k' })).toBe(true)
    expect(filtersActive({ ...DEFAULT_FILTERS, timeLeft: '24h' })).toBe(true)
    expect(filtersActive({ ...DEFAULT_FILTERS, verified: true })).toBe(true)
    expect(filtersActive({ ...DEFAULT_FILTERS, category: 'tech' })).toBe(true)
  })

  it('Clear All resets every filter', () => {
    const cleared = clearFilters()
    expect(cleared).toEqual(DEFAULT_FILTERS)
    expect(filtersActive(cleared)).toBe(false)
  })

  it('sends search, filters, sort and page to the server, defaults left out', () => {
    expect(slotQuery('', DEFAULT_FILTERS, 'newest', 1)).toEqual({ sortBy: 'newest', page: 1, limit: 10 })
    expect(slotQuery(' yoga ', { price: [20, 500], minViews: '1m', timeLeft: '7d', verified: true, category: 'fitness', minKept: 'any' }, 'price-low', 2)).toEqual({
      q: 'yoga',
      category: 'fitness',
      minPrice: 20,
      maxPrice: 500,
      minViews: 1_000_000,
      timeLeft: '7d',
      verified: true,
      sortBy: 'price-low',
      page: 2,
      limit: 10,
    })
  })
})

describe('reliability filter', () => {
  it('sends the least share of placements kept, only when chosen', () => {
    expect(slotQuery('', { ...DEFAULT_FILTERS, minKept: '95' }, 'most-reliable', 1).minKeptPercent).toBe(95)
    expect(slotQuery('', DEFAULT_FILTERS, 'newest', 1).minKeptPercent).toBeUndefined()
    expect(filtersActive({ ...DEFAULT_FILTERS, minKept: '80' })).toBe(true)
  })

  it('says a total exactly, or as where the count stopped', () => {
    expect(totalText({ total: 1_000_000, totalIsExact: true })).toBe('1,000,000')
    expect(totalText({ total: 10_000, totalIsExact: false })).toBe('10,000+')
    expect(opportunitiesFound({ total: 1, totalIsExact: true })).toBe('1 opportunity found')
    expect(opportunitiesFound({ total: 0, totalIsExact: true })).toBe('0 opportunities found')
    expect(opportunitiesFound({ total: 10_000, totalIsExact: false })).toBe('10,000+ opportunities found')
  })
})
