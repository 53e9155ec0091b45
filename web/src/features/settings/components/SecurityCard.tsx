import { useForm } from 'react-hook-form'
import { useQuery } from '@tanstack/react-query'
import { RefreshCw } from 'lucide-react'
import { secondFactorQuery } from '@/api/queries'
import { zodResolver } from '@hookform/resolvers/zod'
import { toast } from 'sonner'
import { KeyRound, ShieldCheck } from 'lucide-react'
import { z } from '@/lib/zod'
import { serverMessage } from '@/api/errors'
import { isStepUpRequired } from '@/auth/second-factor'
import { SubmitButton } from '@/components/submit-button'
import { TextField } from '@/components/text-field'
import { Button } from '@/components/ui/button'
import { Form } from '@/components/ui/form'
import { Spinner } from '@/components/ui/spinner'
import { showServerErrors } from '@/lib/server-errors'
import { MESSAGES, toastPasswordRuleOf, withNewPasswordRule } from '@/lib/validation'
import { useChangePassword } from '../api/settings'
import { SettingsCard } from './SectionTitle'
import { PasskeysSection } from './PasskeysSection'
import { TotpSection } from './TotpSection'

const passwordSchema = z
  .object({ currentPassword: z.string().min(1, MESSAGES.currentPasswordRequired), newPassword: z.string(), confirmPassword: z.string() })
  .superRefine(withNewPasswordRule)
type PasswordValues = z.infer<typeof passwordSchema>

const EMPTY: PasswordValues = { currentPassword: '', newPassword: '', confirmPassword: '' }

export function SecurityCard() {
  const form = useForm<PasswordValues>({ resolver: zodResolver(passwordSchema), defaultValues: EMPTY })
  const change = useChangePassword()

  function onSubmit({ currentPassword, newPassword }: PasswordValues) {
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          // every earlier token is revoked; the new one was kept as it arrived (rotateToken)
          form.reset(EMPTY)
          toast.success('Password Changed', { description: 'Your password has been updated. Other devices have been signed out.' })
        },
        onError: (err) => {
          showServerErrors(form, err)
          if (isStepUpRequired(err)) return // the confirmation was cancelled: nothing changed, nothing to add
          toast.error('Failed to change password', { description: serverMessage(err, 'Failed to change password. Please try again.') })
        },
      },
    )
  }

  return (
    <SettingsCard icon={ShieldCheck} title="Security & Privacy" description="Keep your account safe." contentClassName="space-y-6">
        <SecondFactors />
        <Form {...form}>
          <form onSubmit={form.handleSubmit(onSubmit, toastPasswordRuleOf)} noValidate className="grid gap-4" aria-label="Change password">
            <h3 className="flex items-center gap-2 text-sm font-semibold">
              <KeyRound className="size-4 text-muted-foreground" aria-hidden="true" /> Change Password
            </h3>
            <TextField control={form.control} name="currentPassword" label="Current Password" type="password" autoComplete="current-password" />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField control={form.control} name="newPassword" label="New Password" type="password" autoComplete="new-password" />
              <TextField control={form.control} name="confirmPassword" label="Confirm New Password" type="password" autoComplete="new-password" />
            </div>
            <div className="flex justify-end">
              <SubmitButton pending={change.isPending} pendingLabel="Updating...">
                Update Password
              </SubmitButton>
            </div>
          </form>
        </Form>
    </SettingsCard>
  )
}

/** The authenticator app and the passkeys, as the server has them. */
function SecondFactors() {
  const factors = useQuery(secondFactorQuery())
  if (factors.isPending) {
    return (
      <div role="status" className="flex items-center gap-2 rounded-xl border p-4 text-sm text-muted-foreground">
        <Spinner /> Loading sign-in methods...
      </div>
    )
  }
  if (factors.isError) {
    return (
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border p-4">
        <p role="alert" className="text-sm text-destructive">
          Could not load your sign-in methods.
        </p>
        <Button variant="outline" size="sm" onClick={() => factors.refetch()}>
          <RefreshCw aria-hidden="true" /> Try again
        </Button>
      </div>
    )
  }
  return (
    <>
      <TotpSection enabled={factors.data.totpEnabled} recoveryCodesLeft={factors.data.recoveryCodesLeft} />
      <PasskeysSection passkeys={factors.data.passkeys} totpEnabled={factors.data.totpEnabled} />
    </>
  )
}
