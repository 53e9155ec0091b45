import '@testing-library/jest-dom/vitest'
import { afterEach, beforeAll, vi } from 'vitest'
import { cleanup, configure } from '@testing-library/react'
import { toast } from 'sonner'

// lazy route chunks are compiled on first use: give async queries room on a loaded machine
configure({ asyncUtilTimeout: 12_000 })
// the earnings page's chunk (recharts) took longer than that to compile the first time, in CI runs with every other
// suite beside them; four files render it, so each worker loads it before its first file's tests
beforeAll(() => import('@/features/creator/EarningsPage'), 60_000)

afterEach(() => {
  cleanup()
  // sonner keeps its toasts in a module-wide store and replays the undismissed ones to the next <Toaster>: a toast
  // left by one test stacked in front of the next test's (behind the third a toast is hidden, pointer-events none),
  // and a toast of the same id was updated in place there instead of shown anew
  toast.dismiss()
  localStorage.clear()
  sessionStorage.clear() // tab notes (the marketplace's search, the way back from Instagram) never leak into the next test
  // an expiry in the past, not max-age=0: happy-dom keeps a cookie whose expiry is this very millisecond, and the
  // next test, when it starts within it, read the emptied cookie (the sidebar then started collapsed)
  document.cookie.split('; ').forEach((c) => {
    const name = c.split('=')[0]
    if (name) document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`
  })
  vi.restoreAllMocks()
})

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }),
  })
}
window.scrollTo = () => {}
if (!('ResizeObserver' in window)) {
  ;(window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
}
// sonner captures the pointer on a toast (swipe to dismiss), which a test DOM may not implement
if (!Element.prototype.setPointerCapture) {
  Element.prototype.setPointerCapture = () => {}
  Element.prototype.releasePointerCapture = () => {}
  Element.prototype.hasPointerCapture = () => false
}
