import * as React from 'react'
import { Link, useNavigate } from 'react-router'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill } from '@simplewebauthn/browser'
import { Fingerprint } from 'lucide-react'
import { z } from '@/lib/zod'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { Form } from '@/components/ui/form'
import { FormAlert } from '@/components/form-alert'
import { TextField } from '@/components/text-field'
import { useAuth } from '@/auth/session'
import { ApiError } from '@/api/errors'
import type { User } from '@/api/client'
import { emailField, MESSAGES } from '@/lib/validation'
import { showServerErrors } from '@/lib/server-errors'
import { AuthCard, AuthLink } from './AuthCard'
import { useHydrated } from '@/hooks/use-hydrated'
import { signedOutNote, type SignOutReason } from '@/auth/token'
import { cancelPasskeyCeremony, passkeyDismissed, passkeyProblem } from '@/auth/passkey'
import { CODE_FORMAT, CODE_HINT, readSecondFactor } from '@/auth/second-factor'

export const LOGIN_FAILED = 'Login failed. Please check your credentials and try again.'

// `code` is asked for only once the server says the account needs one (TOTP on, or an operator): a code from the
// authenticator app or a recovery code
const loginSchema = z.object({ email: emailField, password: z.string().min(1, MESSAGES.passwordRequired), code: z.string() })
type LoginValues = z.infer<typeof loginSchema>

const homeOf = (user: User) => (user.role === 'OPERATOR' ? '/ops' : '/dashboard')

/** The second factors the server offers when it asks for one (`factors` of its 401 `second_factor_required`). */
function factorsOf(err: ApiError): string[] {
  const factors = err.body?.factors
  return Array.isArray(factors) ? factors.filter((f): f is string => typeof f === 'string') : ['totp']
}

