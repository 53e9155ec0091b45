import * as React from 'react'
import { useQuery } from '@tanstack/react-query'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { TitledCard } from '@/components/titled-card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { Spinner } from '@/components/ui/spinner'
import { Switch } from '@/components/ui/switch'
import { DEFAULT_PAYOUT_FORM, formFromSettings, MINIMUM_PAYOUT_CEILING_CENTS, payoutBody, validatePayout, type PayoutErrors, type PayoutField, type PayoutForm } from '@/lib/payout'
import { MoneyInput } from '@/components/money-input'
import { isStepUpRequired } from '@/auth/second-factor'
import { payoutSettingsQuery } from '../api/queries'
import { useSavePayoutSettings } from '../api/mutations'

import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { payoutSchema } from '@/lib/payout'
import { failedSave } from '@/lib/server-errors'

export function PayoutSettingsCard() {
  const settings = useQuery({ ...payoutSettingsQuery(), retry: false })
  if (settings.isPending) return <Spinner />
  // a failure is tolerated (spec section 7): start from the defaults
  const initial = settings.data ? formFromSettings(settings.data) : DEFAULT_PAYOUT_FORM
  return <PayoutSettingsForm key={settings.dataUpdatedAt} initial={initial} />
}

export function PayoutSettingsForm({ initial }: { initial: PayoutForm }) {
  const form = useForm<PayoutForm>({ resolver: zodResolver(payoutSchema), defaultValues: initial })
  const values = useWatch({ control: form.control }) as PayoutForm
  // the rules speak once the person has changed something or tried to save (spec section 5)
  const [touched, setTouched] = React.useState(false)
  React.useEffect(() => {
    const subscription = form.watch(() => setTouched(true))
    return () => subscription.unsubscribe()
  }, [form])
  const errors: PayoutErrors = validatePayout(values)
  const messages = Object.values(errors)
  const set = <K extends PayoutField>(key: K, value: PayoutForm[K]) => form.setValue(key, value as never, { shouldDirty: true })
  const save = useSavePayoutSettings({
    onSuccess: () => toast.success('Payout Settings Saved'),
    onError: (err) => {
      if (isStepUpRequired(err)) return // the confirmation was cancelled: nothing changed
      failedSave(form, 'Failed to save payout settings', 'There was an error saving your payout settings. Please try again.')(err)
    },
  })
  const lastToast = React.useRef('')
  React.useEffect(() => {
    const key = messages.join('\n')
    if (!touched || !key || key === lastToast.current) {
      if (!key) lastToast.current = ''
      return
    }
    const t = setTimeout(() => {
      lastToast.current = key
      toast.error('Please fix your payout settings', { id: 'payout-errors', description: <ul className="list-disc pl-4">{messages.map((m) => <li key={m}>{m}</li>)}</ul> })
    }, 700)
    return () => clearTimeout(t)
  })

  // the rule's message once touched, else what the server said of the field (its 422 errors[])
  const err = (f: PayoutField) => (touched ? errors[f] : undefined) ?? form.formState.errors[f]?.message
  const field = (id: PayoutField, label: string, props: React.ComponentProps<typeof Input> = {}) => (
    <div className="grid gap-2">
      <Label htmlFor={`payout-${id}`}>{label}</Label>
      <Input
        id={`payout-${id}`}
        value={values[id] as string}
        onChange={(e) => set(id, e.target.value as never)}
        aria-invalid={err(id) ? true : undefined}
        aria-describedby={err(id) ? `payout-${id}-error` : undefined}
        {...props}
      />
      {err(id) && (
        <p id={`payout-${id}-error`} className="text-sm text-destructive">
          {err(id)}
        </p>
      )}
    </div>
  )
  const choice = <K extends 'payoutMethod' | 'schedule' | 'currency'>(key: K, id: string, label: string, options: [PayoutForm[K], string][]) => (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect id={id} value={values[key]} onChange={(e) => set(key, e.target.value as PayoutForm[K])}>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </NativeSelect>
      {err(key) && <p className="text-sm text-destructive">{err(key)}</p>}
    </div>
  )

  return (
    <TitledCard title="Payout Settings" description="Payouts are sent on your schedule once your available balance reaches your minimum. Bank and PayPal details are stored encrypted.">
      <form
        noValidate
        aria-label="Payout settings"
        className="grid gap-4"
        onSubmit={form.handleSubmit(
          (body) => save.mutate(payoutBody(body)),
          () => setTouched(true),
        )}
      >
        <div className="grid gap-4 sm:grid-cols-3">
          {choice('payoutMethod', 'payout-method', 'Payout method', [
            ['', 'Choose a method'],
            ['BANK_TRANSFER', 'Bank transfer'],
            ['PAYPAL', 'PayPal'],
          ])}
          <div className="grid gap-2">
            <Label htmlFor="payout-minimumPayout">Minimum payout (USD)</Label>
            <MoneyInput id="payout-minimumPayout" value={values.minimumPayout} onValueChange={(v) => set('minimumPayout', v)} maxCents={MINIMUM_PAYOUT_CEILING_CENTS} problem={err('minimumPayout')} />
          </div>
          {choice('schedule', 'payout-schedule', 'Schedule', [
            ['', 'Choose a schedule'],
            ['WEEKLY', 'Weekly'],
            ['MONTHLY', 'Monthly'],
            ['QUARTERLY', 'Quarterly'],
          ])}
        </div>
        {values.payoutMethod === 'PAYPAL' && field('paypalEmail', 'PayPal email', { type: 'email', autoComplete: 'email' })}
        {values.payoutMethod === 'BANK_TRANSFER' && (
          <div className="grid gap-4 sm:grid-cols-2">
            {field('accountName', 'Account holder name', { autoComplete: 'name' })}
            {choice('currency', 'payout-currency', 'Currency', [
              ['', 'Choose a currency'],
              ['USD', 'USD'],
              ['GBP', 'GBP'],
            ])}
            {field('bankAccount', 'Bank account number', { inputMode: 'numeric', autoComplete: 'off' })}
            {values.currency === 'USD' && field('routingNumber', 'Routing number', { inputMode: 'numeric', autoComplete: 'off' })}
            {values.currency === 'GBP' && field('sortCode', 'Sort code', { placeholder: 'XX-XX-XX', autoComplete: 'off' })}
          </div>
        )}
        <div className="flex items-center gap-3">
          <Switch id="payout-tax" checked={values.taxFormSubmitted} onCheckedChange={(v) => set('taxFormSubmitted', v)} />
          <Label htmlFor="payout-tax">I have submitted my tax form</Label>
        </div>
        <div className="flex flex-col items-end gap-2">
          {!touched && messages.length > 0 && <p className="text-sm text-muted-foreground">Fill in your payout details to save them.</p>}
          <Button type="submit" disabled={messages.length > 0 || save.isPending}>
            {save.isPending && <Spinner />} Save Payout Settings
          </Button>
        </div>
      </form>
    </TitledCard>
  )
}
