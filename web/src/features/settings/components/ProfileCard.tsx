import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { toast } from 'sonner'
import { User as UserIcon } from 'lucide-react'
import { z } from '@/lib/zod'
import { isStepUpRequired } from '@/auth/second-factor'
import { useAuth } from '@/auth/session'
import { TextField } from '@/components/text-field'
import { Form } from '@/components/ui/form'
import { SubmitButton } from '@/components/submit-button'
import { failedSave } from '@/lib/server-errors'
import { emailField, MESSAGES, requiredText } from '@/lib/validation'
import { useSaveProfile } from '../api/settings'
import { SettingsCard } from './SectionTitle'

export const PASSWORD_FOR_EMAIL = 'Enter your current password to change your email address.'

// the server compares addresses without regard to case, and asks for the password only for a new one
const changesEmail = (email: string, saved: string | undefined) => email.trim().toLowerCase() !== (saved ?? '').toLowerCase()

function profileSchema(savedEmail: string | undefined) {
  return z
    .object({ name: requiredText(MESSAGES.nameRequired), email: emailField, currentPassword: z.string() })
    .superRefine((values, ctx) => {
      if (changesEmail(values.email, savedEmail) && !values.currentPassword) ctx.addIssue({ code: 'custom', path: ['currentPassword'], message: PASSWORD_FOR_EMAIL })
    })
}
type ProfileValues = z.infer<ReturnType<typeof profileSchema>>

export function ProfileCard() {
  const { user, updateUser } = useAuth()
  const form = useForm<ProfileValues>({
    resolver: zodResolver(profileSchema(user?.email)),
    defaultValues: { name: user?.name ?? '', email: user?.email ?? '', currentPassword: '' },
  })
  const [name, email] = useWatch({ control: form.control, name: ['name', 'email'] })
  const emailChanges = changesEmail(email, user?.email)
  const unchanged = name.trim() === user?.name && email.trim() === user?.email
  const save = useSaveProfile()

  function onSubmit(values: ProfileValues) {
    save.mutate(
      { name: values.name, email: values.email, ...(emailChanges ? { currentPassword: values.currentPassword } : {}) },
      {
        onSuccess: ({ token, ...updated }) => {
          // a new email signs every other session out; this one goes on with the answer's token (rotateToken)
          updateUser(updated)
          form.reset({ name: updated.name, email: updated.email, currentPassword: '' })
          toast.success('Profile Updated', {
            description: token ? 'Your email address has been changed. Other devices have been signed out.' : 'Your profile information has been saved.',
          })
        },
        onError: (err) => {
          if (isStepUpRequired(err)) return // the confirmation was cancelled: nothing changed
          failedSave(form, 'Failed to update profile', 'Failed to update profile. Please try again.')(err)
        },
      },
    )
  }

  return (
    <SettingsCard icon={UserIcon} title="Profile Information" description="Your name is shown to the other side of each auction.">
        <Form {...form}>
          <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4" aria-label="Profile information">
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField control={form.control} name="name" id="profile-name" label="Full Name" autoComplete="name" />
              <TextField control={form.control} name="email" id="profile-email" label="Email Address" type="email" autoComplete="email" />
            </div>
            {emailChanges && (
              <TextField
                control={form.control}
                name="currentPassword"
                id="profile-current-password"
                label="Current Password"
                type="password"
                autoComplete="current-password"
                hint="Changing your email signs you out on your other devices."
              />
            )}
            <div className="flex justify-end">
              <SubmitButton pending={save.isPending} pendingLabel="Saving..." disabled={unchanged}>
                Save Changes
              </SubmitButton>
            </div>
          </form>
        </Form>
    </SettingsCard>
  )
}
