import { Badge } from '@/components/ui/badge'
import { fmtDateTime } from '@/components/common'
import { formatMoney } from '@/lib/money'

export function When({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="text-muted-foreground">—</span>
  return <time dateTime={iso}>{fmtDateTime(iso)}</time>
}

/** An amount; null (the service does not know it) shows as a dash, never as $0.00. Payments say their currency:
 *  one other than the app's dollars is shown in it. */
export function Money({ amount, currency = 'USD' }: { amount: number | null; currency?: string }) {
  if (amount === null) return <span className="text-muted-foreground">—</span>
  const text = currency === 'USD' ? formatMoney(amount) : new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount)
  return <span className="tabular-nums">{text}</span>
}

export function StatusBadge({ status }: { status: string }) {
  const variant = status === 'OPEN' || status === 'SUSPENDED' ? 'destructive' : 'secondary'
  return <Badge variant={variant}>{status.charAt(0) + status.slice(1).toLowerCase()}</Badge>
}