export default function LoginPage() {
  const hydrated = useHydrated()
  const { login, loginWithPasskey } = useAuth()
  const navigate = useNavigate()
  const form = useForm<LoginValues>({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '', code: '' } })
  const [formError, setFormError] = React.useState<string | null>(null)
  const [needsCode, setNeedsCode] = React.useState(false)
  const [passkeyOffered, setPasskeyOffered] = React.useState(false)
  const [passkeyBusy, setPasskeyBusy] = React.useState(false)
  // a ceremony started by a button replaces the autofill's: once it ends, the autofill is offered again
  const [autofillRound, setAutofillRound] = React.useState(0)
  const busy = form.formState.isSubmitting || passkeyBusy
  const signedOut = useSignedOutReason()
  // shown in the prerendered page too (no shift when it hydrates); hidden only where the browser has no WebAuthn
  const canUsePasskeys = !hydrated || browserSupportsWebAuthn()

  // the browser's autofill of passkeys (conditional mediation): the email field lists this site's passkeys
  React.useEffect(() => {
    if (!hydrated) return
    let live = true
    void (async () => {
      if (!(await browserSupportsWebAuthnAutofill()) || !live) return
      try {
        const user = await loginWithPasskey({ autofill: true })
        if (live) navigate(homeOf(user), { replace: true })
      } catch (err) {
        // a refusal of the chosen passkey is told; a missing endpoint or an abandoned prompt is not
        if (live && !passkeyDismissed(err) && (!(err instanceof ApiError) || err.status === 403)) setFormError(passkeyProblem(err))
      }
    })()
    return () => {
      live = false
      cancelPasskeyCeremony()
    }
  }, [hydrated, loginWithPasskey, navigate, autofillRound])

  async function signInWithPasskey(email?: string) {
    setFormError(null)
    setPasskeyBusy(true)
    try {
      const user = await loginWithPasskey({ email })
      navigate(homeOf(user), { replace: true })
    } catch (err) {
      if (!passkeyDismissed(err)) setFormError(passkeyProblem(err))
      setAutofillRound((n) => n + 1)
    } finally {
      setPasskeyBusy(false)
    }
  }

  async function onSubmit({ email, password, code }: LoginValues) {
    setFormError(null)
    const secondFactor = needsCode ? readSecondFactor(code) : undefined
    if (secondFactor === null) {
      form.setError('code', { type: 'format', message: CODE_FORMAT }, { shouldFocus: true })
      return
    }
    try {
      const user = await login(email, password, secondFactor)
      navigate(homeOf(user), { replace: true })
    } catch (err) {
      if (err instanceof ApiError && err.code === 'second_factor_required') {
        setNeedsCode(true)
        setPasskeyOffered(factorsOf(err).includes('passkey'))
        return
      }
      if (err instanceof ApiError && err.code === 'invalid_second_factor') {
        form.setValue('code', '')
        form.setError('code', { type: 'server', message: err.detail ?? CODE_FORMAT }, { shouldFocus: true })
        return
      }
      if (showServerErrors(form, err)) return
      const readable = err instanceof ApiError && (err.status === 429 || err.code === 'account_suspended') && err.detail
      setFormError(readable || LOGIN_FAILED)
    }
  }

  return (
    <AuthCard
      title="Welcome back"
      description="Log in to manage your pinned comments."
      footer={
        <>
          New to Pinbid?{' '}
          <AuthLink to="/signup/influencer">
            Join as a creator
          </AuthLink>{' '}
          or{' '}
          <AuthLink to="/signup/buyer">
            join as a brand
          </AuthLink>
        </>
      }
    >
      <Form {...form}>
        <form inert={!hydrated} onSubmit={form.handleSubmit(onSubmit, () => setFormError(null))} noValidate className="grid gap-4" aria-label="Log in">
          {signedOut && !formError && (
            <div role="status" data-testid="signed-out" className="rounded-lg border border-amber-500/40 bg-amber-500/10 px-3 py-2.5 text-sm">
              <p className="font-medium">{signedOut.code === 'account_suspended' ? 'Your account was suspended.' : 'You were signed out.'}</p>
              <p>{signedOut.detail}</p>
            </div>
          )}
          {formError && <FormAlert>{formError}</FormAlert>}
          {/* "webauthn" lets the browser list this site's passkeys in the field's autofill */}
          <TextField control={form.control} name="email" label="Email" type="email" autoComplete="username webauthn" placeholder="you@example.com" />
          <TextField
            control={form.control}
            name="password"
            label="Password"
            type="password"
            autoComplete="current-password"
            labelAside={
              <Link to="/reset-password" className="text-sm font-medium text-primary hover:underline">
                Forgot your password?
              </Link>
            }
          />
          {needsCode && (
            <TextField
              control={form.control}
              name="code"
              label="Authentication code"
              hint={CODE_HINT}
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={12}
              autoFocus
            />
          )}
          <Button type="submit" size="lg" disabled={busy} className="mt-1 w-full">
            {form.formState.isSubmitting && <Spinner />}
            {form.formState.isSubmitting ? 'Logging in...' : 'Log In'}
          </Button>
          {canUsePasskeys && (!needsCode || passkeyOffered) && (
            <>
              <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden="true">
                <span className="h-px flex-1 bg-border" /> or <span className="h-px flex-1 bg-border" />
              </div>
              <Button type="button" variant="outline" size="lg" className="w-full" disabled={busy} onClick={() => signInWithPasskey(needsCode ? form.getValues('email') : undefined)}>
                {passkeyBusy ? <Spinner /> : <Fingerprint aria-hidden="true" />}
                {needsCode ? 'Use a passkey instead' : 'Sign in with a passkey'}
              </Button>
            </>
          )}
        </form>
      </Form>
    </AuthCard>
  )
}

/** Why this tab was just signed out (a suspension, a revoked or expired session), read once after the page is
 *  shown: the prerendered page has no note, so the first render matches it. */
function useSignedOutReason(): SignOutReason | null {
  const [reason, setReason] = React.useState<SignOutReason | null>(null)
  React.useEffect(() => {
    const taken = signedOutNote.take()
    if (taken) setReason(taken) // a second run (StrictMode) finds nothing and keeps the first
  }, [])
  return reason
}
