import * as React from 'react'

const noChange = () => () => {}

/** False in a page prerendered at build time and while the browser hydrates it, true from then on (and at once
 *  in a page the browser renders itself). A prerendered form is `inert` until then: typed into and sent before
 *  its handlers are attached, the browser would send it itself, as a GET with the password in the address. */
export function useHydrated(): boolean {
  return React.useSyncExternalStore(
    noChange,
    () => true,
    () => false,
  )
}
