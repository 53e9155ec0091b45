import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { browserSupportsWebAuthn } from '@simplewebauthn/browser'
import { toast } from 'sonner'
import { Fingerprint, Plus } from 'lucide-react'
import { z } from '@/lib/zod'
import { isStepUpRequired } from '@/auth/second-factor'
import { passkeyDismissed, passkeyProblem } from '@/auth/passkey'
import { ConfirmButton } from '@/components/confirm-button'
import { TextField } from '@/components/text-field'
import { Button } from '@/components/ui/button'
import { Form } from '@/components/ui/form'
import { Spinner } from '@/components/ui/spinner'
import { useHydrated } from '@/hooks/use-hydrated'
import { showServerErrors } from '@/lib/server-errors'
import { formatDate } from '@/lib/utils'
import { useRegisterPasskey, useRemovePasskey } from '../api/second-factor'

export interface Passkey {
  id: string
  name: string
  createdAt: string
  lastUsedAt: string | null
}

export const PASSKEY_NAME_MAX = 60
const nameSchema = z.object({
  name: z.string().trim().min(1, 'Give the passkey a name, such as the device it is on.').max(PASSKEY_NAME_MAX, `At most ${PASSKEY_NAME_MAX} characters.`),
})
type NameValues = z.infer<typeof nameSchema>

/** Passkeys: sign in with the device's screen lock, no password. Add (named), list, remove. */
export function PasskeysSection({ passkeys, totpEnabled }: { passkeys: Passkey[]; totpEnabled: boolean }) {
  const hydrated = useHydrated()
  const supported = hydrated && browserSupportsWebAuthn()
  return (
    <section aria-labelledby="passkeys-title" className="grid gap-3 rounded-xl border p-4">
      <div>
        <h3 id="passkeys-title" className="flex items-center gap-2 text-sm font-semibold">
          <Fingerprint className="size-4 text-muted-foreground" aria-hidden="true" /> Passkeys
        </h3>
        <p className="text-sm text-muted-foreground">Sign in with your fingerprint, face or screen lock instead of a password.</p>
        {/* the server asks a password sign-in for a second factor only when the authenticator app is on */}
        {passkeys.length > 0 && !totpEnabled && (
          <p className="mt-1 text-sm text-muted-foreground">Your password alone still signs you in too: turn on the authenticator app above to ask for a second factor.</p>
        )}
      </div>
      {passkeys.length > 0 ? (
        <ul aria-label="Your passkeys" className="divide-y rounded-lg border">
          {passkeys.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">No passkeys yet.</p>
      )}
      {supported ? <AddPasskeyForm /> : hydrated && <p className="text-sm text-muted-foreground">This browser cannot make passkeys.</p>}
    </section>
  )
}

function PasskeyRow({ passkey }: { passkey: Passkey }) {
  const remove = useRemovePasskey()
  function onRemove() {
    remove.mutate(passkey.id, {
      onSuccess: () => toast.success('Passkey removed', { description: `"${passkey.name}" can no longer sign you in.` }),
      onError: (err) => {
        if (!isStepUpRequired(err)) toast.error('Could not remove the passkey', { description: passkeyProblem(err) })
      },
    })
  }
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 p-3">
      <div className="min-w-0">
        <p className="truncate text-sm font-medium">{passkey.name}</p>
        <p className="text-xs text-muted-foreground">
          Added {formatDate(passkey.createdAt, 'short')} · {passkey.lastUsedAt ? `Last used ${formatDate(passkey.lastUsedAt, 'short')}` : 'Never used'}
        </p>
      </div>
      <ConfirmButton
        variant="outline"
        size="sm"
        disabled={remove.isPending}
        aria-label={`Remove passkey ${passkey.name}`}
        title="Remove this passkey?"
        description={`"${passkey.name}" will no longer sign you in.`}
        confirmLabel="Remove"
        destructive
        onConfirm={onRemove}
      >
        {remove.isPending && <Spinner />} Remove
      </ConfirmButton>
    </li>
  )
}

function AddPasskeyForm() {
  const register = useRegisterPasskey()
  const form = useForm<NameValues>({ resolver: zodResolver(nameSchema), defaultValues: { name: '' } })

  function onSubmit({ name }: NameValues) {
    register.mutate(name, {
      onSuccess: (added) => {
        form.reset()
        toast.success('Passkey added', { description: `"${added.name}" can now sign you in.` })
      },
      onError: (err) => {
        // the person closed the browser's prompt, or cancelled the confirmation: nothing went wrong
        if (passkeyDismissed(err) || isStepUpRequired(err)) return
        if (!showServerErrors(form, err)) toast.error('Could not add the passkey', { description: passkeyProblem(err) })
      },
    })
  }

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start" aria-label="Add a passkey">
        <TextField control={form.control} name="name" id="passkey-name" label="Passkey name" placeholder="e.g. MacBook Touch ID" maxLength={PASSKEY_NAME_MAX} className="flex-1" />
        <Button type="submit" disabled={register.isPending} className="sm:mt-[1.375rem]">
          {register.isPending ? <Spinner /> : <Plus aria-hidden="true" />} {register.isPending ? 'Waiting for your device...' : 'Add a passkey'}
        </Button>
      </form>
    </Form>
  )
}
