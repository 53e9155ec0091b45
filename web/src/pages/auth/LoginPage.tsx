import * as React from 'react'
import { Link, useNavigate } from 'react-router'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { FormAlert, FormField } from '@/components/form-field'
import { useAuth } from '@/auth/session'
import { ApiError } from '@/api/errors'
import { emailError, hasErrors, MESSAGES, requiredError, type FieldErrors } from '@/lib/validation'
import { AuthCard } from './AuthCard'

export const LOGIN_FAILED = 'Login failed. Please check your credentials and try again.'

export default function LoginPage() {
  const { login } = useAuth()
  const navigate = useNavigate()
  const [email, setEmail] = React.useState('')
  const [password, setPassword] = React.useState('')
  const [errors, setErrors] = React.useState<FieldErrors<'email' | 'password'>>({})
  const [formError, setFormError] = React.useState<string | null>(null)
  const [busy, setBusy] = React.useState(false)

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    const next = { email: emailError(email), password: requiredError(password, MESSAGES.passwordRequired) }
    setErrors(next)
    setFormError(null)
    if (hasErrors(next)) return
    setBusy(true)
    try {
      await login(email.trim(), password)
      navigate('/dashboard', { replace: true })
    } catch (err) {
      setFormError(err instanceof ApiError && err.status === 429 && err.detail ? err.detail : LOGIN_FAILED)
      setBusy(false)
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
      <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Log in">
        {formError && <FormAlert>{formError}</FormAlert>}
        <FormField id="email" label="Email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} placeholder="you@example.com" />
        <FormField
          id="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
          labelAside={
            <Link to="/reset-password" className="text-sm font-medium text-primary hover:underline">
              Forgot your password?
            </Link>
          }
        />
        <Button type="submit" size="lg" disabled={busy} className="mt-1 w-full">
          {busy && <Spinner />}
          {busy ? 'Logging in...' : 'Log In'}
        </Button>
      </form>
    </AuthCard>
  )
}
