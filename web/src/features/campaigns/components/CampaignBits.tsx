import type * as React from 'react'
import { Megaphone } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { BackLink, DetailWait } from '@/components/common'
import type { CampaignCounts, CampaignStatus } from '@/api/types'
import { budgetBar, budgetSentence, campaignStatusLabel, STATUS_TONES } from '@/lib/campaigns'
import { formatCents } from '@/lib/money'
import { cn } from '@/lib/utils'

export function CampaignStatusBadge({ status }: { status: string }) {
  return <Badge variant={STATUS_TONES[status as CampaignStatus] ?? 'secondary'}>{campaignStatusLabel(status)}</Badge>
}

/** Spent, then committed to bids, against the budget: one bar, its figures beside it (the figures are the text;
 *  the bar is an image of them). */
export function BudgetBar({ campaign, figures = 'short', className }: { campaign: { budget: number; committed: number; spent: number }; figures?: 'short' | 'full'; className?: string }) {
  const bar = budgetBar(campaign)
  return (
    <div className={cn('grid gap-1.5', className)}>
      <div role="img" aria-label={budgetSentence(bar)} className="flex h-2.5 w-full overflow-hidden rounded-full bg-muted" data-testid="budget-bar">
        <div className="h-full bg-primary" style={{ width: `${bar.spentPercent}%` }} data-share="spent" />
        <div className="h-full bg-primary/40 bg-[repeating-linear-gradient(135deg,transparent_0_4px,rgb(255_255_255/0.35)_4px_8px)]" style={{ width: `${bar.heldPercent}%` }} data-share="committed" />
      </div>
      {figures === 'short' ? (
        <p className="text-xs text-muted-foreground tabular-nums" aria-hidden="true">
          <span className="font-medium text-foreground">{formatCents(bar.spentCents)}</span> spent · {formatCents(bar.heldCents)} committed · of {formatCents(bar.budgetCents)}
        </p>
      ) : (
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
          <Figure swatch="bg-primary" label="Spent" cents={bar.spentCents} />
          <Figure swatch="bg-primary/40" label="Committed to bids" cents={bar.heldCents} />
          <Figure swatch="bg-muted border" label="Free" cents={bar.freeCents} />
          <Figure label="Budget" cents={bar.budgetCents} />
        </dl>
      )}
    </div>
  )
}

function Figure({ label, cents, swatch }: { label: string; cents: number; swatch?: string }) {
  return (
    <div>
      <dt className="flex items-center gap-1.5 text-xs text-muted-foreground">
        {swatch && <span aria-hidden="true" className={cn('inline-block size-2.5 rounded-sm', swatch)} />}
        {label}
      </dt>
      <dd className="font-semibold tabular-nums">{formatCents(cents)}</dd>
    </div>
  )
}

const COUNT_LABELS: [keyof CampaignCounts, string][] = [
  ['bidding', 'Bidding'],
  ['leading', 'Leading'],
  ['outbid', 'Outbid'],
  ['won', 'Won'],
  ['pinned', 'Pinned'],
]

/** The slots a campaign has bid on, by where they stand. */
export function CampaignCountList({ counts, className }: { counts: CampaignCounts; className?: string }) {
  return (
    <dl className={cn('flex flex-wrap gap-x-4 gap-y-1 text-sm', className)}>
      {COUNT_LABELS.map(([key, label]) => (
        <div key={key} className="flex items-baseline gap-1">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="font-semibold tabular-nums">{counts[key]}</dd>
        </div>
      ))}
    </dl>
  )
}

/** A campaign's page while its campaign loads, is not there, or failed to load. */
export function CampaignWait({ query }: { query: React.ComponentProps<typeof DetailWait>['query'] }) {
  return (
    <DetailWait
      query={query}
      back={<BackLink to="/campaigns">Back to Campaigns</BackLink>}
      loading="Loading campaign..."
      missingIcon={Megaphone}
      missingText="This campaign is not there."
      failedText="Failed to load the campaign. Please try again later."
    />
  )
}
