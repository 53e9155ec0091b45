import * as React from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { toast } from 'sonner'
import { MailCheck } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { FormField } from '@/components/form-field'
import { api } from '@/api/client'
import { serverMessage, unwrap } from '@/api/errors'
import { emailError, hasErrors, newPasswordErrors, PASSWORD_MIN_LENGTH, toastPasswordRule, type FieldErrors } from '@/lib/validation'
import { AuthCard } from './AuthCard'

export default function ResetPasswordPage() {
  const { token } = useParams()
  return token ? <ResetForm token={token} /> : <ForgotForm />
}

function ForgotForm() {
  const [email, setEmail] = React.useState('')
  const [error, setError] = React.useState<string>()
  const [busy, setBusy] = React.useState(false)
  const [sent, setSent] = React.useState(false)

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    const err = emailError(email)
    setError(err)
    if (err) return
    setBusy(true)
    try {
      unwrap(await api().POST('/auth/forgot-password', { body: { email: email.trim() } }))
      toast.success('Password Reset Email Sent', { description: 'If an account with that email exists, you will receive a password reset link.' })
      setSent(true)
    } catch (err) {
      toast.error('Error', { description: serverMessage(err, 'Failed to send password reset email. Please try again.') })
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthCard
      title="Forgot Your Password?"
      description="Enter the email you signed up with and we will send you a link to choose a new password."
      footer={
        <Link className="font-medium text-primary hover:underline" to="/login">
          Back to log in
        </Link>
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
        <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Request a password reset link">
          <FormField id="email" label="Email Address" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={error} placeholder="you@example.com" />
          <Button type="submit" size="lg" disabled={busy} className="w-full">
            {busy && <Spinner />}
            {busy ? 'Sending...' : 'Request Reset Link'}
          </Button>
        </form>
      )}
    </AuthCard>
  )
}

function ResetForm({ token }: { token: string }) {
  const navigate = useNavigate()
  const [newPassword, setNewPassword] = React.useState('')
  const [confirm, setConfirm] = React.useState('')
  const [errors, setErrors] = React.useState<FieldErrors<'newPassword' | 'confirmPassword'>>({})
  const [busy, setBusy] = React.useState(false)

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    const next = newPasswordErrors(newPassword, confirm)
    setErrors(next)
    if (hasErrors(next)) {
      toastPasswordRule(next)
      return
    }
    setBusy(true)
    try {
      unwrap(await api().POST('/auth/reset-password', { body: { token, newPassword } }))
      toast.success('Password Reset Successful', { description: 'Your password has been reset. You can now log in with your new password.' })
      navigate('/login', { replace: true })
    } catch (err) {
      toast.error('Error Resetting Password', { description: serverMessage(err, 'Failed to reset password. Please try again.') })
      setBusy(false)
    }
  }

  return (
    <AuthCard
      title="Reset Your Password"
      description="Choose a new password for your account."
      footer={
        <Link className="font-medium text-primary hover:underline" to="/reset-password">
          Request a new link
        </Link>
      }
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Set a new password">
        <FormField
          id="newPassword"
          label="New Password"
          type="password"
          autoComplete="new-password"
          value={newPassword}
          onChange={(e) => setNewPassword(e.target.value)}
          error={errors.newPassword}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        />
        <FormField
          id="confirmPassword"
          label="Confirm New Password"
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={errors.confirmPassword}
        />
        <Button type="submit" size="lg" disabled={busy} className="w-full">
          {busy && <Spinner />}
          {busy ? 'Resetting...' : 'Reset Password'}
        </Button>
      </form>
    </AuthCard>
  )
}
