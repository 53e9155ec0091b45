import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { toast } from 'sonner'
import { KeyRound, ShieldCheck } from 'lucide-react'
import { z } from '@/lib/zod'
import { serverMessage } from '@/api/errors'
import { TextField } from '@/components/text-field'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card'
import { Form } from '@/components/ui/form'
import { Spinner } from '@/components/ui/spinner'
import { showServerErrors } from '@/lib/server-errors'
import { MESSAGES, toastPasswordRuleOf, withNewPasswordRule } from '@/lib/validation'
import { useChangePassword } from '../api/settings'
import { SectionTitle } from './SectionTitle'

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
          toast.error('Failed to change password', { description: serverMessage(err, 'Failed to change password. Please try again.') })
        },
      },
    )
  }

  return (
    <Card>
      <CardHeader>
        <SectionTitle icon={ShieldCheck}>Security & Privacy</SectionTitle>
        <CardDescription>Keep your account safe.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <div className="flex items-center justify-between gap-4 rounded-xl border p-4">
          <div>
            <p className="text-sm font-medium">Two-Factor Authentication</p>
            <p className="text-sm text-muted-foreground">An extra code at sign-in, from an authenticator app.</p>
          </div>
          <Badge variant="secondary">Coming soon</Badge>
        </div>
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
              <Button type="submit" disabled={change.isPending}>
                {change.isPending && <Spinner />}
                {change.isPending ? 'Updating...' : 'Update Password'}
              </Button>
            </div>
          </form>
        </Form>
      </CardContent>
    </Card>
  )
}
