import type * as React from 'react'
import type { FieldValues, UseFormReturn } from 'react-hook-form'
import { FormDialogFooter } from '@/components/form-dialog-footer'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form } from '@/components/ui/form'
import { useFocusReturn } from '@/hooks/use-focus-return'

interface FormDialogBodyProps<T extends FieldValues> {
  form: UseFormReturn<T>
  /** the form's submit handler (form.handleSubmit(...)) */
  onSubmit: React.FormEventHandler<HTMLFormElement>
  title: React.ReactNode
  description: React.ReactNode
  error?: string | null
  pending: boolean
  onCancel: () => void
  submitLabel: React.ReactNode
  /** the form's accessible name, where it should stand as a named form */
  formLabel?: string
  children: React.ReactNode
}

/** A dialog's form: its title and description, the fields, then the form's error, Cancel and the submit button. */
export function FormDialogBody<T extends FieldValues>({ form, onSubmit, title, description, error, pending, onCancel, submitLabel, formLabel, children }: FormDialogBodyProps<T>) {
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label={formLabel}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {children}
        <FormDialogFooter error={error} onCancel={onCancel} pending={pending}>
          {submitLabel}
        </FormDialogFooter>
      </form>
    </Form>
  )
}

/** A dialog that opens from state and holds one form; focus goes back to what opened it. */
export function FormDialogShell({ open, onClose, className, children }: { open: boolean; onClose: () => void; className?: string; children: React.ReactNode }) {
  const focusReturn = useFocusReturn()
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent className={className} {...focusReturn}>
        {children}
      </DialogContent>
    </Dialog>
  )
}

export function FormDialog<T extends FieldValues>({ open, className, ...body }: FormDialogBodyProps<T> & { open: boolean; className?: string }) {
  return (
    <FormDialogShell open={open} onClose={body.onCancel} className={className}>
      <FormDialogBody {...body} />
    </FormDialogShell>
  )
}
