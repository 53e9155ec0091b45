import * as React from 'react'
import type { Control, ControllerRenderProps, FieldPath, FieldValues } from 'react-hook-form'
import { Input } from '@/components/ui/input'
import { NativeSelect } from '@/components/ui/native-select'
import { Textarea } from '@/components/ui/textarea'
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { cn } from '@/lib/utils'

interface FieldFrameProps<T extends FieldValues> {
  control: Control<T>
  name: FieldPath<T>
  /** the control's id (labels and links refer to it); the field's name when not given */
  id?: string
  label: string
  /** a description that gives way to the field's message */
  hint?: React.ReactNode
  /** a line under the control that stays when there is a message (a count of characters left) */
  note?: React.ReactNode
  labelAside?: React.ReactNode
  className?: string
}

/** One labelled control of a react-hook-form form: its schema's or the server's message shows under it. */
export function LabelledField<T extends FieldValues>({
  control,
  name,
  id,
  label,
  hint,
  note,
  labelAside,
  className,
  children,
}: FieldFrameProps<T> & { children: (field: ControllerRenderProps<T, FieldPath<T>>) => React.ReactElement }) {
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
          {children(field)}
          {hint && <FormDescription>{hint}</FormDescription>}
          {note}
          <FormMessage />
        </FormItem>
      )}
    />
  )
}

type InputProps = Omit<React.ComponentProps<typeof Input>, 'name' | 'id' | 'prefix' | 'value' | 'defaultValue'>

/** A labelled text input; `prefix` is a fixed sign before the value, such as "@". */
export function TextField<T extends FieldValues>({ prefix, control, name, id, label, hint, note, labelAside, className, ...inputProps }: FieldFrameProps<T> & InputProps & { prefix?: string }) {
  return (
    <LabelledField control={control} name={name} id={id} label={label} hint={hint} note={note} labelAside={labelAside} className={className}>
      {(field) => (
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
      )}
    </LabelledField>
  )
}

type TextareaProps = Omit<React.ComponentProps<typeof Textarea>, 'name' | 'id' | 'value' | 'defaultValue'>

export function TextareaField<T extends FieldValues>({ control, name, id, label, hint, note, labelAside, className, ...textareaProps }: FieldFrameProps<T> & TextareaProps) {
  return (
    <LabelledField control={control} name={name} id={id} label={label} hint={hint} note={note} labelAside={labelAside} className={className}>
      {(field) => (
        <FormControl>
          <Textarea {...textareaProps} {...field} />
        </FormControl>
      )}
    </LabelledField>
  )
}

/** A labelled native select; its options are the children. */
export function SelectField<T extends FieldValues>({ control, name, id, label, hint, note, labelAside, className, children }: FieldFrameProps<T> & { children: React.ReactNode }) {
  return (
    <LabelledField control={control} name={name} id={id} label={label} hint={hint} note={note} labelAside={labelAside} className={className}>
      {(field) => (
        <FormControl>
          <NativeSelect {...field}>{children}</NativeSelect>
        </FormControl>
      )}
    </LabelledField>
  )
}
