import * as React from 'react'

/**
 * Focus back on the button that opened a panel or dialog when it closes. Radix returns focus only to its own
 * Trigger; our panels open from state, so their content remembers the focused element when it opens.
 * Spread the result onto SheetContent or DialogContent.
 */
export function useFocusReturn() {
  const opener = React.useRef<HTMLElement | null>(null)
  return React.useMemo(
    () => ({
      onOpenAutoFocus: () => {
        opener.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null
      },
      onCloseAutoFocus: (event: Event) => {
        const el = opener.current
        if (el?.isConnected) {
          event.preventDefault()
          el.focus()
        }
      },
    }),
    [],
  )
}
