import * as React from 'react'
import { Link, useNavigate } from 'react-router'
import { Info } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { FormAlert, FormField } from '@/components/form-field'
import { useAuth, type SignupPayload } from '@/auth/session'
import { ApiError } from '@/api/errors'
import {
  emailError,
  hasErrors,
  MESSAGES,
  normaliseHandle,
  PASSWORD_MIN_LENGTH,
  requiredError,
  type FieldErrors,
} from '@/lib/validation'
import { handlePattern } from '@/lib/disclosure'
import { AuthCard } from './AuthCard'

export const SIGNUP_FAILED = 'Signup failed. Please check your details and try again.'

type Role = 'INFLUENCER' | 'BUYER'
type Field = 'name' | 'email' | 'extra' | 'password'

export function SignupPage({ role }: { role: Role }) {
  const influencer = role === 'INFLUENCER'
  const { signup } = useAuth()
  const navigate = useNavigate()
  const [values, setValues] = React.useState({ name: '', email: '', extra: '', password: '' })
  const [errors, setErrors] = React.useState<FieldErrors<Field>>({})
  const [formError, setFormError] = React.useState<{ title: string; detail?: string } | null>(null)
  const [busy, setBusy] = React.useState(false)

  const set = (k: Field) => (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [k]: e.target.value }))

  function validate(): FieldErrors<Field> {
    const handle = normaliseHandle(values.extra)
    return {
      name: requiredError(values.name, MESSAGES.nameRequired),
      email: emailError(values.email),
      extra: influencer ? (!handle ? MESSAGES.handleRequired : handlePattern().test(handle) ? undefined : MESSAGES.handleInvalid) : undefined,
      password: !values.password
        ? MESSAGES.passwordRequired
        : values.password.length < PASSWORD_MIN_LENGTH
          ? MESSAGES.signupPasswordShort
          : undefined,
    }
  }

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    const next = validate()
    setErrors(next)
    setFormError(null)
    if (hasErrors(next)) return
    const base = { name: values.name.trim(), email: values.email.trim(), password: values.password }
    const payload: SignupPayload = influencer
      ? { ...base, role: 'INFLUENCER', instagramHandle: normaliseHandle(values.extra) }
      : { ...base, role: 'BUYER', ...(values.extra.trim() ? { businessName: values.extra.trim() } : {}) }
    setBusy(true)
    try {
      await signup(payload)
      navigate('/dashboard', { replace: true })
    } catch (err) {
      // the spec shows a generic message; a conflict (email taken), bad input or rate limit adds the server's reason so the person can act on it
      const detail = err instanceof ApiError && [409, 422, 429].includes(err.status) ? err.detail : undefined
      setFormError({ title: SIGNUP_FAILED, detail })
      setBusy(false)
    }
  }

  return (
    <AuthCard
      title={influencer ? 'Join as a Creator' : 'Join as a Brand'}
      description={influencer ? 'Auction the pinned comment on your posts and get paid.' : 'Bid on pinned comments under the posts your audience already watches.'}
      footer={
        <div className="space-y-1.5">
          <p>
            Already have an account?{' '}
            <Link className="font-medium text-primary hover:underline" to="/login">
              Log in
            </Link>
          </p>
          <p>
            {influencer ? 'Representing a brand? ' : 'Are you a creator? '}
            <Link className="font-medium text-primary hover:underline" to={influencer ? '/signup/buyer' : '/signup/influencer'}>
              {influencer ? 'Sign up as a buyer' : 'Sign up as an influencer'}
            </Link>
          </p>
        </div>
      }
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label={influencer ? 'Influencer signup' : 'Buyer signup'}>
        {formError && (
          <FormAlert>
            <p>{formError.title}</p>
            {formError.detail && <p className="mt-1 font-medium">{formError.detail}</p>}
          </FormAlert>
        )}
        <FormField id="name" label="Full Name" autoComplete="name" value={values.name} onChange={set('name')} error={errors.name} placeholder="Jane Doe" />
        <FormField id="email" label="Email" type="email" autoComplete="email" value={values.email} onChange={set('email')} error={errors.email} placeholder="you@example.com" />
        {influencer ? (
          <FormField
            id="instagramHandle"
            label="Instagram Handle"
            prefix="@"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="your_handle"
            value={values.extra}
            onChange={set('extra')}
            error={errors.extra}
          />
        ) : (
          <FormField
            id="businessName"
            label="Business Name (optional)"
            autoComplete="organization"
            placeholder="Acme Inc."
            value={values.extra}
            onChange={set('extra')}
          />
        )}
        <FormField
          id="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          value={values.password}
          onChange={set('password')}
          error={errors.password}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        />
        <p className="flex gap-2 rounded-lg bg-muted px-3 py-2.5 text-xs leading-relaxed text-muted-foreground">
          <Info className="mt-0.5 size-3.5 shrink-0 text-primary" aria-hidden="true" />
          {influencer
            ? 'You will connect your Instagram Business or Creator account after signup, from your settings.'
            : 'You can browse pin slots and place bids right after signup.'}
        </p>
        <Button type="submit" size="lg" disabled={busy} className="w-full">
          {busy && <Spinner />}
          {busy ? 'Creating Account...' : influencer ? 'Create Influencer Account' : 'Create Buyer Account'}
        </Button>
        <p className="text-center text-xs text-muted-foreground">
          By signing up you agree to our{' '}
          <Link to="/terms" className="underline underline-offset-2 hover:text-foreground">
            Terms of Service
          </Link>{' '}
          and{' '}
          <Link to="/privacy" className="underline underline-offset-2 hover:text-foreground">
            Privacy Policy
          </Link>
          .
        </p>
      </form>
    </AuthCard>
  )
}

export function InfluencerSignupPage() {
  return <SignupPage role="INFLUENCER" />
}
export function BuyerSignupPage() {
  return <SignupPage role="BUYER" />
}
