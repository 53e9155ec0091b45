import { Badge } from '@/components/ui/badge'
import { fmtDateTime } from '@/components/common'
import { formatMoney } from '@/lib/money'

export function When({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="text-muted-foreground">—</span>
  return <time dateTime={iso}>{fmtDateTime(iso)}</time>
}

export function Money({ amount }: { amount: number }) {
  return <span className="tabular-nums">{formatMoney(amount)}</span>
}

export function StatusBadge({ status }: { status: string }) {
  const variant = status === 'OPEN' || status === 'SUSPENDED' ? 'destructive' : 'secondary'
  return <Badge variant={variant}>{status.charAt(0) + status.slice(1).toLowerCase()}</Badge>
}
