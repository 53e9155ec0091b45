import * as React from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from '@/lib/zod'
import { toast } from 'sonner'
import { OUTCOME_TOAST_MS } from '@/components/common'
import { Button } from '@/components/ui/button'
import { TitledCard } from '@/components/titled-card'
import { Form, FormField, FormItem, FormMessage } from '@/components/ui/form'
import { TextareaField } from '@/components/text-field'
import { Spinner } from '@/components/ui/spinner'
import { AlertDialog } from '@/components/ui/alert-dialog'
import { ConfirmDialogContent } from '@/components/confirm-button'
import { ApiError, serverMessage } from '@/api/errors'
import { fmtDateTime } from '@/components/common'
import { useDecideDispute, useDisputeMoney } from '../api/queries'
import { OUTCOME_VALUES, OUTCOMES, type DisputeDetail, type DisputeMoney, type Outcome } from '../api/types'
import { reasonField, reasonMax, reasonText } from '@/lib/trust'
import { Money } from './status'

const decideSchema = z
  .object({
    outcome: z.enum(OUTCOME_VALUES, { message: 'Choose an outcome.' }),
    reason: reasonField('Give the reason: both sides are told it.'),
    decideNow: z.boolean(),
    decideNowReason: reasonText(),
  })
  .superRefine((v, ctx) => {
    if (v.decideNow && !v.decideNowReason)
      ctx.addIssue({ code: 'custom', path: ['decideNowReason'], message: 'Say why you decide before the creator answers: it goes to the audit log.' })
  })
type DecideValues = z.infer<typeof decideSchema>

const REFUSALS: Record<string, string> = {
  already_decided: 'Another operator decided this dispute first',
  awaiting_answer: 'The creator may still answer',
}

/** The operator's decision on an open dispute: an outcome (with the money each one moves, from payments) and a
 *  reason, sent after a confirmation; while the creator may still answer, only with "Decide now" and its reason. */
export function DecideForm({ dispute }: { dispute: DisputeDetail }) {
  const form = useForm<DecideValues>({
    resolver: zodResolver(decideSchema),
    defaultValues: { outcome: undefined, reason: '', decideNow: false, decideNowReason: '' },
  })
  const [confirming, setConfirming] = React.useState<DecideValues | null>(null)
  const decide = useDecideDispute(dispute.id)
  const money = useDisputeMoney(dispute.bidId)
  const chosen = OUTCOMES.find((o) => o.value === confirming?.outcome)
  const waiting = dispute.awaitingAnswer
  const decideNow = form.watch('decideNow')
  const blocked = waiting && !decideNow

  function send() {
    if (!confirming) return
    const early = waiting && confirming.decideNow ? { decideNowReason: confirming.decideNowReason.trim() } : {}
    decide.mutate(
      { outcome: confirming.outcome, reason: confirming.reason.trim(), ...early },
      {
        onSuccess: () => toast.success('Dispute decided', { description: chosen?.label, duration: OUTCOME_TOAST_MS }),
        onError: (err) =>
          toast.error((err instanceof ApiError && err.code && REFUSALS[err.code]) || 'The decision was not saved', {
            description: serverMessage(err, 'Please try again.'),
          }),
        onSettled: () => setConfirming(null),
      },
    )
  }

  return (
    <TitledCard title="Decide">
      <Form {...form}>
        <form onSubmit={form.handleSubmit(setConfirming)} onKeyDown={keepEnterOnChoices} noValidate className="grid gap-4" aria-label="Decide the dispute">
          {waiting && (
            <p id="decide-waiting" role="note" className="rounded-md border border-amber-500/40 bg-amber-500/10 p-2 text-sm">
              The creator has not answered yet and may until {fmtDateTime(dispute.answerBy)}. Decide once they answer or that time has passed, or decide now and say why.
            </p>
          )}
          <MoneyFigures money={money} />
          <FormField
            control={form.control}
            name="outcome"
            render={({ field }) => (
              <FormItem controlId="decide-outcome">
                <fieldset className="grid gap-2">
                  <legend className="mb-1 text-sm font-medium">Outcome</legend>
                  {OUTCOMES.map((o) => (
                    <label key={o.value} className="flex cursor-pointer items-start gap-2 rounded-md border p-2 text-sm has-[:checked]:border-primary">
                      <input type="radio" name={field.name} value={o.value} checked={field.value === o.value} onChange={() => field.onChange(o.value)} className="mt-1" />
                      <span className="grid gap-1">
                        <span className="font-medium">{o.label}</span>
                        <span className="block text-muted-foreground">{o.hint}</span>
                        {money.data && <OutcomeAmounts money={money.data} outcome={o.value} />}
                      </span>
                    </label>
                  ))}
                </fieldset>
                <FormMessage />
              </FormItem>
            )}
          />
          <TextareaField control={form.control} name="reason" id="decide-reason" label="Reason" hint="Told to the brand and the creator, and kept in the audit log." rows={4} maxLength={reasonMax()} />
          {waiting && (
            <FormField
              control={form.control}
              name="decideNow"
              render={({ field }) => (
                <FormItem controlId="decide-now">
                  <label className="flex cursor-pointer items-start gap-2 text-sm">
                    <input type="checkbox" name={field.name} checked={field.value} onChange={(e) => field.onChange(e.target.checked)} className="mt-1" />
                    <span>
                      <span className="font-medium">Decide now</span>
                      <span className="block text-muted-foreground">Without waiting for the creator&apos;s answer.</span>
                    </span>
                  </label>
                </FormItem>
              )}
            />
          )}
          {waiting && decideNow && (
            <TextareaField
              control={form.control}
              name="decideNowReason"
              id="decide-now-reason"
              label="Why not wait for the answer"
              hint="Written to the audit log with the decision."
              rows={2}
              maxLength={reasonMax()}
            />
          )}
          <Button type="submit" disabled={decide.isPending || blocked} aria-describedby={blocked ? 'decide-waiting' : undefined}>
            {decide.isPending && <Spinner />} {waiting && decideNow ? 'Decide now' : 'Decide'}
          </Button>
        </form>
      </Form>
      <AlertDialog open={confirming !== null} onOpenChange={(o) => !o && !decide.isPending && setConfirming(null)}>
        <ConfirmDialogContent
          title={<>{chosen?.label}?</>}
          description={<>{chosen?.hint} Both sides are told the reason. This cannot be undone.</>}
          details={confirming && money.data && <OutcomeAmounts money={money.data} outcome={confirming.outcome} />}
          confirmLabel="Confirm decision"
          pending={decide.isPending}
          onConfirm={(event) => {
            event.preventDefault()
            send()
          }}
        />
      </AlertDialog>
    </TitledCard>
  )
}

