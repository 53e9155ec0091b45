import * as React from 'react'
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog'
import { Button, type ButtonProps } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'

/** What a confirmation asks: its question, what it does, then the two answers; `details` stand under the description.
 *  The AlertDialog around it says when it shows (from a trigger, or while something waits to be confirmed). */
export function ConfirmDialogContent({
  title,
  description,
  details,
  cancelLabel = 'Cancel',
  confirmLabel,
  destructive = false,
  pending = false,
  onConfirm,
}: {
  title: React.ReactNode
  description: React.ReactNode
  details?: React.ReactNode
  cancelLabel?: string
  confirmLabel: React.ReactNode
  destructive?: boolean
  pending?: boolean
  onConfirm: (event: React.MouseEvent<HTMLButtonElement>) => void
}) {
  return (
    <AlertDialogContent>
      <AlertDialogHeader>
        <AlertDialogTitle>{title}</AlertDialogTitle>
        <AlertDialogDescription>{description}</AlertDialogDescription>
        {details}
      </AlertDialogHeader>
      <AlertDialogFooter>
        <AlertDialogCancel disabled={pending}>{cancelLabel}</AlertDialogCancel>
        <AlertDialogAction variant={destructive ? 'destructive' : 'default'} onClick={onConfirm} disabled={pending}>
          {pending && <Spinner />} {confirmLabel}
        </AlertDialogAction>
      </AlertDialogFooter>
    </AlertDialogContent>
  )
}

/** A button that asks first: the dialog says what will happen and that it cannot be undone. */
export function ConfirmButton({
  title,
  description,
  confirmLabel,
  destructive = false,
  onConfirm,
  children,
  ...button
}: Omit<ButtonProps, 'onClick'> & { title: string; description: React.ReactNode; confirmLabel: string; destructive?: boolean; onConfirm: () => void }) {
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button {...button}>{children}</Button>
      </AlertDialogTrigger>
      <ConfirmDialogContent title={title} description={<>{description} This cannot be undone.</>} confirmLabel={confirmLabel} destructive={destructive} onConfirm={onConfirm} />
    </AlertDialog>
  )
}
