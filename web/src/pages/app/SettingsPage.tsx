import * as React from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { Bell, Camera, KeyRound, RefreshCw, ShieldCheck, User as UserIcon } from 'lucide-react'
import { api, type NotificationPreferences, type Schemas } from '@/api/client'
import { ApiError, serverMessage, unwrap } from '@/api/errors'
import { useAuth } from '@/auth/session'
import { FormField } from '@/components/form-field'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Separator } from '@/components/ui/separator'
import { Spinner } from '@/components/ui/spinner'
import { Switch } from '@/components/ui/switch'
import { KEYS } from '@/api/keys'
import { instagramConnectionQuery } from '@/api/queries'
import { emailError, hasErrors, MESSAGES, newPasswordErrors, requiredError, toastPasswordRule, type FieldErrors } from '@/lib/validation'

export const SETTINGS_LOAD_ERROR = 'Failed to load settings. Please try again later.'
export const PREFERENCES_KEY = ['notification-preferences'] as const
export const PASSWORD_FOR_EMAIL = 'Enter your current password to change your email address.'

export default function SettingsPage() {
  const { user } = useAuth()
  const prefs = useQuery({
    queryKey: PREFERENCES_KEY,
    queryFn: async () => unwrap(await api().GET('/notifications/preferences')),
    retry: false,
  })

  if (!user) return null
  if (prefs.isPending) {
    return (
      <div role="status" className="flex flex-1 items-center justify-center gap-2 py-24 text-muted-foreground">
        <Spinner className="size-5 text-primary" /> Loading settings...
      </div>
    )
  }

  return (
    <div className="mx-auto w-full max-w-3xl space-y-6">
      <p className="text-muted-foreground">Manage your profile, connected accounts, notifications and security.</p>
      <ProfileCard />
      {user.role === 'INFLUENCER' && <InstagramCard />}
      {prefs.isError ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 py-4 text-center">
            <p role="alert" className="font-medium text-destructive">
              {SETTINGS_LOAD_ERROR}
            </p>
            <Button variant="outline" size="sm" onClick={() => prefs.refetch()}>
              <RefreshCw /> Try again
            </Button>
          </CardContent>
        </Card>
      ) : (
        <NotificationCard initial={prefs.data} />
      )}
      <SecurityCard />
    </div>
  )
}

function SectionTitle({ icon: Icon, children }: { icon: typeof UserIcon; children: React.ReactNode }) {
  return (
    <CardTitle className="flex items-center gap-2">
      <Icon className="size-5 text-primary" aria-hidden="true" />
      {children}
    </CardTitle>
  )
}

interface ProfileUpdate {
  name: string
  email: string
  currentPassword?: string
}

