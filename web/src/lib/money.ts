/**
 * Money typed as people type it. `readMoney` reads an amount exactly, in integer cents, whichever decimal
 * separator the person uses (`12,50`, `12.50`, `1.234,56`, `1,234.56`, `1 234,56`), or refuses what it cannot
 * read without guessing and says what to type instead. Nothing is ever sent that was not read this way.
 */

/** The server's bound for bids and prices (ARCHITECTURE: money fields have a sane upper bound). */
export const MAX_PRICE_CENTS = 100_000_000

export type MoneyProblem = 'empty' | 'unreadable' | 'ambiguous' | 'too_many_decimals' | 'not_positive' | 'too_large'

export type MoneyReading =
  | { ok: true; cents: number }
  | { ok: false; problem: MoneyProblem; message: string }

/** One way to show an amount in dollars everywhere: "$1,250.00", "-$5.00", as Intl's en-US currency format
 *  writes an amount in cents. Written by hand: the landing page shows amounts while it hydrates, and the first
 *  Intl.NumberFormat a page builds loads the locale's data, 15 ms of the page's busiest task on this machine
 *  (60 ms on a phone, Lighthouse's 4x slower CPU). */
export function formatMoney(dollars: number | null | undefined): string {
  const value = dollars ?? 0
  const cents = Math.round(Math.abs(value) * 100)
  const whole = Math.floor(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${value < 0 && cents > 0 ? '-' : ''}$${whole}.${String(cents % 100).padStart(2, '0')}`
}

export const formatCents = (cents: number) => formatMoney(cents / 100)
export const dollarsToCents = (dollars: number) => Math.round(dollars * 100)

const refuse = (problem: MoneyProblem, message: string): MoneyReading => ({ ok: false, problem, message })

const EXAMPLE = 'for example 12.50 or 12,50'
// group separators people put between thousands: space, no-break space, narrow no-break space, thin space
const SPACE = '[ \u00a0\u202f\u2009]'
const SPACED_GROUPS = new RegExp(`^\\d{1,3}(${SPACE}\\d{3})+([.,]\\d*)?$`)
const GROUPED = /^\d{1,3}([.,]\d{3})+$/

/** Splits what is left after the sign and spaces into whole dollars and cents digits, or says why it cannot. */
function split(text: string, spaced: boolean): { whole: string; fraction: string } | MoneyReading {
  const commas = text.split(',').length - 1
  const dots = text.split('.').length - 1
  if (commas + dots === 0) return { whole: text, fraction: '' }
  if (commas > 0 && dots > 0) {
    // both: the last one is the decimal separator, and it appears once; the other groups thousands
    const decimal = text.lastIndexOf(',') > text.lastIndexOf('.') ? ',' : '.'
    const at = text.lastIndexOf(decimal)
    const whole = text.slice(0, at)
    if ((decimal === ',' ? commas : dots) !== 1 || !GROUPED.test(whole)) return refuse('unreadable', `Type the amount with digits, ${EXAMPLE}.`)
    return { whole: whole.replace(/[.,]/g, ''), fraction: text.slice(at + 1) }
  }
  const separator = commas > 0 ? ',' : '.'
  if (commas + dots > 1) {
    // only one kind, several times: thousands groups such as 1.234.567
    if (!GROUPED.test(text)) return refuse('unreadable', `Type the amount with digits, ${EXAMPLE}.`)
    return { whole: text.replaceAll(separator, ''), fraction: '' }
  }
  const [whole, fraction] = text.split(separator)
  if (fraction.length === 3 && !spaced && whole.length <= 3 && whole !== '0' && whole !== '') {
    // 12.345 and 1,234: thousands in one country, cents with a slip in another
    return refuse('ambiguous', `“${text}” can be read two ways: type ${whole}${fraction} for the whole amount, or use two decimals for cents (${whole}${separator}${fraction.slice(0, 2)}).`)
  }
  return { whole, fraction }
}

export function readMoney(raw: string, maxCents: number = MAX_PRICE_CENTS): MoneyReading {
  let text = raw.trim()
  if (!text) return refuse('empty', `Enter an amount, ${EXAMPLE}.`)
  if (text.startsWith('-') || text.startsWith('−')) return refuse('not_positive', 'The amount must be more than $0.00.')
  text = text.replace(/^\+/, '').replace(/^\$\s*/, '').replace(/\s*\$$/, '').replace(/\s*(USD|usd)$/, '')
  const spaced = new RegExp(SPACE).test(text)
  if (spaced) {
    // spaces only between groups of three digits: 1 234,56
    if (!SPACED_GROUPS.test(text)) return refuse('unreadable', `Type the amount with digits, ${EXAMPLE}.`)
    text = text.replace(new RegExp(SPACE, 'g'), '')
  }
  if (!/^[\d.,]+$/.test(text) || !/\d/.test(text)) return refuse('unreadable', `Type the amount with digits, ${EXAMPLE}.`)
  const parts = split(text, spaced)
  if ('ok' in parts) return parts
  const { whole, fraction } = parts
  if (!/^\d*$/.test(whole) || !/^\d*$/.test(fraction)) return refuse('unreadable', `Type the amount with digits, ${EXAMPLE}.`)
  if (fraction.length > 2) return refuse('too_many_decimals', 'Use at most two decimals (cents), for example 12.50.')
  const digits = whole.replace(/^0+/, '')
  if (digits.length > String(Math.floor(maxCents / 100)).length) return refuse('too_large', `The amount must be at most ${formatCents(maxCents)}.`)
  const cents = Number(digits || '0') * 100 + Number(fraction.padEnd(2, '0'))
  if (cents <= 0) return refuse('not_positive', 'The amount must be more than $0.00.')
  if (cents > maxCents) return refuse('too_large', `The amount must be at most ${formatCents(maxCents)}.`)
  return { ok: true, cents }
}
