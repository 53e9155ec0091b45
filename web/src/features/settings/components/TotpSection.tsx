import * as React from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { QRCodeSVG } from 'qrcode.react'
import { toast } from 'sonner'
import { Copy, Smartphone } from 'lucide-react'
import { z } from '@/lib/zod'
import { ApiError, serverMessage } from '@/api/errors'
import { useAuth } from '@/auth/session'
import { CODE_FORMAT, CODE_HINT, isWrongSecondFactor, readSecondFactor } from '@/auth/second-factor'
import { FormAlert } from '@/components/form-alert'
import { FormDialogBody } from '@/components/form-dialog'
import { SubmitButton } from '@/components/submit-button'
import { TextField } from '@/components/text-field'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogTrigger } from '@/components/ui/dialog'
import { Form } from '@/components/ui/form'
import { Spinner } from '@/components/ui/spinner'
import { showServerErrors } from '@/lib/server-errors'
import { MESSAGES } from '@/lib/validation'
import { useConfirmTotp, useDisableTotp, useStartTotp } from '../api/second-factor'
import { RecoveryCodes } from './RecoveryCodes'

export const SIX_DIGITS = 'Enter the 6 digits your authenticator app shows.'

interface Enrolment {
  secret: string
  otpauthUri: string
}

/** "JBSW Y3DP EHPK 3PXP": the secret in groups of four, easier to type by hand. */
export const groupedSecret = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ')

/** Two-step sign-in with an authenticator app: set up (QR code, typed code, recovery codes) and turn off. */
export function TotpSection({ enabled, recoveryCodesLeft }: { enabled: boolean; recoveryCodesLeft: number }) {
  const { user } = useAuth()
  const start = useStartTotp()
  const [enrolment, setEnrolment] = React.useState<Enrolment | null>(null)
  const [recoveryCodes, setRecoveryCodes] = React.useState<string[] | null>(null)
  const setUpButton = React.useRef<HTMLButtonElement>(null)

  function begin() {
    start.mutate(undefined, {
      onSuccess: (answer) => setEnrolment(answer),
      onError: (err) => toast.error('Could not start the set-up', { description: serverMessage(err, 'Please try again.') }),
    })
  }

  return (
    <section aria-labelledby="totp-title" className="grid gap-3 rounded-xl border p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <h3 id="totp-title" className="flex items-center gap-2 text-sm font-semibold">
            <Smartphone className="size-4 text-muted-foreground" aria-hidden="true" /> Two-Factor Authentication
          </h3>
          <p className="text-sm text-muted-foreground">A code from an authenticator app at sign-in and before changes to where your money goes.</p>
        </div>
        <Badge variant={enabled ? 'success' : 'secondary'}>{enabled ? 'On' : 'Off'}</Badge>
      </div>
      {recoveryCodes ? (
        <RecoveryCodes codes={recoveryCodes} account={user?.email ?? ''} onDone={() => setRecoveryCodes(null)} />
      ) : enrolment ? (
        <TotpEnrolment
          enrolment={enrolment}
          onCancel={() => {
            setEnrolment(null)
            requestAnimationFrame(() => setUpButton.current?.focus())
          }}
          onRestart={begin}
          onConfirmed={(codes) => {
            setEnrolment(null)
            setRecoveryCodes(codes)
          }}
        />
      ) : enabled ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm">
            {recoveryCodesLeft} recovery code{recoveryCodesLeft === 1 ? '' : 's'} left.
          </p>
          <DisableTotpDialog />
        </div>
      ) : (
        <div>
          <Button ref={setUpButton} type="button" onClick={begin} disabled={start.isPending}>
            {start.isPending && <Spinner />} {start.isPending ? 'Starting...' : 'Set up authenticator app'}
          </Button>
        </div>
      )}
    </section>
  )
}

const confirmSchema = z.object({ code: z.string().refine((v) => /^\d{6}$/.test(v.replace(/\s/g, '')), SIX_DIGITS) })
type ConfirmValues = z.infer<typeof confirmSchema>

