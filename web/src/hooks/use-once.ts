import * as React from 'react'

/** Runs `start` only when no earlier run is still going: a double click or a double submit sends one request,
 *  even before the re-render that disables the button. `start` calls `done` when its request settles. */
export function useOnce() {
  const running = React.useRef(false)
  return React.useCallback((start: (done: () => void) => void) => {
    if (running.current) return
    running.current = true
    start(() => {
      running.current = false
    })
  }, [])
}
