import * as React from 'react'

/** A form's message that belongs to no one field (the server's refusal of the whole form). */
export function FormAlert({ children }: { children: React.ReactNode }) {
  return (
    <div role="alert" className="rounded-lg border border-destructive/30 bg-destructive/5 px-3 py-2.5 text-sm text-destructive">
      {children}
    </div>
  )
}
