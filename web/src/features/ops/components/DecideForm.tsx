import * as React from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from '@/lib/zod'
import { toast } from 'sonner'
import { OUTCOME_TOAST_MS } from '@/components/common'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Spinner } from '@/components/ui/spinner'
import { Textarea } from '@/components/ui/textarea'
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog'
import { ApiError, serverMessage } from '@/api/errors'
import { useDecideDispute } from '../api/queries'
import { OUTCOMES, type DisputeDetail } from '../api/types'
import { REASON_MAX, reasonField } from '@/lib/trust'

const decideSchema = z.object({
  outcome: z.enum(['CONTINUE', 'REFUND_UNEARNED', 'REFUND_ALL'], { message: 'Choose an outcome.' }),
  reason: reasonField('Give the reason: both sides are told it.'),
})
type DecideValues = z.infer<typeof decideSchema>

/** The operator's decision on an open dispute: an outcome and a reason, sent after a confirmation. */
export function DecideForm({ dispute }: { dispute: DisputeDetail }) {
  const form = useForm<DecideValues>({ resolver: zodResolver(decideSchema), defaultValues: { outcome: undefined, reason: '' } })
  const [confirming, setConfirming] = React.useState<DecideValues | null>(null)
  const decide = useDecideDispute(dispute.id)
  const chosen = OUTCOMES.find((o) => o.value === confirming?.outcome)

  function send() {
    if (!confirming) return
    decide.mutate(
      { outcome: confirming.outcome, reason: confirming.reason.trim() },
      {
        onSuccess: () => toast.success('Dispute decided', { description: chosen?.label, duration: OUTCOME_TOAST_MS }),
        onError: (err) =>
          toast.error(err instanceof ApiError && err.code === 'already_decided' ? 'Another operator decided this dispute first' : 'The decision was not saved', {
            description: serverMessage(err, 'Please try again.'),
          }),
        onSettled: () => setConfirming(null),
      },
    )
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Decide</CardTitle>
      </CardHeader>
      <CardContent>
        <Form {...form}>
          <form onSubmit={form.handleSubmit(setConfirming)} noValidate className="grid gap-4" aria-label="Decide the dispute">
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
                        <span>
                          <span className="font-medium">{o.label}</span>
                          <span className="block text-muted-foreground">{o.hint}</span>
                        </span>
                      </label>
                    ))}
                  </fieldset>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="reason"
              render={({ field }) => (
                <FormItem controlId="decide-reason">
                  <FormLabel>Reason</FormLabel>
                  <FormControl>
                    <Textarea rows={4} maxLength={REASON_MAX} {...field} />
                  </FormControl>
                  <FormDescription>Told to the brand and the creator, and kept in the audit log.</FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            <Button type="submit" disabled={decide.isPending}>
              {decide.isPending && <Spinner />} Decide
            </Button>
          </form>
        </Form>
        <AlertDialog open={confirming !== null} onOpenChange={(o) => !o && !decide.isPending && setConfirming(null)}>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>{chosen?.label}?</AlertDialogTitle>
              <AlertDialogDescription>
                {chosen?.hint} Both sides are told the reason. This cannot be undone.
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel disabled={decide.isPending}>Cancel</AlertDialogCancel>
              <AlertDialogAction
                onClick={(event) => {
                  event.preventDefault()
                  send()
                }}
                disabled={decide.isPending}
              >
                {decide.isPending && <Spinner />} Confirm decision
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </CardContent>
    </Card>
  )
}
