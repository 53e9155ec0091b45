import * as React from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Fingerprint } from 'lucide-react'
import { z } from '@/lib/zod'
import { confirmStepUp } from '@/api/auth'
import { serverMessage } from '@/api/errors'
import { KEYS } from '@/api/keys'
import { secondFactorQuery } from '@/api/queries'
import { TextField } from '@/components/text-field'
import { FormDialogFooter } from '@/components/form-dialog-footer'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form } from '@/components/ui/form'
import { Spinner } from '@/components/ui/spinner'
import { passkeyDismissed, passkeyProblem, passkeyStepUp } from './passkey'
import { CODE_FORMAT, CODE_HINT, isStepUpRequired, isWrongSecondFactor, readSecondFactor } from './second-factor'
import { setToken } from './token'

export const STEP_UP_TITLE = "Confirm it's you"

/** Runs a sensitive request; when the server asks for a fresh second factor, asks the person for one and sends
 *  the request again. Cancelling the dialog rejects with the server's refusal. */
export type StepUpGuard = <T>(request: () => Promise<T>) => Promise<T>

const StepUpContext = React.createContext<StepUpGuard | null>(null)

/** The guard of the nearest StepUpProvider (the signed-in shell holds one). */
export function useStepUp(): StepUpGuard {
  const guard = React.useContext(StepUpContext)
  if (!guard) throw new Error('useStepUp must be used inside <StepUpProvider>')
  return guard
}

interface Asking {
  reason: string
  answer: Promise<boolean>
  settle: (confirmed: boolean) => void
}

/** One dialog for the whole signed-in app: every guarded request waiting for a step-up waits on the same answer. */
export function StepUpProvider({ children }: { children: React.ReactNode }) {
  const [asking, setAsking] = React.useState<Asking | null>(null)
  const current = React.useRef<Asking | null>(null)

  const ask = React.useCallback((reason: string) => {
    if (current.current) return current.current.answer
    let settle: (confirmed: boolean) => void = () => {}
    const answer = new Promise<boolean>((resolve) => (settle = resolve))
    const next: Asking = { reason, answer, settle }
    current.current = next
    setAsking(next)
    return answer
  }, [])

  const guard = React.useCallback<StepUpGuard>(
    async (request) => {
      try {
        return await request()
      } catch (error) {
        if (!isStepUpRequired(error)) throw error
        if (!(await ask(error.detail ?? ''))) throw error
        return request()
      }
    },
    [ask],
  )

  const finish = (confirmed: boolean) => {
    const done = current.current
    current.current = null
    setAsking(null)
    done?.settle(confirmed)
  }

  return (
    <StepUpContext.Provider value={guard}>
      {children}
      <Dialog open={asking !== null} onOpenChange={(open) => !open && finish(false)}>
        {asking && <StepUpContent reason={asking.reason} onConfirmed={() => finish(true)} onCancel={() => finish(false)} />}
      </Dialog>
    </StepUpContext.Provider>
  )
}

const schema = z.object({ code: z.string().refine((v) => readSecondFactor(v) !== null, CODE_FORMAT) })
type Values = z.infer<typeof schema>

function StepUpContent({ reason, onConfirmed, onCancel }: { reason: string; onConfirmed: () => void; onCancel: () => void }) {
  const queryClient = useQueryClient()
  const factors = useQuery(secondFactorQuery())
  const hasPasskey = (factors.data?.passkeys.length ?? 0) > 0
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { code: '' } })
  const [problem, setProblem] = React.useState<string | null>(null)
  const [passkeyBusy, setPasskeyBusy] = React.useState(false)

  function confirmed(token: string) {
    setToken(token)
    void queryClient.invalidateQueries({ queryKey: KEYS.secondFactor })
    onConfirmed()
  }

  async function onSubmit({ code }: Values) {
    setProblem(null)
    try {
      confirmed((await confirmStepUp(readSecondFactor(code)!)).token)
    } catch (error) {
      if (isWrongSecondFactor(error)) {
        form.setValue('code', '')
        form.setError('code', { type: 'server', message: error.detail ?? CODE_FORMAT }, { shouldFocus: true })
      } else setProblem(serverMessage(error, 'Could not confirm. Please try again.'))
    }
  }

  async function usePasskey() {
    setProblem(null)
    setPasskeyBusy(true)
    try {
      confirmed((await passkeyStepUp()).token)
    } catch (error) {
      if (!passkeyDismissed(error)) setProblem(passkeyProblem(error))
    } finally {
      setPasskeyBusy(false)
    }
  }

  const busy = form.formState.isSubmitting
  return (
    <DialogContent className="sm:max-w-md">
      <DialogHeader>
        <DialogTitle>{STEP_UP_TITLE}</DialogTitle>
        <DialogDescription>{reason || 'This change needs a fresh second factor.'}</DialogDescription>
      </DialogHeader>
      {hasPasskey && (
        <>
          <Button type="button" variant="outline" onClick={usePasskey} disabled={passkeyBusy || busy}>
            {passkeyBusy ? <Spinner /> : <Fingerprint aria-hidden="true" />} Use a passkey
          </Button>
          <p className="text-center text-xs text-muted-foreground" aria-hidden="true">
            or
          </p>
        </>
      )}
      <Form {...form}>
        <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4" aria-label={STEP_UP_TITLE}>
          <TextField control={form.control} name="code" id="step-up-code" label="Authentication code" hint={CODE_HINT} autoComplete="one-time-code" autoFocus />
          <FormDialogFooter error={problem} onCancel={onCancel} pending={busy || passkeyBusy}>
            {busy ? 'Confirming...' : 'Confirm'}
          </FormDialogFooter>
        </form>
      </Form>
    </DialogContent>
  )
}
