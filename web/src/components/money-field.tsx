import type { Control, FieldPath, FieldValues } from 'react-hook-form'
import { MoneyInput } from '@/components/money-input'
import { FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'

interface MoneyFieldProps<T extends FieldValues> {
  control: Control<T>
  name: FieldPath<T>
  id: string
  label: string
  /** the field's bound in cents (the server's) */
  maxCents?: number
}

/** A money field of a react-hook-form form: typed as people type it (MoneyInput), with its schema's or the
 *  server's message under it. */
export function MoneyField<T extends FieldValues>({ control, name, id, label, maxCents }: MoneyFieldProps<T>) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel htmlFor={id}>{label}</FormLabel>
          <MoneyInput id={id} value={field.value} onValueChange={field.onChange} onBlur={field.onBlur} ref={field.ref} maxCents={maxCents} />
          <FormMessage />
        </FormItem>
      )}
    />
  )
}
