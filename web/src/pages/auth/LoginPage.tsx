import * as React from 'react'
import { Link, useNavigate } from 'react-router'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from '@/lib/zod'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { Form } from '@/components/ui/form'
import { FormAlert } from '@/components/form-alert'
import { TextField } from '@/components/text-field'
import { useAuth } from '@/auth/session'
import { ApiError } from '@/api/errors'
import { emailField, MESSAGES } from '@/lib/validation'
import { showServerErrors } from '@/lib/server-errors'
import { AuthCard } from './AuthCard'
import { useHydrated } from '@/hooks/use-hydrated'
import { signedOutNote, type SignOutReason } from '@/auth/token'

export const LOGIN_FAILED = 'Login failed. Please check your credentials and try again.'

export const CODE_NEEDED = 'Enter the 6-digit code from your authenticator app.'
const CODE_FORMAT = 'The code has 6 digits.'

// `code` is asked for only once the server says the account needs one (an operator's second factor)
const loginSchema = z.object({ email: emailField, password: z.string().min(1, MESSAGES.passwordRequired), code: z.string() })
type LoginValues = z.infer<typeof loginSchema>

export default function LoginPage() {
  const hydrated = useHydrated()
  const { login } = useAuth()
  const navigate = useNavigate()
  const form = useForm<LoginValues>({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '', code: '' } })
  const [formError, setFormError] = React.useState<string | null>(null)
  const [needsCode, setNeedsCode] = React.useState(false)
  const busy = form.formState.isSubmitting
  const signedOut = useSignedOutReason()

  async function onSubmit({ email, password, code }: LoginValues) {
    setFormError(null)
    const digits = code.replace(/\s/g, '')
    if (needsCode && !/^\d{6}$/.test(digits)) {
      form.setError('code', { type: 'format', message: CODE_FORMAT }, { shouldFocus: true })
      return
    }
    try {
      const user = await login(email, password, needsCode ? digits : undefined)
      navigate(user.role === 'OPERATOR' ? '/ops' : '/dashboard', { replace: true })
    } catch (err) {
      if (err instanceof ApiError && err.code === 'second_factor_required') {
        setNeedsCode(true)
        return
      }
      if (err instanceof ApiError && err.code === 'invalid_second_factor') {
        form.setValue('code', '')
        form.setError('code', { type: 'server', message: err.detail ?? CODE_NEEDED }, { shouldFocus: true })
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
          <Link className="font-medium text-primary hover:underline" to="/signup/influencer">
            Join as a creator
          </Link>{' '}
          or{' '}
          <Link className="font-medium text-primary hover:underline" to="/signup/buyer">
            join as a brand
          </Link>
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
          <TextField control={form.control} name="email" label="Email" type="email" autoComplete="email" placeholder="you@example.com" />
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
              hint={CODE_NEEDED}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              autoFocus
            />
          )}
          <Button type="submit" size="lg" disabled={busy} className="mt-1 w-full">
            {busy && <Spinner />}
            {busy ? 'Logging in...' : 'Log In'}
          </Button>
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
