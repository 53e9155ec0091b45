import type * as React from 'react'
import { useMutation } from '@tanstack/react-query'
import { toast } from 'sonner'
import { CalendarDays, DollarSign, Download, Hourglass, TrendingUp, Wallet } from 'lucide-react'
import { getConfig } from '@/config'
import { getToken } from '@/auth/token'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { TitledCard } from '@/components/titled-card'
import { Spinner } from '@/components/ui/spinner'
import { net, platformFeePercent } from '@/lib/bids'
import { EarningsChartCard } from '@/components/charts'
import { formatMoney } from '@/lib/money'
import { EmptyState, Loading, fmtDateTime, LoadError, StatCard } from '@/components/common'
import { useEarnings, useInfluencerBids, usePayouts } from './api/queries'
import { PayoutSettingsCard } from './components/PayoutSettingsForm'
import { isNegative, OwedNotice, type Earnings } from './components/OwedNotice'

export const EARNINGS_LOAD_ERROR = 'Failed to load earnings data. Please try again later.'

async function downloadReport() {
  const res = await fetch(`${getConfig().apiBase}/influencer/earnings/report.csv`, { headers: { Authorization: `Bearer ${getToken() ?? ''}` } })
  if (!res.ok) throw new Error(`HTTP ${res.status}`)
  const blob = await res.blob()
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = `pinbid-earnings-${new Date().toISOString().slice(0, 10)}.csv`
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

export default function EarningsPage() {
  const earnings = useEarnings()
  const payouts = usePayouts()
  const bids = useInfluencerBids()
  const report = useMutation({
    mutationFn: downloadReport,
    onError: () => toast.error('Download failed', { description: 'The earnings report could not be downloaded. Please try again.' }),
  })

  if (earnings.isPending) return <Loading page text="Loading earnings..." />
  if (earnings.isError) return <LoadError message={EARNINGS_LOAD_ERROR} onRetry={() => void earnings.refetch()} />
  const e: Earnings = earnings.data
  // a refunded sale stays, with what the brand got back (the same gross amount the brand is shown)
  const paid = (bids.data ?? []).filter((b) => b.payment?.status === 'COMPLETED' || b.payment?.status === 'REFUNDED')

  return (
    <div className="mx-auto w-full max-w-5xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-2xl font-bold">Earnings &amp; Payouts</h2>
          <p className="text-muted-foreground">Your net earnings after the {platformFeePercent()}% platform fee, and when they reach you.</p>
        </div>
        <Button variant="outline" onClick={() => report.mutate()} disabled={report.isPending}>
          {report.isPending ? <Spinner /> : <Download />} Download Report
        </Button>
      </div>
      <OwedNotice earnings={e} />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard icon={DollarSign} label="Total Earned" value={formatMoney(e.totalEarnings)} />
        <StatCard icon={CalendarDays} label="This Month" value={formatMoney(e.thisMonthEarnings)} />
        <StatCard icon={Hourglass} label="Pending Payout" value={<span className={isNegative(e.pendingPayouts) ? 'text-destructive' : undefined}>{formatMoney(e.pendingPayouts)}</span>} hint={`${formatMoney(e.pendingBalance)} not released yet`} />
        <StatCard icon={TrendingUp} label="Growth Rate" value="N/A" />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Released as comments stay pinned</CardTitle>
          <p className="text-sm text-muted-foreground">
            A quarter of each placement's earnings is released when you pin the comment (when you pin in the Instagram app, once the brand accepts your screenshot), the rest day by day while it stays pinned. If it is unpinned, hidden or deleted early, the share not yet released goes back to the brand.
          </p>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-3 gap-3 text-sm">
            <div>
              <dt className="text-muted-foreground">Pending</dt>
              <dd className="text-lg font-semibold tabular-nums">{formatMoney(e.pendingBalance)}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Released</dt>
              <dd className="text-lg font-semibold tabular-nums">{formatMoney(e.releasedEarnings)}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Refunded to brands (gross)</dt>
              <dd className="text-lg font-semibold tabular-nums">{formatMoney(e.refundedEarnings)}</dd>
            </div>
          </dl>
        </CardContent>
      </Card>
      <EarningsChartCard />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <TitledCard title="Monthly Payouts">
          <EarningsList query={payouts} empty={payouts.data?.length === 0 && <EmptyState icon={Wallet} text="No payouts yet." />}>
            {(rows) => (
              <ul className="divide-y">
                {rows.map((p) => (
                  <li key={p.id} className="grid grid-cols-2 gap-1 py-3 text-sm sm:grid-cols-5 sm:items-center">
                    <span className="font-medium sm:col-span-1">{p.period}</span>
                    <span className="text-right sm:text-left">
                      <span className="text-muted-foreground sm:hidden">Gross </span>
                      {formatMoney(p.amount)}
                    </span>
                    <span>
                      <span className="text-muted-foreground">Fees </span>
                      {formatMoney(p.fees)}
                    </span>
                    <span className="text-right font-semibold sm:text-left">
                      <span className="font-normal text-muted-foreground">Net </span>
                      {formatMoney(p.netAmount)}
                    </span>
                    <span className="col-span-2 sm:col-span-1 sm:text-right">
                      <Badge variant={p.status === 'COMPLETED' ? 'success' : p.status === 'FAILED' ? 'destructive' : 'secondary'}>{p.status === 'COMPLETED' ? 'Completed' : p.status === 'FAILED' ? 'Failed' : 'Pending'}</Badge>
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </EarningsList>
        </TitledCard>
        <TitledCard title="Recent Transactions">
          <EarningsList query={bids} empty={paid.length === 0 && <EmptyState icon={DollarSign} text="No paid transactions yet." />}>
            {() => (
              <ul className="divide-y">
                {paid.map((b) => {
                  const gross = b.finalPrice ?? b.amount
                  return (
                    <li key={b.id} className="flex items-start justify-between gap-3 py-3 text-sm">
                      <div className="min-w-0">
                        <p className="font-medium">{b.user.name}</p>
                        <p className="truncate text-muted-foreground">{b.pinSlot.title}</p>
                        <p className="text-xs text-muted-foreground">{fmtDateTime(b.payment?.paidAt ?? b.updatedAt)}</p>
                      </div>
                      <div className="text-right tabular-nums">
                        <p>{formatMoney(gross)}</p>
                        {b.refunded != null ? (
                          <p className="font-semibold text-destructive">{formatMoney(b.refunded)} refunded to the brand</p>
                        ) : (
                          <p className="font-semibold text-success">{formatMoney(net(gross))} net</p>
                        )}
                      </div>
                    </li>
                  )
                })}
              </ul>
            )}
          </EarningsList>
        </TitledCard>
      </div>
      <PayoutSettingsCard />
    </div>
  )
}

/** An earnings list's content: the spinner, the load error, `empty` when there is nothing to list, else the list. */
function EarningsList<T>({ query, empty, children }: { query: { isError: boolean; data?: T }; empty: React.ReactNode; children: (data: T) => React.ReactNode }) {
  if (query.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {EARNINGS_LOAD_ERROR}
      </p>
    )
  }
  if (query.data === undefined) return <Spinner />
  return empty || children(query.data)
}
