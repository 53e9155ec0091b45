import * as React from 'react'
import { FormDialog } from '@/components/form-dialog'
import { TextField } from '@/components/text-field'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from '@/lib/zod'
import { serverMessage } from '@/api/errors'
import { useAuth } from '@/auth/session'
import { showServerErrors } from '@/lib/server-errors'
import { useInstagramLogin } from '../api/mutations'

export const IG_LOGIN_FALLBACK = 'Failed to login to Instagram. Please check your credentials.'

// a missing field is told by the form's one message (the spec's), not under the field
const loginSchema = z.object({ username: z.string().trim().min(1, ''), password: z.string().min(1, '') })
type LoginValues = z.infer<typeof loginSchema>

/** Instagram's own login, once, so Pinbid can pin (POST /influencer/instagram-login; the password is not kept). */
export function InstagramLoginDialog({ open, onClose, onSuccess }: { open: boolean; onClose: () => void; onSuccess: () => void }) {
  const { user } = useAuth()
  const form = useForm<LoginValues>({ resolver: zodResolver(loginSchema), defaultValues: { username: user?.instagramHandle ?? '', password: '' } })
  const [error, setError] = React.useState<string | null>(null)
  const login = useInstagramLogin({
    // the pin that follows says how it went (Comment Pinned): the login itself adds no toast
    onSuccess: () => {
      form.resetField('password')
      setError(null)
      onSuccess()
    },
    // said once, where the person is looking: under the field it names, else above the buttons
    onError: (err) => setError(showServerErrors(form, err) ? null : serverMessage(err, IG_LOGIN_FALLBACK)),
  })
  const hasUsername = Boolean(form.getValues('username'))
  return (
    <FormDialog
      open={open}
      form={form}
      onSubmit={form.handleSubmit((values) => login.mutate(values), () => setError(IG_LOGIN_FALLBACK))}
      title="Secure Instagram Login"
      description="Instagram needs you to sign in once so Pinbid can pin the comment. Your password is used once and never stored."
      error={error}
      pending={login.isPending}
      onCancel={onClose}
      submitLabel="Log In & Pin"
    >
      <TextField control={form.control} name="username" id="ig-username" label="Instagram username" autoComplete="username" />
      <TextField control={form.control} name="password" id="ig-password" label="Instagram password" type="password" autoComplete="current-password" autoFocus={hasUsername} />
    </FormDialog>
  )
}
