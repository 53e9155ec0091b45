import * as React from 'react'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { Link, useSearchParams } from 'react-router'
import { ChevronDown, LayoutGrid, List, Megaphone, SlidersHorizontal, X } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { Spinner } from '@/components/ui/spinner'
import { SlotFilterFields } from '@/components/slot-filter-fields'
import { campaignFilters, type CampaignDraft } from '@/lib/campaigns'
import {
  clearFilters,
  DEFAULT_VIEW,
  isMarketplaceView,
  filtersActive,
  slotQuery,
  SORT_OPTIONS,
  totalText,
  type Filters,
} from '@/lib/filters'
import { cn } from '@/lib/utils'
import { useTabState } from '@/hooks/use-tab-state'
import { useDebounced } from '@/hooks/use-debounced'
import { EmptyState, LoadError, Loading } from '@/components/common'
import { KEYS } from '@/api/keys'
import { slotDetailsQuery } from '@/api/queries'
import type { Slot } from '@/api/types'
import { fetchSlots } from './api/queries'
import { useInstagramCallbackToast } from '@/hooks/use-instagram'
import { PlaceBidSheet } from './PlaceBidSheet'
import type { BidSuggestion } from './hooks/use-place-bid-form'
import { SlotCard } from './SlotCard'
import { SlotSearch } from './components/SlotSearch'

export const SLOTS_LOAD_ERROR = 'Failed to load pin slots. Please try again later.'
export const NO_SLOTS = 'No pin slots found matching your criteria.'
export const NARROW_TO_SEE_MORE = 'That is as far as the list goes: narrow the search or the filters to see the rest.'

/** /marketplace?slot=<id> opens that slot's bid panel (the way back from connecting Instagram in the panel);
 *  `&again=1` is the outbid toast's Bid Again, which starts the amount at the current bid plus 10 as My Bids' does. */
function useSlotFromLink() {
  const [params, setParams] = useSearchParams()
  const linked = params.get('slot')
  const again = params.get('again') === '1'
  const [bidSlot, setBidSlot] = React.useState<Slot | null>(null)
  const [suggest, setSuggest] = React.useState<BidSuggestion>('next')
  const slot = useQuery({ ...slotDetailsQuery(linked ?? ''), enabled: Boolean(linked), retry: false })
  React.useEffect(() => {
    if (!linked || slot.isPending) return
    if (slot.data?.status === 'ACTIVE') {
      setSuggest(again ? 'again' : 'next')
      setBidSlot(slot.data)
    }
    setParams({}, { replace: true })
  }, [linked, again, slot.isPending, slot.data, setParams])
  const open = React.useCallback((next: Slot | null) => {
    setSuggest('next')
    setBidSlot(next)
  }, [])
  return [bidSlot, open, suggest] as const
}

const MARKETPLACE_VIEW_KEY = 'pinbid.marketplace.view'