function ProfileCard() {
  const { user, updateUser, replaceToken } = useAuth()
  const [name, setName] = React.useState(user?.name ?? '')
  const [email, setEmail] = React.useState(user?.email ?? '')
  const [currentPassword, setCurrentPassword] = React.useState('')
  const [errors, setErrors] = React.useState<FieldErrors<'name' | 'email' | 'currentPassword'>>({})
  // the server compares addresses without regard to case, and asks for the password only for a new one
  const emailChanges = email.trim().toLowerCase() !== (user?.email ?? '').toLowerCase()

  const save = useMutation({
    mutationFn: async (body: ProfileUpdate) => unwrap(await api().PUT('/auth/profile', { body })),
    onSuccess: ({ token, ...updated }) => {
      // a new email signs every session out, this one too: the answer carries the token to go on with
      if (token) replaceToken(token)
      updateUser(updated)
      setName(updated.name)
      setEmail(updated.email)
      setCurrentPassword('')
      setErrors({})
      toast.success('Profile Updated', {
        description: token ? 'Your email address has been changed. Other devices have been signed out.' : 'Your profile information has been saved.',
      })
    },
    onError: (err) => {
      const wrongPassword = err instanceof ApiError ? err.fieldErrors.find((e) => e.field === 'currentPassword') : undefined
      if (wrongPassword) setErrors((e) => ({ ...e, currentPassword: wrongPassword.message }))
      toast.error('Failed to update profile', { description: serverMessage(err, 'Failed to update profile. Please try again.') })
    },
  })

  function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    const next = {
      name: requiredError(name, MESSAGES.nameRequired),
      email: emailError(email),
      currentPassword: emailChanges && !currentPassword ? PASSWORD_FOR_EMAIL : undefined,
    }
    setErrors(next)
    if (hasErrors(next)) return
    save.mutate({ name: name.trim(), email: email.trim(), ...(emailChanges ? { currentPassword } : {}) })
  }

  const unchanged = name.trim() === user?.name && email.trim() === user?.email

  return (
    <Card>
      <CardHeader>
        <SectionTitle icon={UserIcon}>Profile Information</SectionTitle>
        <CardDescription>Your name is shown to the other side of each auction.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Profile information">
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="profile-name" label="Full Name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} />
            <FormField
              id="profile-email"
              label="Email Address"
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              error={errors.email}
            />
          </div>
          {emailChanges && (
            <FormField
              id="profile-current-password"
              label="Current Password"
              type="password"
              autoComplete="current-password"
              hint="Changing your email signs you out on your other devices."
              value={currentPassword}
              onChange={(e) => setCurrentPassword(e.target.value)}
              error={errors.currentPassword}
            />
          )}
          <div className="flex justify-end">
            <Button type="submit" disabled={save.isPending || unchanged}>
              {save.isPending && <Spinner />}
              {save.isPending ? 'Saving...' : 'Save Changes'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  )
}

function InstagramCard() {
  const { user } = useAuth()
  const connect = useMutation({
    mutationFn: async () => unwrap(await api().GET('/instagram/connect')),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (err) => toast.error('Could not connect Instagram', { description: serverMessage(err, 'Failed to start the Instagram connection. Please try again.') }),
  })
  const connected = Boolean(user?.instagramConnected)

  return (
    <Card>
      <CardHeader>
        <SectionTitle icon={Camera}>Instagram Integration</SectionTitle>
        <CardDescription>Connect your Instagram Business or Creator account to list pin slots and pin winning comments.</CardDescription>
      </CardHeader>
      <CardContent>
        <div className="flex flex-col gap-4 rounded-xl border p-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex items-center gap-3">
            <div aria-hidden="true" className="flex size-10 items-center justify-center rounded-xl bg-gradient-to-br from-amber-400 via-pink-500 to-violet-600 text-white">
              <Camera className="size-5" />
            </div>
            <div>
              {connected ? (
                <>
                  <p className="font-medium">@{user?.instagramHandle}</p>
                  <Badge variant="success" className="mt-1">
                    Connected
                  </Badge>
                </>
              ) : (
                <>
                  <p className="font-medium">Not Connected</p>
                  <p className="text-sm text-muted-foreground">
                    {user?.instagramHandle ? `@${user.instagramHandle} is not linked yet.` : 'No Instagram account linked yet.'}
                  </p>
                </>
              )}
            </div>
          </div>
          <Button variant={connected ? 'outline' : 'default'} onClick={() => connect.mutate()} disabled={connect.isPending}>
            {connect.isPending && <Spinner />}
            {connected ? 'Reconnect' : 'Connect'}
          </Button>
        </div>
        {connected && user?.role === 'INFLUENCER' && <PinMethod />}
      </CardContent>
    </Card>
  )
}

const PIN_METHODS = [
  {
    value: 'SESSION',
    label: 'Pinbid pins for me',
    text: 'Log in to Instagram once (Secure Instagram Login) and Pin Comment on Approvals pins it. Your password is used once and never stored.',
  },
  {
    value: 'MANUAL',
    label: 'I pin in the Instagram app',
    text: 'No password: Pinbid posts the approved comment on your post, you pin it in the Instagram app and press “I pinned it”. Pinbid checks the comment is there, visible and unchanged; the placement then starts on your word and counts on your reliability record.',
  },
] as const

