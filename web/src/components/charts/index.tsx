/* The charts of Earnings, the brand dashboard and the bid history. Each is a figure with a caption, a drawing
   that is one named image (role="img" and a short summary; it keeps Recharts' keyboard focus, with a visible ring,
   so arrow keys walk its tooltip) and a visually hidden table of the same figures for screen readers. The drawing
   (Recharts) loads lazily, so only the pages that show a chart download it. */
import * as React from 'react'
import { useQuery } from '@tanstack/react-query'
import { monthlyEarningsQuery, monthlySpendQuery } from '@/api/queries'
import { TitledCard } from '@/components/titled-card'
import { Skeleton } from '@/components/ui/skeleton'
import type { ChartConfig } from '@/components/ui/chart'
import { monthLabel, priceHistory, type PlacementPoint } from '@/lib/charts'
import { formatMoney } from '@/lib/money'
import { fmtDateTime } from '@/components/common'
import type { Slot } from '@/api/types'
import type { MonthRow } from './MonthlyBars'

const MonthlyBars = React.lazy(() => import('./MonthlyBars'))
const PriceLine = React.lazy(() => import('./PriceLine'))
const PlacementLines = React.lazy(() => import('./PlacementLines'))
const CampaignSpendLines = React.lazy(() => import('./CampaignSpendLines'))

const EARNINGS_CONFIG: ChartConfig = {
  earnings: { label: 'Net earnings', color: 'var(--primary)' },
  payouts: { label: 'Payouts', color: 'oklch(0.7 0.15 160)' },
}
const SPEND_CONFIG: ChartConfig = { spent: { label: 'Spent', color: 'var(--primary)' } }

const TABLE_FOLLOWS = 'The figures are in the table that follows.'

function Drawing({ children, height }: { children: React.ReactNode; height: string }) {
  return (
    <div className="w-full min-w-0 overflow-hidden">
      <React.Suspense fallback={<Skeleton className={`${height} w-full`} />}>{children}</React.Suspense>
    </div>
  )
}

