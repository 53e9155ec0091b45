import * as React from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { toast } from 'sonner'
import { Bell } from 'lucide-react'
import { useQuery } from '@tanstack/react-query'
import { instagramConnectionQuery } from '@/api/queries'
import { z } from '@/lib/zod'
import type { NotificationPreferences } from '@/api/client'
import { useAuth } from '@/auth/session'
import { Button } from '@/components/ui/button'
import { Form, FormField } from '@/components/ui/form'
import { Separator } from '@/components/ui/separator'
import { Spinner } from '@/components/ui/spinner'
import { Switch } from '@/components/ui/switch'
import { failedSave } from '@/lib/server-errors'
import { useSavePreferences } from '../api/settings'
import { preferenceRows, switchesOf, type SavedPreferences } from '../preferences'
import { SettingsCard } from './SectionTitle'

const preferencesSchema = z.object({ newBids: z.boolean(), approvals: z.boolean(), payouts: z.boolean(), marketing: z.boolean() })

export function NotificationCard({ initial }: { initial: SavedPreferences }) {
  const { user } = useAuth()
  const creator = user?.role === 'INFLUENCER'
  const rows = preferenceRows(user?.role, initial.applies)
  const form = useForm<NotificationPreferences>({ resolver: zodResolver(preferencesSchema), defaultValues: switchesOf(initial) })
  const prefs = useWatch({ control: form.control })
  // auto-post and auto-pin default to on and are not saved (spec section 2)
  const [autoPost, setAutoPost] = React.useState(true)
  const [autoPin, setAutoPin] = React.useState(true)
  // "I pin in the app": Pinbid cannot pin, so auto-pin is off and cannot be turned on
  const connection = useQuery({ ...instagramConnectionQuery(), enabled: creator })
  const pinsInApp = connection.data?.pinMethod === 'MANUAL'
  const save = useSavePreferences()
  const dirty = rows.some((r) => prefs[r.key] !== initial[r.key])

  function onSubmit(values: NotificationPreferences) {
    save.mutate(values, {
      onSuccess: (saved) => {
        form.reset(switchesOf(saved))
        toast.success('Notification Preferences Updated')
      },
      onError: failedSave(form, 'Failed to update preferences', 'Failed to update notification preferences. Please try again.'),
    })
  }

  return (
    <SettingsCard icon={Bell} title="Notification Preferences" description="Choose which emails and notices you receive." contentClassName="space-y-1">
        <Form {...form}>
          {rows.map((row) => (
            <FormField
              key={row.key}
              control={form.control}
              name={row.key}
              render={({ field }) => <SwitchRow id={`pref-${row.key}`} label={row.label} text={row.text} checked={field.value} onChange={field.onChange} />}
            />
          ))}
        </Form>
        {creator && (
          <>
            <Separator className="my-3" />
            <SwitchRow id="pref-autopost" label="Auto-post approved comments" text="Post a brand’s new comment for you as soon as it is paid." checked={autoPost} onChange={setAutoPost} />
            <SwitchRow
              id="pref-autopin"
              label="Auto-pin paid comments"
              text={pinsInApp ? 'Off while you pin in the Instagram app (your pin method above): Pinbid posts the comment and you pin it.' : 'Pin the comment automatically once payment completes.'}
              checked={autoPin && !pinsInApp}
              onChange={setAutoPin}
              disabled={pinsInApp}
            />
          </>
        )}
        <div className="flex justify-end pt-3">
          <Button onClick={form.handleSubmit(onSubmit)} disabled={save.isPending || !dirty}>
            {save.isPending && <Spinner />}
            {save.isPending ? 'Saving...' : 'Save Preferences'}
          </Button>
        </div>
    </SettingsCard>
  )
}

function SwitchRow({ id, label, text, checked, onChange, disabled = false }: { id: string; label: string; text: string; checked: boolean; onChange: (v: boolean) => void; disabled?: boolean }) {
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
      <Switch id={id} checked={checked} onCheckedChange={onChange} disabled={disabled} aria-describedby={`${id}-text`} />
    </div>
  )
}
