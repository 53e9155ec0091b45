import { AlertTriangle } from 'lucide-react'
import type { Schemas } from '@/api/client'
import { formatMoney } from '@/lib/money'

/** Earnings as the contract of issue 22 has them: `owed` is what a refund after a payout left to recover, and the
 *  balances may be negative. Optional until the generated schema carries it. */
export type Earnings = Schemas['EarningsOut'] & { owed?: number | null }

export const isNegative = (amount: number | null | undefined) => (amount ?? 0) < 0

/** Said plainly, above everything else on Earnings, while money is owed back. */
export function OwedNotice({ earnings }: { earnings: Earnings }) {
  const owed = earnings.owed ?? 0
  const negative = isNegative(earnings.availableBalance)
  if (owed <= 0 && !negative) return null
  return (
    <section role="status" aria-label="Money owed" className="flex gap-3 rounded-xl border border-destructive/30 bg-destructive/5 p-4 text-sm">
      <AlertTriangle className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden="true" />
      <div className="grid gap-1">
        {owed > 0 && (
          <p className="font-semibold">
            <span className="tabular-nums">{formatMoney(owed)}</span> will be taken from your next earnings.
          </p>
        )}
        {negative && (
          <p>
            Your balance is <span className="font-semibold text-destructive tabular-nums">{formatMoney(earnings.availableBalance)}</span>.
          </p>
        )}
        <p className="text-muted-foreground">A refund was ordered after this money had been paid out to you. New earnings pay it back first; no payout is made until it is.</p>
      </div>
    </section>
  )
}
