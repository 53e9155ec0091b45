import * as React from 'react'

/** How long a changed figure stays highlighted. */
export const FLASH_MS = 1_600

/**
 * True for a moment after `value` changes (never on first render, nor when it first arrives): the class it drives shows what the stream
 * just changed. The animation is in index.css (`.live-flash`); with reduced motion it is a still outline.
 */
export function useFlash(value: unknown): boolean {
  const [shown, setShown] = React.useState(value)
  const [round, setRound] = React.useState(0)
  const [flashing, setFlashing] = React.useState(false)
  if (!Object.is(shown, value)) {
    setShown(value)
    // a value arriving for the first time (data loaded) is not a change to point at
    if (shown !== undefined) {
      setRound((r) => r + 1)
      setFlashing(true)
    }
  }
  React.useEffect(() => {
    if (!round) return
    const t = setTimeout(() => setFlashing(false), FLASH_MS)
    return () => clearTimeout(t)
  }, [round])
  return flashing
}

// One clock for every countdown on screen, ticking only while someone shows one.
const TICK_MS = 1_000
const listeners = new Set<() => void>()
const second = () => Math.floor(Date.now() / TICK_MS) * TICK_MS
let now = 0
let ticker: ReturnType<typeof setInterval> | undefined

function subscribe(listener: () => void) {
  listeners.add(listener)
  if (!ticker) {
    now = second()
    ticker = setInterval(() => {
      now = second()
      listeners.forEach((l) => l())
    }, TICK_MS)
  }
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0) {
      clearInterval(ticker)
      ticker = undefined
    }
  }
}

const snapshot = () => (ticker ? now : second())

/** The current time, re-rendering each second: a countdown follows a soft close's new end on its own. */
export function useNow(): Date {
  const ms = React.useSyncExternalStore(subscribe, snapshot, snapshot)
  return React.useMemo(() => new Date(ms), [ms])
}
