import * as React from 'react'
import { Link, useNavigate } from 'react-router'
import { Info } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from '@/lib/zod'
import { Form } from '@/components/ui/form'
import { FormAlert } from '@/components/form-alert'
import { TextField } from '@/components/text-field'
import { useAuth, type SignupPayload } from '@/auth/session'
import { ApiError } from '@/api/errors'
import { emailField, MESSAGES, normaliseHandle, passwordMinLength, requiredText } from '@/lib/validation'
import { handlePattern } from '@/lib/disclosure'
import { showServerErrors } from '@/lib/server-errors'
import { AuthCard, AuthLink } from './AuthCard'
import { SubmitButton } from '@/components/submit-button'
import { useHydrated } from '@/hooks/use-hydrated'

export const SIGNUP_FAILED = 'Signup failed. Please check your details and try again.'

type Role = 'INFLUENCER' | 'BUYER'

function signupSchema(influencer: boolean) {
  return z.object({
    name: requiredText(MESSAGES.nameRequired),
    email: emailField,
    instagramHandle: influencer
      ? z
          .string()
          .transform(normaliseHandle)
          .pipe(z.string().min(1, MESSAGES.handleRequired).refine((handle) => handlePattern().test(handle), MESSAGES.handleInvalid))
      : z.string(),
    businessName: z.string().trim(),
    password: z.string().min(1, MESSAGES.passwordRequired).min(passwordMinLength(), MESSAGES.signupPasswordShort),
  })
}
type SignupInput = z.input<ReturnType<typeof signupSchema>>
type SignupValues = z.output<ReturnType<typeof signupSchema>>

export function SignupPage({ role }: { role: Role }) {
  const hydrated = useHydrated()
  const influencer = role === 'INFLUENCER'
  const { signup } = useAuth()
  const navigate = useNavigate()
  const form = useForm<SignupInput, unknown, SignupValues>({
    resolver: zodResolver(signupSchema(influencer)),
    defaultValues: { name: '', email: '', instagramHandle: '', businessName: '', password: '' },
  })
  const [formError, setFormError] = React.useState<{ title: string; detail?: string } | null>(null)
  const busy = form.formState.isSubmitting

  async function onSubmit(values: SignupValues) {
    setFormError(null)
    const base = { name: values.name, email: values.email, password: values.password }
    const payload: SignupPayload = influencer
      ? { ...base, role: 'INFLUENCER', instagramHandle: values.instagramHandle }
      : { ...base, role: 'BUYER', ...(values.businessName ? { businessName: values.businessName } : {}) }
    try {
      await signup(payload)
      navigate('/dashboard', { replace: true })
    } catch (err) {
      showServerErrors(form, err)
      // the spec shows a generic message; a conflict (email taken), bad input or rate limit adds the server's reason so the person can act on it
      const detail = err instanceof ApiError && [409, 422, 429].includes(err.status) ? err.detail : undefined
      setFormError({ title: SIGNUP_FAILED, detail })
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
            <AuthLink to="/login">Log in</AuthLink>
          </p>
          <p>
            {influencer ? 'Representing a brand? ' : 'Are you a creator? '}
            <AuthLink to={influencer ? '/signup/buyer' : '/signup/influencer'}>{influencer ? 'Sign up as a brand' : 'Sign up as a creator'}</AuthLink>
          </p>
        </div>
      }
    >
      <Form {...form}>
      <form inert={!hydrated} onSubmit={form.handleSubmit(onSubmit, () => setFormError(null))} noValidate className="grid gap-4" aria-label={influencer ? 'Creator signup' : 'Brand signup'}>
        {formError && (
          <FormAlert>
            <p>{formError.title}</p>
            {formError.detail && <p className="mt-1 font-medium">{formError.detail}</p>}
          </FormAlert>
        )}
        <TextField control={form.control} name="name" label="Full Name" autoComplete="name" placeholder="Jane Doe" />
        <TextField control={form.control} name="email" label="Email" type="email" autoComplete="email" placeholder="you@example.com" />
        {influencer ? (
          <TextField
            control={form.control}
            name="instagramHandle"
            label="Instagram Handle"
            prefix="@"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="your_handle"
          />
        ) : (
          <TextField control={form.control} name="businessName" label="Business Name (optional)" autoComplete="organization" placeholder="Acme Inc." />
        )}
        <TextField
          control={form.control}
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${passwordMinLength()} characters.`}
        />
        <p className="flex gap-2 rounded-lg bg-muted px-3 py-2.5 text-xs leading-relaxed text-muted-foreground">
          <Info className="mt-0.5 size-3.5 shrink-0 text-primary" aria-hidden="true" />
          {influencer
            ? 'You will connect your Instagram Business or Creator account after signup, from your settings.'
            : 'You can browse pin slots and place bids right after signup.'}
        </p>
        <SubmitButton pending={busy} pendingLabel="Creating Account..." size="lg" className="w-full">
          {influencer ? 'Create Creator Account' : 'Create Brand Account'}
        </SubmitButton>
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
      </Form>
    </AuthCard>
  )
}

export function InfluencerSignupPage() {
  return <SignupPage role="INFLUENCER" />
}
export function BuyerSignupPage() {
  return <SignupPage role="BUYER" />
}
