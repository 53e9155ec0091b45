import { Button, type ButtonProps } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'

/** A form's submit button: off and spinning while the form is sent, with `pendingLabel` (when given) in its place. */
export function SubmitButton({ pending, pendingLabel, disabled, children, ...button }: Omit<ButtonProps, 'type'> & { pending: boolean; pendingLabel?: string }) {
  return (
    <Button type="submit" disabled={pending || disabled} {...button}>
      {pending && <Spinner />}
      {pending && pendingLabel ? pendingLabel : children}
    </Button>
  )
}