/** The figures of a drawing as a table for screen readers: a heading cell per row, then its values. */
function FiguresTable({ caption, head, columns, rows }: { caption: React.ReactNode; head: string; columns: React.ReactNode[]; rows: { key: React.Key; head: React.ReactNode; cells: React.ReactNode[] }[] }) {
  // inside a clipped box: a table is never narrower than its content, so an sr-only table would widen the page
  return (
    <div className="sr-only">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{head}</th>
            {columns.map((c, i) => (
              <th key={i} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.head}</th>
              {row.cells.map((cell, i) => (
                <td key={i}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function MonthTable({ caption, rows, config }: { caption: string; rows: MonthRow[]; config: ChartConfig }) {
  const keys = Object.keys(config)
  return (
    <FiguresTable
      caption={caption}
      head="Month"
      columns={keys.map((k) => config[k].label)}
      rows={rows.map((row) => ({ key: row.month, head: monthLabel(row.month), cells: keys.map((k) => formatMoney(Number(row[k]))) }))}
    />
  )
}

function MonthlyCard({ title, description, rows, config, isError, level }: { title: string; description: string; rows?: MonthRow[]; config: ChartConfig; isError: boolean; level: 2 | 3 }) {
  return (
    <TitledCard title={title} level={level} description={description}>
      {isError ? (
        <p role="alert" className="text-sm text-destructive">The chart could not be loaded. Please try again later.</p>
      ) : !rows ? (
        <Skeleton className="h-56 w-full" />
      ) : (
        <figure className="min-w-0">
          <Drawing height="h-56">
            <MonthlyBars rows={rows} config={config} label={`${title}: bar chart of the last ${rows.length} months. ${TABLE_FOLLOWS}`} />
          </Drawing>
          <MonthTable caption={`${title}: ${description}`} rows={rows} config={config} />
        </figure>
      )}
    </TitledCard>
  )
}

export function EarningsChartCard() {
  const monthly = useQuery(monthlyEarningsQuery())
  return (
    <MonthlyCard title="Earnings by month" description="Net earnings after the platform fee, and payouts sent, over the last six months."
      rows={monthly.data} config={EARNINGS_CONFIG} isError={monthly.isError} level={3} />
  )
}

export function SpendChartCard() {
  const monthly = useQuery(monthlySpendQuery())
  return (
    <MonthlyCard title="Spend by month" description="What you paid for pinned comments over the last six months (refunds left out)."
      rows={monthly.data} config={SPEND_CONFIG} isError={monthly.isError} level={2} />
  )
}

export function PriceHistory({ slot }: { slot: Slot }) {
  const points = priceHistory(slot)
  if (points.length < 2) return null
  return (
    <figure className="mb-4 min-w-0">
      <figcaption className="mb-1 text-sm font-medium">
        Price over time <span className="font-normal text-muted-foreground">· what the leading brand would pay</span>
      </figcaption>
      <Drawing height="h-40">
        <PriceLine points={points} label={`Price over time for ${slot.title}: from ${formatMoney(points[0].price)} to ${formatMoney(points.at(-1)!.price)}. ${TABLE_FOLLOWS}`} />
      </Drawing>
      <FiguresTable
        caption={<>Price over time for {slot.title}</>}
        head="When"
        columns={['Price']}
        rows={points.map((p, i) => ({ key: i, head: `${p.label}, ${fmtDateTime(new Date(p.at).toISOString())}`, cells: [formatMoney(p.price)] }))}
      />
    </figure>
  )
}

export function PlacementChart({ points, title }: { points: PlacementPoint[]; title: string }) {
  return (
    <figure className="min-w-0">
      <figcaption className="mb-1 text-sm font-medium">Likes, replies and clicks over time</figcaption>
      <Drawing height="h-56">
        <PlacementLines points={points} label={placementSummary(points, title)} />
      </Drawing>
      <FiguresTable
        caption={<>Likes, replies and clicks over time for {title}</>}
        head="When"
        columns={['Likes', 'Replies', 'Clicks']}
        rows={points.map((p, i) => ({ key: i, head: fmtDateTime(new Date(p.at).toISOString()), cells: [p.likes, p.replies, p.clicks] }))}
      />
    </figure>
  )
}

function placementSummary(points: PlacementPoint[], title: string) {
  const last = points.at(-1)
  const latest = last ? ` Latest: ${last.likes} likes, ${last.replies} replies, ${last.clicks} clicks.` : ''
  return `Likes, replies and clicks over time for ${title}: line chart.${latest} ${TABLE_FOLLOWS}`
}

/** A campaign's money over time: what it has spent and what it has committed (spent included). The server's
 *  points are its wins as they closed and were paid, then now with its live bids' maxima too; the line starts at
 *  nothing when the campaign was created. */
export function CampaignSpendChart({ points, name, createdAt }: { points: readonly { at: string; spent: number; committed: number }[]; name: string; createdAt: string }) {
  const series = points.map((p) => ({ at: Date.parse(p.at), spent: p.spent, committed: p.committed })).filter((p) => !Number.isNaN(p.at))
  const created = Date.parse(createdAt)
  if (!Number.isNaN(created) && (series[0]?.at ?? Infinity) > created) series.unshift({ at: created, spent: 0, committed: 0 })
  if (series.length < 2) return <p className="text-sm text-muted-foreground">The chart starts once the campaign has bid.</p>
  const last = series.at(-1)!
  return (
    <figure className="min-w-0">
      <figcaption className="mb-1 text-sm text-muted-foreground">Committed rises as auctions are won; the last point adds the maxima of the bids still running.</figcaption>
      <Drawing height="h-56">
        <CampaignSpendLines points={series} label={`Spend over time for ${name}: line chart. Latest: ${formatMoney(last.spent)} spent, ${formatMoney(last.committed)} committed. ${TABLE_FOLLOWS}`} />
      </Drawing>
      <FiguresTable
        caption={<>Spend over time for {name}</>}
        head="When"
        columns={['Spent', 'Committed']}
        rows={series.map((p, i) => ({ key: i, head: fmtDateTime(new Date(p.at).toISOString()), cells: [formatMoney(p.spent), formatMoney(p.committed)] }))}
      />
    </figure>
  )
}
