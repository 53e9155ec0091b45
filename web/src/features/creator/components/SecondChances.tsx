import { useQuery } from '@tanstack/react-query'
import { toast } from 'sonner'
import { Send } from 'lucide-react'
import { serverMessage } from '@/api/errors'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { fmtDateTime } from '@/components/common'
import { formatMoney } from '@/lib/money'
import { secondChancesQuery, useOfferToRunnerUp, type SecondChance } from '../api/second-chances'

/** What became of the winner: rejected by the creator, or left unpaid (its pay window ran out). */
export function whyFallen(chance: SecondChance): string {
  return chance.fallen.status === 'REJECTED' ? 'you rejected the winning bid' : 'the winner did not pay in time'
}

/** The creator's slots whose winner fell through, each with "Offer to the runner-up" (its name and the amount it
 *  would pay: its own maximum) or the offer waiting for an answer. Nothing at all while there is none, or when the
 *  list cannot be read (the approvals above it stay usable). */
export function SecondChances() {
  const chances = useQuery(secondChancesQuery())
  if (!chances.data?.length) return null
  return (
    <section aria-labelledby="second-chances" className="space-y-3">
      <div>
        <h3 id="second-chances" className="text-lg font-semibold">Second chances</h3>
        <p className="text-sm text-muted-foreground">When a winner falls through, offer the slot to the runner-up at the most they said they would pay.</p>
      </div>
      <ul className="space-y-3">
        {chances.data.map((chance) => (
          <li key={chance.fallen.id}>
            <SecondChanceCard chance={chance} />
          </li>
        ))}
      </ul>
    </section>
  )
}

function SecondChanceCard({ chance }: { chance: SecondChance }) {
  const { fallen, runnerUp, openOffer } = chance
  const offer = useOfferToRunnerUp(fallen.id, {
    onSuccess: (offered) => toast.success('Offer sent', { description: `${offered.user.name} has until ${fmtDateTime(offered.offerExpiresAt)} to answer.` }),
    onError: (err) => toast.error('Could not make the offer', { description: serverMessage(err, 'Please try again.') }),
  })
  return (
    <article aria-label={`Second chance for ${fallen.pinSlot.title}`} className="flex flex-col gap-2 rounded-xl border bg-card p-3 sm:p-4">
      <div>
        <h4 className="font-semibold">{fallen.pinSlot.title}</h4>
        <p className="text-sm text-muted-foreground">
          Sold to {fallen.user.name} at {formatMoney(fallen.finalPrice ?? fallen.amount)}, but {whyFallen(chance)}.
        </p>
      </div>
      {openOffer ? (
        <p className="text-sm">
          Offered to <strong>{openOffer.user.name}</strong> at <strong className="tabular-nums">{formatMoney(openOffer.amountOffered ?? openOffer.amount)}</strong>
          {openOffer.offerExpiresAt && <>, waiting for their answer until {fmtDateTime(openOffer.offerExpiresAt)}</>}.
        </p>
      ) : runnerUp ? (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm">
            Runner-up: <strong>{runnerUp.user.name}</strong>, whose maximum was <strong className="tabular-nums">{formatMoney(chance.runnerUpPrice ?? runnerUp.amount)}</strong>
          </p>
          <Button size="sm" onClick={() => offer.mutate()} disabled={offer.isPending}>
            {offer.isPending ? <Spinner /> : <Send />} Offer to the runner-up
          </Button>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">Nobody is left to offer it to. You can list the post again.</p>
      )}
    </article>
  )
}