export default function MarketplacePage() {
  useInstagramCallbackToast()
  // kept by the tab: connecting Instagram from a bid panel leaves the site and comes back to the same search
  const [{ search, filters, sortBy }, setMarketView] = useTabState(MARKETPLACE_VIEW_KEY, DEFAULT_VIEW, isMarketplaceView)
  const setSearch = (value: string) => setMarketView((v) => ({ ...v, search: value }))
  const setSortBy = (value: string) => setMarketView((v) => ({ ...v, sortBy: value }))
  const setFilters = (change: (prev: Filters) => Filters) => setMarketView((v) => ({ ...v, filters: change(v.filters) }))
  const [view, setView] = React.useState<'grid' | 'list'>('grid')
  const [open, setOpen] = React.useState(false)
  const [bidSlot, setBidSlot, suggest] = useSlotFromLink()
  const q = useDebounced(search)
  const f = useDebounced(filters, 250)

  const slots = useInfiniteQuery({
    queryKey: KEYS.slots({ q, f, sortBy }),
    queryFn: ({ pageParam }) => fetchSlots(slotQuery(q, f, sortBy, pageParam)),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page < last.totalPages ? last.page + 1 : undefined),
    placeholderData: (prev) => prev,
  })
  const list = slots.data?.pages.flatMap((p) => p.slots) ?? []
  const last = slots.data?.pages.at(-1)
  const active = filtersActive(filters)
  const set = <K extends keyof Filters>(key: K, value: Filters[K]) => setFilters((prev) => ({ ...prev, [key]: value }))

  return (
    <div className="mx-auto w-full max-w-6xl space-y-5">
      <div>
        <h2 className="text-2xl font-bold">Pin Slot Marketplace</h2>
        <p className="text-muted-foreground">Bid on pinned comments under creators' posts.</p>
      </div>

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <SlotSearch id="market-search" value={search} onChange={setSearch} className="flex-1" />
        <div className="flex gap-2">
          <Label htmlFor="market-sort" className="sr-only">
            Sort by
          </Label>
          <NativeSelect id="market-sort" value={sortBy} onChange={(e) => setSortBy(e.target.value)} className="flex-1 sm:w-48">
            {SORT_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </NativeSelect>
          <div role="group" aria-label="View" className="flex shrink-0 rounded-md border p-0.5">
            <Button type="button" size="icon" variant={view === 'grid' ? 'secondary' : 'ghost'} className="size-8" aria-pressed={view === 'grid'} aria-label="Grid view" onClick={() => setView('grid')}>
              <LayoutGrid />
            </Button>
            <Button type="button" size="icon" variant={view === 'list' ? 'secondary' : 'ghost'} className="size-8" aria-pressed={view === 'list'} aria-label="List view" onClick={() => setView('list')}>
              <List />
            </Button>
          </div>
        </div>
      </div>

      <section className="rounded-xl border bg-card">
        <div className="flex flex-wrap items-center justify-between gap-1 p-2">
          <Button variant="ghost" aria-expanded={open} aria-controls="advanced-filters" onClick={() => setOpen((o) => !o)} className="gap-2 px-2 sm:px-4">
            <SlidersHorizontal /> Advanced Filters
            {active && <Badge variant="soft">Active</Badge>}
            <ChevronDown className={cn('transition-transform', open && 'rotate-180')} />
          </Button>
          <div className="ml-auto flex flex-wrap items-center gap-1">
            {active && (
              <Button variant="ghost" size="sm" onClick={() => setFilters(() => clearFilters())}>
                <X /> Clear All
              </Button>
            )}
            <Button asChild variant="outline" size="sm">
              <Link to="/campaigns/new" state={{ filters: campaignFilters(filters, search) } satisfies CampaignDraft}>
                <Megaphone /> Save this search as a campaign
              </Link>
            </Button>
          </div>
        </div>
        {open && (
          <div id="advanced-filters" className="border-t p-4">
            <SlotFilterFields filters={filters} onChange={set} />
          </div>
        )}
      </section>

      {slots.isPending ? (
        <Loading text="Loading pin slots..." />
      ) : slots.isError && list.length === 0 ? (
        <LoadError message={SLOTS_LOAD_ERROR} error={slots.error} onRetry={() => void slots.refetch()} />
      ) : (
        <>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            Showing {list.length.toLocaleString('en-US')} of {last ? totalText(last) : '0'} pin slots
          </p>
          {list.length === 0 ? (
            <EmptyState text={NO_SLOTS} />
          ) : (
            <div className={cn('grid gap-4', view === 'grid' ? 'sm:grid-cols-2 lg:grid-cols-3' : 'grid-cols-1')}>
              {list.map((s) => (
                <SlotCard key={s.id} slot={s} layout={view} onBid={setBidSlot} />
              ))}
            </div>
          )}
          {slots.hasNextPage && (
            <div className="flex justify-center">
              <Button variant="outline" onClick={() => void slots.fetchNextPage()} disabled={slots.isFetchingNextPage}>
                {slots.isFetchingNextPage && <Spinner />} Load More Pin Slots
              </Button>
            </div>
          )}
          {last && !slots.hasNextPage && (!last.totalIsExact || list.length < last.total) && <p className="text-center text-sm text-muted-foreground">{NARROW_TO_SEE_MORE}</p>}
          {slots.isError && list.length > 0 && <p role="alert" className="text-center text-sm text-destructive">{SLOTS_LOAD_ERROR}</p>}
        </>
      )}
      <PlaceBidSheet slot={bidSlot} suggest={suggest} onOpenChange={(o) => !o && setBidSlot(null)} />
    </div>
  )
}