function PinMethod() {
  const queryClient = useQueryClient()
  const connection = useQuery(instagramConnectionQuery())
  const choose = useMutation({
    mutationFn: async (pinMethod: 'SESSION' | 'MANUAL') => unwrap(await api().PUT('/instagram/pin-method', { body: { pinMethod } })),
    onSuccess: (out) => {
      queryClient.setQueryData(KEYS.instagramConnection, (old: object | undefined) => ({ ...old, pinMethod: out.pinMethod }))
      toast.success('Pin method saved', { description: out.pinMethod === 'MANUAL' ? 'You pin in the Instagram app.' : 'Pinbid pins with your Instagram login.' })
    },
    onError: (err) => toast.error('Could not save the pin method', { description: serverMessage(err, 'Please try again.') }),
  })
  if (connection.isPending) return <Spinner className="mt-4" />
  const current = choose.isPending ? choose.variables : (connection.data?.pinMethod ?? 'SESSION')
  return (
    <fieldset className="mt-4 grid gap-2" disabled={choose.isPending}>
      <legend className="mb-1 text-sm font-medium">How you pin winning comments</legend>
      {PIN_METHODS.map((m) => (
        <label key={m.value} className="flex cursor-pointer gap-3 rounded-lg border p-3 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/5">
          <input type="radio" name="pin-method" value={m.value} checked={current === m.value} onChange={() => choose.mutate(m.value)} className="mt-1 accent-[var(--primary)]" />
          <span>
            <span className="font-medium">{m.label}</span>
            <span className="block text-muted-foreground">{m.text}</span>
          </span>
        </label>
      ))}
    </fieldset>
  )
}

type PreferenceRow = { key: keyof NotificationPreferences; label: string; text: string }

/** Each role is told only about what happens on its side of an auction. */
export const PREFERENCE_ROWS: Record<'INFLUENCER' | 'BUYER', PreferenceRow[]> = {
  INFLUENCER: [
    { key: 'newBids', label: 'New bids', text: 'When a bid is placed on your slot.' },
    { key: 'approvals', label: 'Approvals', text: 'When a winning bid waits for your decision.' },
    { key: 'payouts', label: 'Payments & payouts', text: 'When a brand pays and when your payouts are sent.' },
    { key: 'marketing', label: 'Product news', text: 'Occasional tips and news about Pinbid.' },
  ],
  BUYER: [
    { key: 'newBids', label: 'Outbid alerts', text: 'When another brand outbids you.' },
    { key: 'approvals', label: 'Approvals', text: 'When a creator approves or rejects your winning bid.' },
    { key: 'payouts', label: 'Payments', text: 'Payment confirmations and refunds.' },
    { key: 'marketing', label: 'Product news', text: 'Occasional tips and news about Pinbid.' },
  ],
}

type SavedPreferences = NotificationPreferences & Partial<Pick<Schemas['PreferencesOut'], 'applies'>>

/** The four switches alone: the server refuses anything else in the body (`applies` is what it answers, not takes). */
export const switchesOf = ({ newBids, approvals, payouts, marketing }: NotificationPreferences): NotificationPreferences => ({ newBids, approvals, payouts, marketing })

/** The rows of the role, less those the server says do not apply to it (a brand gets no payout notices). */
export function preferenceRows(role: string | undefined, applies: readonly string[] | undefined): PreferenceRow[] {
  const rows = PREFERENCE_ROWS[role === 'INFLUENCER' ? 'INFLUENCER' : 'BUYER']
  return applies ? rows.filter((r) => applies.includes(r.key)) : rows
}