function TotpEnrolment({ enrolment, onCancel, onRestart, onConfirmed }: { enrolment: Enrolment; onCancel: () => void; onRestart: () => void; onConfirmed: (codes: string[]) => void }) {
  const confirm = useConfirmTotp()
  const form = useForm<ConfirmValues>({ resolver: zodResolver(confirmSchema), defaultValues: { code: '' } })
  const [problem, setProblem] = React.useState<string | null>(null)

  async function copySecret() {
    try {
      await navigator.clipboard.writeText(enrolment.secret)
      toast.success('Key copied')
    } catch {
      toast.error('Could not copy', { description: 'Select the key and copy it.' })
    }
  }

  function onSubmit({ code }: ConfirmValues) {
    setProblem(null)
    confirm.mutate(code.replace(/\s/g, ''), {
      onSuccess: (answer) => {
        toast.success('Two-factor authentication is on', { description: 'Other devices have been signed out.' })
        onConfirmed(answer.recoveryCodes)
      },
      onError: (err) => {
        if (isWrongSecondFactor(err)) {
          form.setValue('code', '')
          form.setError('code', { type: 'server', message: err.detail ?? SIX_DIGITS }, { shouldFocus: true })
        } else if (showServerErrors(form, err)) {
          return
        } else if (err instanceof ApiError && err.code === 'no_pending_enrolment') {
          toast.error('The set-up expired', { description: 'Scan the new QR code.' })
          onRestart()
        } else setProblem(serverMessage(err, 'Could not turn on two-factor authentication. Please try again.'))
      },
    })
  }

  return (
    <div className="grid gap-4">
      <ol className="grid list-decimal gap-4 pl-5 text-sm marker:font-semibold">
        <li>
          <div className="grid gap-3">
            <span>Scan this QR code with your authenticator app (Google Authenticator, 1Password, Authy…).</span>
            {/* the code's own quiet zone (4 modules, white in both themes) */}
            <div className="w-fit overflow-hidden rounded-lg border">
              <QRCodeSVG value={enrolment.otpauthUri} size={184} marginSize={4} bgColor="#ffffff" fgColor="#000000" title="QR code for your authenticator app" role="img" />
            </div>
            <div className="grid gap-1">
              <span className="text-muted-foreground">Can't scan it? Enter this key instead:</span>
              <div className="flex flex-wrap items-center gap-2">
                <code data-testid="totp-secret" className="rounded-md bg-muted px-2 py-1 font-mono text-sm break-words">
                  {groupedSecret(enrolment.secret)}
                </code>
                <Button type="button" variant="ghost" size="sm" onClick={copySecret}>
                  <Copy aria-hidden="true" /> Copy key
                </Button>
              </div>
            </div>
          </div>
        </li>
        <li>
          <Form {...form}>
            <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-3" aria-label="Confirm authenticator app">
              <TextField
                control={form.control}
                name="code"
                id="totp-confirm-code"
                label="Enter the 6-digit code the app shows"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={7}
                className="max-w-xs"
              />
              {problem && <FormAlert>{problem}</FormAlert>}
              <div className="flex flex-wrap gap-2">
                <SubmitButton pending={confirm.isPending} pendingLabel="Turning on...">
                  Turn on
                </SubmitButton>
                <Button type="button" variant="outline" onClick={onCancel}>
                  Cancel
                </Button>
              </div>
            </form>
          </Form>
        </li>
      </ol>
    </div>
  )
}

const disableSchema = z.object({
  password: z.string().min(1, MESSAGES.currentPasswordRequired),
  code: z.string().refine((v) => readSecondFactor(v) !== null, CODE_FORMAT),
})
type DisableValues = z.infer<typeof disableSchema>

function DisableTotpDialog() {
  const [open, setOpen] = React.useState(false)
  const disable = useDisableTotp()
  const form = useForm<DisableValues>({ resolver: zodResolver(disableSchema), defaultValues: { password: '', code: '' } })
  const [problem, setProblem] = React.useState<string | null>(null)

  function onOpenChange(next: boolean) {
    setOpen(next)
    if (!next) {
      form.reset()
      setProblem(null)
    }
  }

  function onSubmit({ password, code }: DisableValues) {
    setProblem(null)
    disable.mutate(
      { password, ...readSecondFactor(code)! },
      {
        onSuccess: () => {
          onOpenChange(false)
          toast.success('Two-factor authentication is off', { description: 'Your recovery codes no longer work. Other devices have been signed out.' })
        },
        onError: (err) => {
          if (isWrongSecondFactor(err)) {
            form.setValue('code', '')
            form.setError('code', { type: 'server', message: err.detail ?? CODE_FORMAT }, { shouldFocus: true })
          } else if (!showServerErrors(form, err)) setProblem(serverMessage(err, 'Could not turn off two-factor authentication. Please try again.'))
        },
      },
    )
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button type="button" variant="outline">
          Turn off
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-md">
        <FormDialogBody
          form={form}
          onSubmit={form.handleSubmit(onSubmit)}
          title="Turn off two-factor authentication"
          description="Your password alone will then sign you in. Confirm with your password and a code."
          formLabel="Turn off two-factor authentication"
          error={problem}
          pending={disable.isPending}
          onCancel={() => onOpenChange(false)}
          submitLabel={disable.isPending ? 'Turning off...' : 'Turn off'}
        >
          <TextField control={form.control} name="password" id="totp-off-password" label="Current Password" type="password" autoComplete="current-password" autoFocus />
          <TextField control={form.control} name="code" id="totp-off-code" label="Authentication code" hint={CODE_HINT} autoComplete="one-time-code" autoCapitalize="none" spellCheck={false} />
        </FormDialogBody>
      </DialogContent>
    </Dialog>
  )
}
