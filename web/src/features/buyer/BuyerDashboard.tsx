import * as React from 'react'
import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { DollarSign, Gavel, Megaphone, Trophy } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { DASHBOARD_LIMIT, opportunitiesFound } from '@/lib/filters'
import { cn } from '@/lib/utils'
import { SpendChartCard } from '@/components/charts'
import { formatMoney } from '@/lib/money'
import { EmptyState, LoadError, StatCard } from '@/components/common'
import type { Slot } from '@/api/types'
import { slotsQuery, useBuyerDashboard } from './api/queries'
import { PlaceBidSheet } from './PlaceBidSheet'
import { SlotCard } from './SlotCard'
import { SlotSearch } from './components/SlotSearch'
import { AskBox } from './components/AskBox'
import { askQuery, type AskParameter } from '@/lib/ask'
import type { CampaignDraft } from '@/lib/campaigns'
import { useDebounced } from '@/hooks/use-debounced'

export const DASHBOARD_LOAD_ERROR = 'Failed to load dashboard data. Please try again later.'
export const DASHBOARD_CATEGORIES = ['Fashion', 'Tech', 'Fitness', 'Food', 'Travel', 'Gaming']

export function BuyerDashboard() {
  const stats = useBuyerDashboard()
  const [search, setSearch] = React.useState('')
  const [category, setCategory] = React.useState<string | null>(null)
  const [bidSlot, setBidSlot] = React.useState<Slot | null>(null)
  const [question, setQuestion] = React.useState('')
  const [removed, setRemoved] = React.useState<AskParameter[]>([])
  const q = useDebounced(search)
  const asked = askQuery(useDebounced(question), removed)
  // a question ranks the slots by how well they match it, unless it asks for a sort
  const query = { ...(asked.ask ? asked : { sortBy: 'newest' }), page: 1, limit: DASHBOARD_LIMIT, ...(q.trim() ? { q: q.trim() } : {}), ...(category ? { category: category.toLowerCase() } : {}) }
  const slots = useQuery({ ...slotsQuery(query), placeholderData: (prev) => prev })

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      {stats.isError ? (
        <LoadError message={DASHBOARD_LOAD_ERROR} onRetry={() => void stats.refetch()} />
      ) : (
        <div className="grid gap-4 sm:grid-cols-3">
          <StatCard icon={Gavel} label="Active Bids" value={stats.data ? stats.data.activeBids : '…'} />
          <StatCard icon={Trophy} label="Won Auctions" value={stats.data ? stats.data.wonAuctions : '…'} />
          <StatCard icon={DollarSign} label="Total Spent" value={stats.data ? formatMoney(stats.data.totalSpent) : '…'} />
        </div>
      )}
      <SpendChartCard />

      <section className="grid gap-3 rounded-xl border bg-card p-4">
        <SlotSearch id="dash-search" value={search} onChange={setSearch} />
        <div role="group" aria-label="Category" className="flex flex-wrap gap-2">
          {DASHBOARD_CATEGORIES.map((c) => (
            <Button key={c} size="sm" variant={category === c ? 'default' : 'outline'} aria-pressed={category === c} onClick={() => setCategory(category === c ? null : c)}>
              {c}
            </Button>
          ))}
        </div>
        <AskBox
          value={question}
          onChange={(value) => {
            setQuestion(value)
            setRemoved([])
          }}
          understood={asked.ask ? slots.data?.understood : null}
          onRemove={(parameter) => setRemoved([...removed, parameter])}
        />
        {question.trim() && (
          <Button asChild variant="outline" size="sm" className="w-fit">
            <Link to="/campaigns/new" state={{ ask: question.trim() } satisfies CampaignDraft}>
              <Megaphone /> Save this search as a campaign
            </Link>
          </Button>
        )}
      </section>

      <section aria-labelledby="available-title" className="space-y-3">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <div>
            <h2 id="available-title" className="text-lg font-semibold">
              Available Pin Slots
            </h2>
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {slots.data ? opportunitiesFound(slots.data) : ' '}
            </p>
          </div>
          <Button asChild variant="outline" size="sm">
            <Link to="/marketplace">Open the Marketplace</Link>
          </Button>
        </div>
        {slots.isPending ? (
          <div role="status" className="flex items-center justify-center gap-2 py-12 text-muted-foreground">
            <Spinner className="size-5 text-primary" /> Loading pin slots...
          </div>
        ) : slots.isError ? (
          <LoadError message="Failed to load pin slots. Please try again later." error={slots.error} onRetry={() => void slots.refetch()} />
        ) : slots.data.slots.length === 0 ? (
          <EmptyState text="No pin slots found matching your criteria." />
        ) : (
          <div className={cn('grid gap-4 sm:grid-cols-2 2xl:grid-cols-4', slots.isFetching && 'opacity-70')}>
            {slots.data.slots.map((s) => (
              <SlotCard key={s.id} slot={s} onBid={setBidSlot} buttonText="Place Bid" showMinBid={false} />
            ))}
          </div>
        )}
      </section>
      <PlaceBidSheet slot={bidSlot} onOpenChange={(o) => !o && setBidSlot(null)} />
    </div>
  )
}
