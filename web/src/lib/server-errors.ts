import type { FieldValues, Path, UseFormReturn } from 'react-hook-form'
import { toast } from 'sonner'
import { ApiError, serverMessage } from '@/api/errors'

function hasField(values: unknown, name: string): boolean {
  let node = values
  for (const part of name.split('.')) {
    if (!node || typeof node !== 'object' || !(part in node)) return false
    node = (node as Record<string, unknown>)[part]
  }
  return true
}

/**
 * Show the server's 422 `errors[]` on the fields they name (ARCHITECTURE §4), focusing the first one.
 * `rename` maps a server field to the form's when they differ. Answers whether any field took a message, so
 * a form can keep its general message for the rest.
 */
export function showServerErrors<T extends FieldValues>(form: UseFormReturn<T>, error: unknown, rename: Partial<Record<string, Path<T>>> = {}): boolean {
  if (!(error instanceof ApiError)) return false
  const values = form.getValues()
  let shown = false
  for (const { field, message } of error.fieldErrors) {
    const name = rename[field] ?? field
    if (!name || !hasField(values, name)) continue
    form.setError(name as Path<T>, { type: 'server', message }, { shouldFocus: !shown })
    shown = true
  }
  return shown
}

/** A form's failed save: the server's field messages on their fields, and a toast with `title` and what the
 *  server said (`fallback` when it said nothing readable). */
export function failedSave<T extends FieldValues>(form: UseFormReturn<T>, title: string, fallback: string) {
  return (error: unknown) => {
    showServerErrors(form, error)
    toast.error(title, { description: serverMessage(error, fallback) })
  }
}
