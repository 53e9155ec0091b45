import type * as React from 'react'
import type { Control, ControllerRenderProps, FieldPath, FieldValues, UseFormReturn } from 'react-hook-form'
import { Search } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
import { cn } from '@/lib/utils'

interface FilterFormProps<T extends FieldValues> {
  form: UseFormReturn<T>
  onFilter: (values: T) => void
  /** a search box (a search landmark with a Search button) rather than a filter over a list */
  search?: boolean
  label?: string
  children: React.ReactNode
}

/** The desk's one-line search and filter forms: fields side by side, the button after them, and a field's
 *  message on a row of its own below, so the button stays beside the fields. */
export function FilterForm<T extends FieldValues>({ form, onFilter, search = false, label, children }: FilterFormProps<T>) {
  return (
    <Form {...form}>
      <form role={search ? 'search' : undefined} aria-label={label} noValidate className="flex flex-wrap items-end gap-2" onSubmit={form.handleSubmit(onFilter)}>
        {children}
        {search ? (
          <Button type="submit">
            <Search /> Search
          </Button>
        ) : (
          <Button type="submit" variant="outline">
            Filter
          </Button>
        )}
      </form>
    </Form>
  )
}

interface FilterFieldProps<T extends FieldValues> extends Omit<React.ComponentProps<typeof Input>, 'name' | 'id' | 'value' | 'defaultValue' | 'children'> {
  control: Control<T>
  name: FieldPath<T>
  id: string
  label: string
  hideLabel?: boolean
  /** another control than a text input (a select), given the field's props */
  children?: (field: ControllerRenderProps<T, FieldPath<T>>) => React.ReactElement
}

export function FilterField<T extends FieldValues>({ control, name, id, label, hideLabel = false, className, children, ...inputProps }: FilterFieldProps<T>) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        // the item lays out nothing itself: its message joins the form's last row
        <FormItem controlId={id} className="contents">
          <div className={cn('grid gap-1', className)}>
            <FormLabel className={cn(hideLabel && 'sr-only')}>{label}</FormLabel>
            <FormControl>{children ? children(field) : <Input {...inputProps} {...field} />}</FormControl>
          </div>
          <FormMessage className="order-last basis-full" />
        </FormItem>
      )}
    />
  )
}
