import * as React from 'react'
import { RoleGate } from '@/components/role-gate'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { CalendarDays, DollarSign, Download, Hourglass, TrendingUp, Wallet } from 'lucide-react'
import { getConfig } from '@/config'
import { api } from '@/api/client'
import { serverMessage, unwrap } from '@/api/errors'
import { getToken } from '@/auth/token'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { Spinner } from '@/components/ui/spinner'
import { Switch } from '@/components/ui/switch'
import { net, platformFeePercent } from '@/lib/bids'
import { DEFAULT_PAYOUT_FORM, formFromSettings, MINIMUM_PAYOUT_CEILING_CENTS, payoutBody, validatePayout, type PayoutErrors, type PayoutField, type PayoutForm } from '@/lib/payout'
import { MoneyInput } from '@/components/money-input'
import { EarningsChartCard } from '@/components/charts'
import { EmptyState, fmtDateTime, fmtMoney, LoadError, StatCard } from '@/components/common'
import { KEYS } from '@/api/keys'
import { payoutSettingsQuery, useEarnings, useInfluencerBids, usePayouts } from './api/queries'

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
  return (
    <RoleGate role="INFLUENCER">
      <EarningsPageInner />
    </RoleGate>
  )
}

function EarningsPageInner() {
  const earnings = useEarnings()
  const payouts = usePayouts()
  const bids = useInfluencerBids()
  const report = useMutation({
    mutationFn: downloadReport,
    onError: () => toast.error('Download failed', { description: 'The earnings report could not be downloaded. Please try again.' }),
  })

  if (earnings.isPending) {
    return (
      <div role="status" className="flex flex-1 items-center justify-center gap-2 py-24 text-muted-foreground">
        <Spinner className="size-5 text-primary" /> Loading earnings...
      </div>
    )
  }
  if (earnings.isError) return <LoadError message={EARNINGS_LOAD_ERROR} onRetry={() => void earnings.refetch()} />
  const e = earnings.data
  const paid = (bids.data ?? []).filter((b) => b.payment?.status === 'COMPLETED')

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
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard icon={DollarSign} label="Total Earned" value={fmtMoney(e.totalEarnings)} />
        <StatCard icon={CalendarDays} label="This Month" value={fmtMoney(e.thisMonthEarnings)} />
        <StatCard icon={Hourglass} label="Pending Payout" value={fmtMoney(e.pendingPayouts)} hint={`${fmtMoney(e.pendingBalance)} not released yet`} />
        <StatCard icon={TrendingUp} label="Growth Rate" value="N/A" />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Released as comments stay pinned</CardTitle>
          <p className="text-sm text-muted-foreground">
            A quarter of each placement's earnings is released when you pin the comment, the rest day by day while it stays pinned. If it is unpinned, hidden or deleted early, the share not yet released goes back to the brand.
          </p>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-3 gap-3 text-sm">
            <div>
              <dt className="text-muted-foreground">Pending</dt>
              <dd className="text-lg font-semibold tabular-nums">{fmtMoney(e.pendingBalance)}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Released</dt>
              <dd className="text-lg font-semibold tabular-nums">{fmtMoney(e.releasedEarnings)}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Refunded to brands</dt>
              <dd className="text-lg font-semibold tabular-nums">{fmtMoney(e.refundedEarnings)}</dd>
            </div>
          </dl>
        </CardContent>
      </Card>
      <EarningsChartCard />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Monthly Payouts</CardTitle>
          </CardHeader>
          <CardContent>
            {payouts.isPending ? (
              <Spinner />
            ) : payouts.isError ? (
              <p role="alert" className="text-sm text-destructive">
                {EARNINGS_LOAD_ERROR}
              </p>
            ) : payouts.data.length === 0 ? (
              <EmptyState icon={Wallet} text="No payouts yet." />
            ) : (
              <ul className="divide-y">
                {payouts.data.map((p) => (
                  <li key={p.id} className="grid grid-cols-2 gap-1 py-3 text-sm sm:grid-cols-5 sm:items-center">
                    <span className="font-medium sm:col-span-1">{p.period}</span>
                    <span className="text-right sm:text-left">
                      <span className="text-muted-foreground sm:hidden">Gross </span>
                      {fmtMoney(p.amount)}
                    </span>
                    <span>
                      <span className="text-muted-foreground">Fees </span>
                      {fmtMoney(p.fees)}
                    </span>
                    <span className="text-right font-semibold sm:text-left">
                      <span className="font-normal text-muted-foreground">Net </span>
                      {fmtMoney(p.netAmount)}
                    </span>
                    <span className="col-span-2 sm:col-span-1 sm:text-right">
                      <Badge variant={p.status === 'COMPLETED' ? 'success' : p.status === 'FAILED' ? 'destructive' : 'secondary'}>{p.status === 'COMPLETED' ? 'Completed' : p.status === 'FAILED' ? 'Failed' : 'Pending'}</Badge>
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Recent Transactions</CardTitle>
          </CardHeader>
          <CardContent>
            {bids.isPending ? (
              <Spinner />
            ) : bids.isError ? (
              <p role="alert" className="text-sm text-destructive">
                {EARNINGS_LOAD_ERROR}
              </p>
            ) : paid.length === 0 ? (
              <EmptyState icon={DollarSign} text="No paid transactions yet." />
            ) : (
              <ul className="divide-y">
                {paid.map((b) => {
                  const gross = b.finalPrice ?? b.amount
                  return (
                    <li key={b.id} className="flex items-start justify-between gap-3 py-3 text-sm">
                      <div className="min-w-0">
                        <p className="font-medium">{b.user.name}</p>
                        <p className="truncate text-muted-foreground">{b.pinSlot.title}</p>
                        <p className="text-xs text-muted-foreground">{fmtDateTime(b.updatedAt)}</p>
                      </div>
                      <div className="text-right tabular-nums">
                        <p>{fmtMoney(gross)}</p>
                        <p className="font-semibold text-success">{fmtMoney(net(gross))} net</p>
                      </div>
                    </li>
                  )
                })}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>
      <PayoutSettingsCard />
    </div>
  )
}

function PayoutSettingsCard() {
  const settings = useQuery({ ...payoutSettingsQuery(), retry: false })
  if (settings.isPending) return <Spinner />
  // a failure is tolerated (spec section 7): start from the defaults
  const initial = settings.data ? formFromSettings(settings.data) : DEFAULT_PAYOUT_FORM
  return <PayoutSettingsForm key={settings.dataUpdatedAt} initial={initial} />
}

export function PayoutSettingsForm({ initial }: { initial: PayoutForm }) {
  const queryClient = useQueryClient()
  const [form, setForm] = React.useState<PayoutForm>(initial)
  const [touched, setTouched] = React.useState(false)
  const errors: PayoutErrors = validatePayout(form)
  const messages = Object.values(errors)
  const set = <K extends PayoutField>(key: K, value: PayoutForm[K]) => {
    setTouched(true)
    setForm((f) => ({ ...f, [key]: value }))
  }
  const save = useMutation({
    mutationFn: async () => unwrap(await api().PUT('/influencer/payout-settings', { body: payoutBody(form) })),
    onSuccess: (saved) => {
      queryClient.setQueryData(KEYS.payoutSettings, saved)
      toast.success('Payout Settings Saved')
    },
    onError: (err) => toast.error('Failed to save payout settings', { description: serverMessage(err, 'There was an error saving your payout settings. Please try again.') }),
  })
  const lastToast = React.useRef('')
  React.useEffect(() => {
    const key = messages.join('\n')
    if (!touched || !key || key === lastToast.current) {
      if (!key) lastToast.current = ''
      return
    }
    const t = setTimeout(() => {
      lastToast.current = key
      toast.error('Please fix your payout settings', { id: 'payout-errors', description: <ul className="list-disc pl-4">{messages.map((m) => <li key={m}>{m}</li>)}</ul> })
    }, 700)
    return () => clearTimeout(t)
  })

  const err = (f: PayoutField) => (touched ? errors[f] : undefined)
  const field = (id: PayoutField, label: string, props: React.ComponentProps<typeof Input> = {}) => (
    <div className="grid gap-2">
      <Label htmlFor={`payout-${id}`}>{label}</Label>
      <Input
        id={`payout-${id}`}
        value={form[id] as string}
        onChange={(e) => set(id, e.target.value as never)}
        aria-invalid={err(id) ? true : undefined}
        aria-describedby={err(id) ? `payout-${id}-error` : undefined}
        {...props}
      />
      {err(id) && (
        <p id={`payout-${id}-error`} className="text-sm text-destructive">
          {err(id)}
        </p>
      )}
    </div>
  )

  return (
    <Card>
      <CardHeader>
        <CardTitle>Payout Settings</CardTitle>
        <CardDescription>Payouts are sent on your schedule once your available balance reaches your minimum. Bank and PayPal details are stored encrypted.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          aria-label="Payout settings"
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault()
            setTouched(true)
            if (messages.length === 0) save.mutate()
          }}
        >
          <div className="grid gap-4 sm:grid-cols-3">
            <div className="grid gap-2">
              <Label htmlFor="payout-method">Payout method</Label>
              <NativeSelect id="payout-method" value={form.payoutMethod} onChange={(e) => set('payoutMethod', e.target.value as PayoutForm['payoutMethod'])}>
                <option value="">Choose a method</option>
                <option value="BANK_TRANSFER">Bank transfer</option>
                <option value="PAYPAL">PayPal</option>
              </NativeSelect>
              {err('payoutMethod') && <p className="text-sm text-destructive">{err('payoutMethod')}</p>}
            </div>
            <div className="grid gap-2">
              <Label htmlFor="payout-minimumPayout">Minimum payout (USD)</Label>
              <MoneyInput id="payout-minimumPayout" value={form.minimumPayout} onValueChange={(v) => set('minimumPayout', v)} maxCents={MINIMUM_PAYOUT_CEILING_CENTS} problem={err('minimumPayout')} />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="payout-schedule">Schedule</Label>
              <NativeSelect id="payout-schedule" value={form.schedule} onChange={(e) => set('schedule', e.target.value as PayoutForm['schedule'])}>
                <option value="">Choose a schedule</option>
                <option value="WEEKLY">Weekly</option>
                <option value="MONTHLY">Monthly</option>
                <option value="QUARTERLY">Quarterly</option>
              </NativeSelect>
              {err('schedule') && <p className="text-sm text-destructive">{err('schedule')}</p>}
            </div>
          </div>
          {form.payoutMethod === 'PAYPAL' && field('paypalEmail', 'PayPal email', { type: 'email', autoComplete: 'email' })}
          {form.payoutMethod === 'BANK_TRANSFER' && (
            <div className="grid gap-4 sm:grid-cols-2">
              {field('accountName', 'Account holder name', { autoComplete: 'name' })}
              <div className="grid gap-2">
                <Label htmlFor="payout-currency">Currency</Label>
                <NativeSelect id="payout-currency" value={form.currency} onChange={(e) => set('currency', e.target.value as PayoutForm['currency'])}>
                  <option value="">Choose a currency</option>
                  <option value="USD">USD</option>
                  <option value="GBP">GBP</option>
                </NativeSelect>
                {err('currency') && <p className="text-sm text-destructive">{err('currency')}</p>}
              </div>
              {field('bankAccount', 'Bank account number', { inputMode: 'numeric', autoComplete: 'off' })}
              {form.currency === 'USD' && field('routingNumber', 'Routing number', { inputMode: 'numeric', autoComplete: 'off' })}
              {form.currency === 'GBP' && field('sortCode', 'Sort code', { placeholder: 'XX-XX-XX', autoComplete: 'off' })}
            </div>
          )}
          <div className="flex items-center gap-3">
            <Switch id="payout-tax" checked={form.taxFormSubmitted} onCheckedChange={(v) => set('taxFormSubmitted', v)} />
            <Label htmlFor="payout-tax">I have submitted my tax form</Label>
          </div>
          <div className="flex flex-col items-end gap-2">
            {!touched && messages.length > 0 && <p className="text-sm text-muted-foreground">Fill in your payout details to save them.</p>}
            <Button type="submit" disabled={messages.length > 0 || save.isPending}>
              {save.isPending && <Spinner />} Save Payout Settings
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  )
}
