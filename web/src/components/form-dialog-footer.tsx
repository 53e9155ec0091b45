import * as React from 'react'
import { Button } from '@/components/ui/button'
import { DialogFooter } from '@/components/ui/dialog'
import { Spinner } from '@/components/ui/spinner'

/** A form dialog's end: the form's own error, Cancel, and the submit button that shows it is working. */
export function FormDialogFooter({ error, onCancel, pending, children }: { error?: string | null; onCancel: () => void; pending: boolean; children: React.ReactNode }) {
  return (
    <>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending && <Spinner />} {children}
        </Button>
      </DialogFooter>
    </>
  )
}
