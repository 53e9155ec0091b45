import * as React from 'react'
import { useNavigate, useParams } from 'react-router'
import { toast } from 'sonner'
import { MailCheck } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from '@/lib/zod'
import { Button } from '@/components/ui/button'
import { Form } from '@/components/ui/form'
import { TextField } from '@/components/text-field'
import { useForgotPassword, useResetPassword } from '@/api/auth'
import { emailField, passwordMinLength, toastPasswordRuleOf, withNewPasswordRule } from '@/lib/validation'
import { failedSave } from '@/lib/server-errors'
import { AuthCard, AuthLink } from './AuthCard'
import { SubmitButton } from '@/components/submit-button'
import { useHydrated } from '@/hooks/use-hydrated'

export default function ResetPasswordPage() {
  const { token } = useParams()
  return token ? <ResetForm token={token} /> : <ForgotForm />
}

const forgotSchema = z.object({ email: emailField })
type ForgotValues = z.infer<typeof forgotSchema>

function ForgotForm() {
  const hydrated = useHydrated()
  const form = useForm<ForgotValues>({ resolver: zodResolver(forgotSchema), defaultValues: { email: '' } })
  const busy = form.formState.isSubmitting
  const [sent, setSent] = React.useState(false)
  const request = useForgotPassword()

  async function onSubmit({ email }: ForgotValues) {
    try {
      await request.mutateAsync(email)
      toast.success('Password Reset Email Sent', { description: 'If an account with that email exists, you will receive a password reset link.' })
      setSent(true)
    } catch (err) {
      failedSave(form, 'Error', 'Failed to send password reset email. Please try again.')(err)
    }
  }

  return (
    <AuthCard
      title="Forgot Your Password?"
      description="Enter the email you signed up with and we will send you a link to choose a new password."
      footer={
        <AuthLink to="/login">
          Back to log in
        </AuthLink>
      }
    >
      {sent ? (
        <div role="status" className="flex flex-col items-center gap-3 py-2 text-center">
          <div className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <MailCheck className="size-6" />
          </div>
          <p className="font-medium">Check your inbox</p>
          <p className="text-sm text-muted-foreground">If an account with that email exists, you will receive a password reset link. The link expires after a short time.</p>
          <Button variant="outline" onClick={() => setSent(false)}>
            Send another link
          </Button>
        </div>
      ) : (
        <Form {...form}>
          <form inert={!hydrated} onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4" aria-label="Request a password reset link">
            <TextField control={form.control} name="email" label="Email Address" type="email" autoComplete="email" placeholder="you@example.com" />
            <SubmitButton pending={busy} pendingLabel="Sending..." size="lg" className="w-full">
              Request Reset Link
            </SubmitButton>
          </form>
        </Form>
      )}
    </AuthCard>
  )
}

const resetSchema = z.object({ newPassword: z.string(), confirmPassword: z.string() }).superRefine(withNewPasswordRule)
type ResetValues = z.infer<typeof resetSchema>

function ResetForm({ token }: { token: string }) {
  const hydrated = useHydrated()
  const navigate = useNavigate()
  const form = useForm<ResetValues>({ resolver: zodResolver(resetSchema), defaultValues: { newPassword: '', confirmPassword: '' } })
  const busy = form.formState.isSubmitting
  const reset = useResetPassword(token)

  async function onSubmit({ newPassword }: ResetValues) {
    try {
      await reset.mutateAsync(newPassword)
      toast.success('Password Reset Successful', { description: 'Your password has been reset. You can now log in with your new password.' })
      navigate('/login', { replace: true })
    } catch (err) {
      failedSave(form, 'Error Resetting Password', 'Failed to reset password. Please try again.')(err)
    }
  }

  return (
    <AuthCard
      title="Reset Your Password"
      description="Choose a new password for your account."
      footer={
        <AuthLink to="/reset-password">
          Request a new link
        </AuthLink>
      }
    >
      <Form {...form}>
        <form inert={!hydrated} onSubmit={form.handleSubmit(onSubmit, toastPasswordRuleOf)} noValidate className="grid gap-4" aria-label="Set a new password">
          <TextField control={form.control} name="newPassword" label="New Password" type="password" autoComplete="new-password" hint={`At least ${passwordMinLength()} characters.`} />
          <TextField control={form.control} name="confirmPassword" label="Confirm New Password" type="password" autoComplete="new-password" />
          <SubmitButton pending={busy} pendingLabel="Resetting..." size="lg" className="w-full">
            Reset Password
          </SubmitButton>
        </form>
      </Form>
    </AuthCard>
  )
}
