import { toast } from 'sonner'
import { Check, Gift, X } from 'lucide-react'
import { serverMessage } from '@/api/errors'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { fmtDateTime } from '@/components/common'
import { formatMoney } from '@/lib/money'
import type { Bid } from '@/api/types'
import { useAnswerOffer } from '../api/offers'

/** A second-chance offer on one of the brand's bids (status OFFERED): the winner fell through and the creator
 *  offers the slot at the bid's own maximum, until `offerExpiresAt`. Accept makes it the winner, approved; the
 *  payment is then asked for as for any approved bid. */
export function OfferPanel({ bid }: { bid: Bid }) {
  const answer = useAnswerOffer(bid.id, {
    onSuccess: (answered, how) =>
      how === 'accept'
        ? toast.success('Offer accepted', { description: `“${answered.pinSlot.title}” is yours at ${formatMoney(answered.finalPrice ?? answered.amountOffered ?? answered.amount)}. Pay for it here when asked.` })
        : toast.success('Offer declined', { description: 'The creator may offer the slot to someone else.' }),
    onError: (err) => toast.error('Could not answer the offer', { description: serverMessage(err, 'Please try again.') }),
  })
  const price = bid.amountOffered ?? bid.maxAutoBid ?? bid.amount
  return (
    <section aria-label="Second-chance offer" className="flex flex-col gap-2 rounded-lg border border-primary/40 bg-primary/5 p-3">
      <p className="flex items-start gap-2 text-sm">
        <Gift className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
        <span>
          The winner fell through, and the creator offers you this slot at your maximum, <strong className="tabular-nums">{formatMoney(price)}</strong>.
          {bid.offerExpiresAt && <> Answer by <strong>{fmtDateTime(bid.offerExpiresAt)}</strong>.</>}
        </span>
      </p>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => answer.mutate('accept')} disabled={answer.isPending}>
          {answer.isPending && answer.variables === 'accept' ? <Spinner /> : <Check />} Accept for {formatMoney(price)}
        </Button>
        <Button size="sm" variant="outline" onClick={() => answer.mutate('decline')} disabled={answer.isPending}>
          {answer.isPending && answer.variables === 'decline' ? <Spinner /> : <X />} Decline
        </Button>
      </div>
    </section>
  )
}
