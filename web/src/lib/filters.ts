/** Marketplace filters (spec sections 2 and 9; ARCHITECTURE section 9: the server filters). */
import type { paths } from '@/api/client'
import { rules } from '@/config'
import { hoursText } from './spans'
import type { AskParameter } from './ask'

export const PRICE_MIN = 0
export const PRICE_MAX = 1000
export const PRICE_STEP = 10
export const PAGE_SIZE = 10
export const DASHBOARD_LIMIT = 4

export const MIN_VIEWS_OPTIONS: { value: string; label: string; views: number | null }[] = [
  { value: 'any', label: 'Any views', views: null },
  { value: '1k', label: '1K+', views: 1_000 }, // the spec labels this '10K+' too; see README
  { value: '10k', label: '10K+', views: 10_000 },
  { value: '100k', label: '100K+', views: 100_000 },
  { value: '500k', label: '500K+', views: 500_000 },
  { value: '1m', label: '1M+', views: 1_000_000 },
  { value: '5m', label: '5M+', views: 5_000_000 },
]

/** 'Any time left', then the spans the server filters by (served: its value in the query -> hours). */
export const timeLeftOptions = (): { value: TimeLeft; label: string }[] => [
  { value: 'all', label: 'Any time left' },
  ...Object.entries(rules().timeLeftHours).map(([value, hours]) => ({ value: value as TimeLeft, label: `Ending within ${hoursText(hours)}` })),
]

export const SORT_OPTIONS = [
  { value: 'newest', label: 'Newest' },
  { value: 'popular', label: 'Most popular' },
  { value: 'price-low', label: 'Price: low to high' },
  { value: 'price-high', label: 'Price: high to low' },
  { value: 'ending-soon', label: 'Ending soon' },
  { value: 'most-views', label: 'Most views' },
  { value: 'most-reliable', label: 'Most reliable' },
] as const

export const KEPT_OPTIONS = [
  { value: 'any', label: 'Any creator', percent: 0 },
  { value: '80', label: '80%+ placements kept', percent: 80 },
  { value: '95', label: '95%+ placements kept', percent: 95 },
] as const

/** 'all' or one of the spans the server filters by (its contract's values; their hours are served) */
export type TimeLeft = NonNullable<NonNullable<paths['/marketplace/slots']['get']['parameters']['query']>['timeLeft']>
export type SortBy = (typeof SORT_OPTIONS)[number]['value']

export interface Filters {
  price: [number, number]
  minViews: string
  timeLeft: TimeLeft
  verified: boolean
  category: string
  minKept: string
}

export const DEFAULT_FILTERS: Filters = { price: [PRICE_MIN, PRICE_MAX], minViews: 'any', timeLeft: 'all', verified: false, category: 'all', minKept: 'any' }

/** The 'Active' badge: any filter differs from its default. */
export function filtersActive(f: Filters): boolean {
  return (
    f.price[0] !== DEFAULT_FILTERS.price[0] ||
    f.price[1] !== DEFAULT_FILTERS.price[1] ||
    f.minViews !== DEFAULT_FILTERS.minViews ||
    f.timeLeft !== DEFAULT_FILTERS.timeLeft ||
    f.verified !== DEFAULT_FILTERS.verified ||
    f.category !== DEFAULT_FILTERS.category ||
    f.minKept !== DEFAULT_FILTERS.minKept
  )
}

/** Clear All: every filter back to its default (search and sort are kept). */
export function clearFilters(): Filters {
  return { ...DEFAULT_FILTERS, price: [PRICE_MIN, PRICE_MAX] }
}

export interface SlotQuery {
  q?: string
  category?: string
  minPrice?: number
  maxPrice?: number
  minViews?: number
  timeLeft?: TimeLeft
  verified?: boolean
  minKeptPercent?: number
  sortBy?: string
  ask?: string
  ignore?: AskParameter[]
  page: number
  limit: number
}

/** The filters that say who a slot reaches, as the listing's parameters: only what differs from the defaults (the
 *  listing's query and a campaign's audience both send these). */
export type AudienceFilters = Pick<SlotQuery, 'category' | 'minPrice' | 'maxPrice' | 'minViews' | 'verified' | 'minKeptPercent'>

export function audienceFilters(f: Filters): AudienceFilters {
  const q: AudienceFilters = {}
  if (f.category !== 'all') q.category = f.category
  if (f.price[0] > PRICE_MIN) q.minPrice = f.price[0]
  // the top of the slider means "no upper limit"
  if (f.price[1] < PRICE_MAX) q.maxPrice = f.price[1]
  const views = MIN_VIEWS_OPTIONS.find((o) => o.value === f.minViews)?.views
  if (views) q.minViews = views
  if (f.verified) q.verified = true
  const kept = KEPT_OPTIONS.find((o) => o.value === f.minKept)?.percent
  if (kept) q.minKeptPercent = kept
  return q
}

/** Query for GET /marketplace/slots: only what differs from the defaults is sent. */
export function slotQuery(search: string, f: Filters, sortBy: string, page: number, limit = PAGE_SIZE): SlotQuery {
  const q: SlotQuery = { sortBy, page, limit, ...audienceFilters(f) }
  if (search.trim()) q.q = search.trim()
  if (f.timeLeft !== 'all') q.timeLeft = f.timeLeft
  return q
}

/** What the brand searched, filtered and sorted by: kept by the tab across a trip to Instagram and back. */
export interface MarketplaceView {
  search: string
  filters: Filters
  sortBy: string
}

export const DEFAULT_VIEW: MarketplaceView = { search: '', filters: DEFAULT_FILTERS, sortBy: 'newest' }

export function isMarketplaceView(value: unknown): value is MarketplaceView {
  if (!value || typeof value !== 'object') return false
  const { search, filters, sortBy } = value as Record<string, unknown>
  if (typeof search !== 'string' || !SORT_OPTIONS.some((o) => o.value === sortBy) || !filters || typeof filters !== 'object') return false
  const f = filters as Record<string, unknown>
  return (
    Array.isArray(f.price) && f.price.length === 2 && f.price.every((n) => typeof n === 'number') &&
    typeof f.minViews === 'string' && typeof f.timeLeft === 'string' && typeof f.verified === 'boolean' &&
    typeof f.category === 'string' && typeof f.minKept === 'string'
  )
}


/** A listing's total as the server counted it: exact ("12,345"), or where it stopped counting ("10,000+"). */
export function totalText(page: { total: number; totalIsExact: boolean }): string {
  return `${page.total.toLocaleString('en-US')}${page.totalIsExact ? '' : '+'}`
}

/** "1 opportunity found", "12,345 opportunities found", "10,000+ opportunities found". */
export function opportunitiesFound(page: { total: number; totalIsExact: boolean }): string {
  return `${totalText(page)} ${page.total === 1 && page.totalIsExact ? 'opportunity' : 'opportunities'} found`
}
