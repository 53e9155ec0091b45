import * as React from 'react'

/**
 * State that this browser tab keeps while it leaves for another site and comes back (connecting Instagram from
 * the bid panel, paying on Stripe): React state, read from and written to the tab's sessionStorage under `key`.
 * Anything that cannot be read back (no storage, another shape) starts from `initial`.
 */
export function useTabState<T>(key: string, initial: T, valid: (value: unknown) => value is T): [T, React.Dispatch<React.SetStateAction<T>>] {
  const [value, setValue] = React.useState<T>(() => {
    try {
      const stored = sessionStorage.getItem(key)
      const parsed: unknown = stored === null ? null : JSON.parse(stored)
      return valid(parsed) ? parsed : initial
    } catch {
      return initial
    }
  })
  React.useEffect(() => {
    try {
      sessionStorage.setItem(key, JSON.stringify(value))
    } catch {
      /* storage unavailable: the state lives as long as the page */
    }
  }, [key, value])
  return [value, setValue]
}
