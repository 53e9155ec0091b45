import * as React from 'react'

/** The value as it was `ms` after it last changed: a search typed letter by letter is asked for once. */
export function useDebounced<T>(value: T, ms = 300): T {
  const [settled, setSettled] = React.useState(value)
  React.useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(t)
  }, [value, ms])
  return settled
}