function NotificationCard({ initial }: { initial: SavedPreferences }) {
  const { user } = useAuth()
  const creator = user?.role === 'INFLUENCER'
  const rows = preferenceRows(user?.role, initial.applies)
  const queryClient = useQueryClient()
  const [prefs, setPrefs] = React.useState<NotificationPreferences>(() => switchesOf(initial))
  // auto-post and auto-pin default to on and are not saved (spec section 2)
  const [autoPost, setAutoPost] = React.useState(true)
  const [autoPin, setAutoPin] = React.useState(true)

  const save = useMutation({
    mutationFn: async (body: NotificationPreferences) => unwrap(await api().POST('/notifications/preferences', { body: switchesOf(body) })),
    onSuccess: (saved) => {
      queryClient.setQueryData(PREFERENCES_KEY, saved)
      setPrefs(switchesOf(saved))
      toast.success('Notification Preferences Updated')
    },
    onError: (err) => toast.error('Failed to update preferences', { description: serverMessage(err, 'Failed to update notification preferences. Please try again.') }),
  })

  const dirty = rows.some((r) => prefs[r.key] !== initial[r.key])

  return (
    <Card>
      <CardHeader>
        <SectionTitle icon={Bell}>Notification Preferences</SectionTitle>
        <CardDescription>Choose which emails and notices you receive.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-1">
        {rows.map((row) => (
          <SwitchRow
            key={row.key}
            id={`pref-${row.key}`}
            label={row.label}
            text={row.text}
            checked={prefs[row.key]}
            onChange={(v) => setPrefs((p) => ({ ...p, [row.key]: v }))}
          />
        ))}
        {creator && (
          <>
            <Separator className="my-3" />
            <SwitchRow id="pref-autopost" label="Auto-post approved comments" text="Post a brand’s new comment for you as soon as it is paid." checked={autoPost} onChange={setAutoPost} />
            <SwitchRow id="pref-autopin" label="Auto-pin paid comments" text="Pin the comment automatically once payment completes." checked={autoPin} onChange={setAutoPin} />
          </>
        )}
        <div className="flex justify-end pt-3">
          <Button onClick={() => save.mutate(prefs)} disabled={save.isPending || !dirty}>
            {save.isPending && <Spinner />}
            {save.isPending ? 'Saving...' : 'Save Preferences'}
          </Button>
        </div>
      </CardContent>
    </Card>
  )
}

function SwitchRow({ id, label, text, checked, onChange }: { id: string; label: string; text: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <div className="flex items-center justify-between gap-4 py-2">
      <div className="min-w-0">
        <label htmlFor={id} className="cursor-pointer text-sm font-medium">
          {label}
        </label>
        <p id={`${id}-text`} className="text-sm text-muted-foreground">
          {text}
        </p>
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onChange} aria-describedby={`${id}-text`} />
    </div>
  )
}

function SecurityCard() {
  const { replaceToken } = useAuth()
  const [current, setCurrent] = React.useState('')
  const [next, setNext] = React.useState('')
  const [confirm, setConfirm] = React.useState('')
  const [errors, setErrors] = React.useState<FieldErrors<'currentPassword' | 'newPassword' | 'confirmPassword'>>({})

  const change = useMutation({
    mutationFn: async (body: { currentPassword: string; newPassword: string }) => unwrap(await api().POST('/auth/change-password', { body })),
    onSuccess: ({ token }) => {
      // the server revoked every earlier token; keep the user signed in with the new one
      replaceToken(token)
      setCurrent('')
      setNext('')
      setConfirm('')
      toast.success('Password Changed', { description: 'Your password has been updated. Other devices have been signed out.' })
    },
    onError: (err) => toast.error('Failed to change password', { description: serverMessage(err, 'Failed to change password. Please try again.') }),
  })

  function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    const pw = newPasswordErrors(next, confirm)
    const all = { currentPassword: current ? undefined : MESSAGES.currentPasswordRequired, ...pw }
    setErrors(all)
    if (hasErrors(all)) {
      toastPasswordRule(pw)
      return
    }
    change.mutate({ currentPassword: current, newPassword: next })
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
        <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Change password">
          <h4 className="flex items-center gap-2 text-sm font-semibold">
            <KeyRound className="size-4 text-muted-foreground" aria-hidden="true" /> Change Password
          </h4>
          <FormField
            id="currentPassword"
            label="Current Password"
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
            error={errors.currentPassword}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              id="newPassword"
              label="New Password"
              type="password"
              autoComplete="new-password"
              value={next}
              onChange={(e) => setNext(e.target.value)}
              error={errors.newPassword}
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
          </div>
          <div className="flex justify-end">
            <Button type="submit" disabled={change.isPending}>
              {change.isPending && <Spinner />}
              {change.isPending ? 'Updating...' : 'Update Password'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  )
}
