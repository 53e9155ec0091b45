import { clsx, type ClassValue } from 'clsx'
import { twMerge } from 'tailwind-merge'

export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs))
}

export function formatDate(iso: string | null | undefined, opts?: Intl.DateTimeFormatOptions) {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  return d.toLocaleDateString('en-US', opts ?? { year: 'numeric', month: 'long', day: 'numeric' })
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
