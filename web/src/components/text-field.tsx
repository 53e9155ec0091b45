import * as React from 'react'
import type { Control, FieldPath, FieldValues } from 'react-hook-form'
import { Input } from '@/components/ui/input'
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { cn } from '@/lib/utils'

interface TextFieldProps<T extends FieldValues> extends Omit<React.ComponentProps<typeof Input>, 'name' | 'id' | 'prefix' | 'value' | 'defaultValue'> {
  control: Control<T>
  name: FieldPath<T>
  /** the input's id (labels and links refer to it); the field's name when not given */
  id?: string
  label: string
  hint?: React.ReactNode
  /** a fixed sign before the value, such as "@" */
  prefix?: string
  labelAside?: React.ReactNode
}

/** One labelled input of a react-hook-form form: its schema's or the server's message shows under it. */
export function TextField<T extends FieldValues>({ control, name, id, label, hint, prefix, labelAside, className, ...inputProps }: TextFieldProps<T>) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem controlId={id ?? name} className={className}>
          <div className="flex items-center justify-between gap-2">
            <FormLabel>{label}</FormLabel>
            {labelAside}
          </div>
          <div className="relative">
            {prefix && (
              <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-muted-foreground">
                {prefix}
              </span>
            )}
            <FormControl>
              <Input className={cn(prefix && 'pl-7')} {...inputProps} {...field} value={field.value ?? ''} />
            </FormControl>
          </div>
          {hint && <FormDescription>{hint}</FormDescription>}
          <FormMessage />
        </FormItem>
      )}
    />
  )
}
