import { clsx, type ClassValue } from 'clsx'
import { twMerge } from 'tailwind-merge'

export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs))
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** "January 5, 2026" (or "Jan 5, 2026"), in the visitor's time zone, as Intl's en-US date format writes it; a day
 *  alone ("2026-01-05", an article's publishedAt) is that day everywhere, as the gateway writes it into a post's
 *  page. Written by hand: the first Intl.DateTimeFormat a page builds loads the locale's data, and
 *  toLocaleDateString builds one on every call; the blog's cards spent 270 ms of Lighthouse's blocking time (a
 *  phone's CPU) on their dates. */
export function formatDate(iso: string | null | undefined, month: 'long' | 'short' = 'long') {
  if (!iso) return ''
  const day = DAY.exec(iso)
  const d = day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const name = MONTHS[d.getMonth()]
  return `${month === 'long' ? name : name.slice(0, 3)} ${d.getDate()}, ${d.getFullYear()}`
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
