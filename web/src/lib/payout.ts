/** Payout settings rules (spec section 5) and defaults (section 9). */
import { readMoney, type MoneyReading } from './money'
import { z } from '@/lib/zod'

export const MINIMUM_PAYOUT_FLOOR_CENTS = 5_000
/** The server's bound: a minimum above it is a slip of the keyboard. */
export const MINIMUM_PAYOUT_CEILING_CENTS = 10_000_000
export type PayoutMethod = 'BANK_TRANSFER' | 'PAYPAL'
export type Schedule = 'WEEKLY' | 'MONTHLY' | 'QUARTERLY'
export type Currency = 'USD' | 'GBP'

export interface PayoutForm {
  payoutMethod: PayoutMethod | ''
  minimumPayout: string
  schedule: Schedule | ''
  paypalEmail: string
  bankAccount: string
  currency: Currency | ''
  routingNumber: string
  sortCode: string
  accountName: string
  taxFormSubmitted: boolean
}

export const DEFAULT_PAYOUT_FORM: PayoutForm = {
  payoutMethod: 'BANK_TRANSFER',
  minimumPayout: '50',
  schedule: 'MONTHLY',
  paypalEmail: '',
  bankAccount: '',
  currency: 'USD',
  routingNumber: '',
  sortCode: '',
  accountName: '',
  taxFormSubmitted: false,
}

export const PAYOUT_MESSAGES = {
  method: 'Payout method is required.',
  minimum: 'Minimum payout must be a positive number.',
  minimumFloor: 'Minimum payout must be at least $50.00.',
  minimumCeiling: 'Minimum payout must be at most $100,000.00.',
  schedule: 'Payout schedule is required.',
  paypalRequired: 'PayPal email is required.',
  paypalInvalid: 'Invalid PayPal email format.',
  accountName: 'Account holder name is required.',
  bankAccount: 'Bank account number must be at least 8 digits.',
  currency: 'Currency is required.',
  routing: 'Routing number must be 9 digits.',
  sortCode: 'Sort code must be 6 digits (or XX-XX-XX).',
} as const

export type PayoutField = keyof PayoutForm
export type PayoutErrors = Partial<Record<PayoutField, string>>

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
/** A masked value read back from the server (e.g. '••••1234') is kept as is. */
export const isMasked = (v: string) => v.includes('•')

export const readMinimumPayout = (raw: string) => readMoney(raw, MINIMUM_PAYOUT_CEILING_CENTS)

/** The payout form words the reader's refusals as the server does; an ambiguous amount keeps the reader's advice. */
function minimumPayoutMessage(reading: Extract<MoneyReading, { ok: false }>): string {
  if (reading.problem === 'too_large') return PAYOUT_MESSAGES.minimumCeiling
  if (reading.problem === 'ambiguous' || reading.problem === 'too_many_decimals') return reading.message
  return PAYOUT_MESSAGES.minimum
}

export function validatePayout(f: PayoutForm): PayoutErrors {
  const e: PayoutErrors = {}
  if (!f.payoutMethod) e.payoutMethod = PAYOUT_MESSAGES.method
  const minimum = readMinimumPayout(f.minimumPayout)
  if (!minimum.ok) e.minimumPayout = minimumPayoutMessage(minimum)
  // ARCHITECTURE section 6: the minimum payout is at least 50 (the server's message)
  else if (minimum.cents < MINIMUM_PAYOUT_FLOOR_CENTS) e.minimumPayout = PAYOUT_MESSAGES.minimumFloor
  if (!f.schedule) e.schedule = PAYOUT_MESSAGES.schedule
  if (f.payoutMethod === 'PAYPAL') {
    const email = f.paypalEmail.trim()
    if (!email) e.paypalEmail = PAYOUT_MESSAGES.paypalRequired
    else if (!isMasked(email) && !EMAIL_RE.test(email)) e.paypalEmail = PAYOUT_MESSAGES.paypalInvalid
  }
  if (f.payoutMethod === 'BANK_TRANSFER') {
    if (!f.accountName.trim()) e.accountName = PAYOUT_MESSAGES.accountName
    const acct = f.bankAccount.replace(/\s/g, '')
    if (!isMasked(acct) && !/^\d{8,}$/.test(acct)) e.bankAccount = PAYOUT_MESSAGES.bankAccount
    if (!f.currency) e.currency = PAYOUT_MESSAGES.currency
    if (f.currency === 'USD' && !isMasked(f.routingNumber) && !/^\d{9}$/.test(f.routingNumber.trim())) e.routingNumber = PAYOUT_MESSAGES.routing
    if (f.currency === 'GBP' && !isMasked(f.sortCode) && !/^(\d{6}|\d{2}-\d{2}-\d{2})$/.test(f.sortCode.trim())) e.sortCode = PAYOUT_MESSAGES.sortCode
  }
  return e
}

/** The PUT body: only the fields that apply to the chosen method and currency. */
export function payoutBody(f: PayoutForm) {
  const bank = f.payoutMethod === 'BANK_TRANSFER'
  return {
    payoutMethod: f.payoutMethod || null,
    minimumPayout: ((reading) => (reading.ok ? reading.cents / 100 : null))(readMinimumPayout(f.minimumPayout)),
    schedule: f.schedule || null,
    currency: f.currency || 'USD',
    paypalEmail: f.payoutMethod === 'PAYPAL' ? f.paypalEmail.trim() : null,
    accountName: bank ? f.accountName.trim() : null,
    bankAccount: bank ? f.bankAccount.replace(/\s/g, '') : null,
    routingNumber: bank && f.currency === 'USD' ? f.routingNumber.trim() : null,
    sortCode: bank && f.currency === 'GBP' ? f.sortCode.trim() : null,
    taxFormSubmitted: f.taxFormSubmitted,
  }
}

export function formFromSettings(s: {
  payoutMethod: string
  minimumPayout: number
  schedule: string
  paypalEmail: string | null
  bankAccount: string | null
  currency: string
  routingNumber: string | null
  sortCode: string | null
  accountName: string | null
  taxFormSubmitted: boolean
}): PayoutForm {
  return {
    payoutMethod: (s.payoutMethod as PayoutMethod) || '',
    minimumPayout: String(s.minimumPayout),
    schedule: (s.schedule as Schedule) || '',
    paypalEmail: s.paypalEmail ?? '',
    bankAccount: s.bankAccount ?? '',
    currency: (s.currency as Currency) || 'USD',
    routingNumber: s.routingNumber ?? '',
    sortCode: s.sortCode ?? '',
    accountName: s.accountName ?? '',
    taxFormSubmitted: s.taxFormSubmitted,
  }
}

/** The form's zod schema: validatePayout's rules, each message on its field (the minimum read by readMoney). */
export const payoutSchema = z
  .object({
    payoutMethod: z.enum(['', 'BANK_TRANSFER', 'PAYPAL']),
    minimumPayout: z.string(),
    schedule: z.enum(['', 'WEEKLY', 'MONTHLY', 'QUARTERLY']),
    paypalEmail: z.string(),
    accountName: z.string(),
    bankAccount: z.string(),
    currency: z.enum(['', 'USD', 'GBP']),
    routingNumber: z.string(),
    sortCode: z.string(),
    taxFormSubmitted: z.boolean(),
  })
  .superRefine((form, ctx) => {
    for (const [path, message] of Object.entries(validatePayout(form as PayoutForm))) ctx.addIssue({ code: 'custom', path: [path], message })
  })