/** Enter on an outcome or on "Decide now" does not send the decision (a browser submits a form on Enter in most
 *  inputs): a decision is sent only by its button, then confirmed. */
export function keepEnterOnChoices(event: React.KeyboardEvent<HTMLFormElement>) {
  const target = event.target
  if (event.key === 'Enter' && target instanceof HTMLInputElement && (target.type === 'radio' || target.type === 'checkbox')) event.preventDefault()
}

/** What the brand paid and what the creator has been released and paid out so far (payments' figures). */
function MoneyFigures({ money }: { money: ReturnType<typeof useDisputeMoney> }) {
  if (money.isPending) return <p className="text-sm text-muted-foreground">Loading the amounts...</p>
  if (money.isError)
    return (
      <div role="alert" className="flex flex-wrap items-center gap-2 text-sm text-destructive">
        Could not load the amounts: {serverMessage(money.error, 'please try again.')}
        <Button type="button" size="sm" variant="outline" onClick={() => void money.refetch()}>
          Load the amounts again
        </Button>
      </div>
    )
  const m = money.data
  return (
    <section aria-label="The payment">
    <dl className="grid grid-cols-3 gap-2 rounded-md bg-muted/60 p-2 text-sm">
      <div>
        <dt className="text-xs text-muted-foreground">Brand paid</dt>
        <dd>
          <Money amount={m.paid} currency={m.currency} />
        </dd>
      </div>
      <div>
        <dt className="text-xs text-muted-foreground">Released</dt>
        <dd>
          <Money amount={m.released} currency={m.currency} />
        </dd>
      </div>
      <div>
        <dt className="text-xs text-muted-foreground">Paid out</dt>
        <dd>
          <Money amount={m.paidOut} currency={m.currency} />
        </dd>
      </div>
    </dl>
    </section>
  )
}

/** The money one outcome moves if decided now: to the brand, from the creator, already paid out and to be recovered. */
export function OutcomeAmounts({ money, outcome }: { money: DisputeMoney; outcome: Outcome }) {
  const moves = money.outcomes.find((o) => o.outcome === outcome)
  if (!moves) return null
  const rows: [string, number][] =
    outcome === 'CONTINUE'
      ? [['Released to the creator now', moves.toCreator]]
      : [
          ['To the brand', moves.toBrand],
          ['From the creator', moves.fromCreator],
          ['Already paid out, to be recovered', moves.paidOut],
        ]
  // spans, not a list: it is read inside the outcome's label
  return (
    <span className="grid gap-0.5 text-xs">
      {rows.map(([label, amount]) => (
        <span key={label} className="flex justify-between gap-3">
          <span className="text-muted-foreground">{label}</span>
          <span className="font-medium">
            <Money amount={amount} currency={money.currency} />
          </span>
        </span>
      ))}
    </span>
  )
}
