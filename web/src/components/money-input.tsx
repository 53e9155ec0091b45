import * as React from 'react'
import { Input } from '@/components/ui/input'
import { formatCents, readMoney } from '@/lib/money'
import { cn } from '@/lib/utils'

interface MoneyInputProps extends Omit<React.ComponentProps<typeof Input>, 'type' | 'value' | 'onChange'> {
  id: string
  value: string
  onValueChange: (text: string) => void
  /** The field's own bound, in cents (the server's). */
  maxCents?: number
  /** A rule of the form that the reading alone cannot know (too low, under a floor); shown instead of the reading. */
  problem?: string | null
}

/**
 * A money field as people type it: a text field (a number field reads `12,50` as 1250 in some browsers and
 * drops it in others) that says under itself what it understood, or why it cannot read it, before anything is sent.
 */
export function MoneyInput({ id, value, onValueChange, maxCents, problem, className, 'aria-describedby': describedBy, ...props }: MoneyInputProps) {
  const reading = value.trim() ? readMoney(value, maxCents) : null
  const refusal = reading && !reading.ok ? reading.message : null
  const shown = refusal ?? problem ?? null
  const noteId = `${id}-reading`
  return (
    <div className="grid gap-1.5">
      <div className="relative">
        <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-muted-foreground">
          $
        </span>
        <Input
          id={id}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          value={value}
          onChange={(e) => onValueChange(e.target.value)}
          className={cn('pl-7 tabular-nums', className)}
          aria-invalid={shown ? true : undefined}
          aria-describedby={[noteId, describedBy].filter(Boolean).join(' ')}
          {...props}
        />
      </div>
      <p id={noteId} aria-live="polite" className={cn('min-h-5 text-xs', shown ? 'font-medium text-destructive' : 'text-muted-foreground')} data-testid={`${id}-reading`}>
        {shown ?? (reading?.ok ? `Reads as ${formatCents(reading.cents)}` : '')}
      </p>
    </div>
  )
}
