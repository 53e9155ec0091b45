import { clsx, type ClassValue } from 'clsx'
import { twMerge } from 'tailwind-merge'

export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs))
}

// one formatter per set of options: toLocaleDateString builds a new one on every call (a few milliseconds each,
// four times that on a phone: a blog page's cards spent 270 ms of Lighthouse's blocking time on their dates)
const dateFormats = new Map<string, Intl.DateTimeFormat>()

export function formatDate(iso: string | null | undefined, opts?: Intl.DateTimeFormatOptions) {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const options = opts ?? { year: 'numeric', month: 'long', day: 'numeric' }
  const key = JSON.stringify(options)
  let format = dateFormats.get(key)
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat('en-US', options)))
  return format.format(d)
}

export function formatMoney(n: number) {
  return n.toLocaleString('en-US', { style: 'currency', currency: 'USD' })
}

export function capitalize(s: string) {
  return s.charAt(0).toUpperCase() + s.slice(1)
}

/** '/post-manager' -> 'Post-manager' (the spec's "capitalised current path"). */
export function titleFromPath(pathname: string) {
  const first = pathname.replace(/^\/+/, '').split('/')[0] ?? ''
  return capitalize(first)
}
