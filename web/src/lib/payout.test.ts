import { describe, expect, it } from 'vitest'
import { DEFAULT_PAYOUT_FORM, payoutBody, PAYOUT_MESSAGES as M, validatePayout, type PayoutForm } from './payout'

const bank: PayoutForm = { ...DEFAULT_PAYOUT_FORM, accountName: 'Maya Rivers', bankAccount: '12345678', routingNumber: '123456789' }

describe('payout settings rules', () => {
  it('defaults: bank transfer, 50, monthly, USD', () => {
    expect(DEFAULT_PAYOUT_FORM).toMatchObject({ payoutMethod: 'BANK_TRANSFER', minimumPayout: '50', schedule: 'MONTHLY', currency: 'USD' })
  })

  it('a complete bank transfer form has no errors', () => {
    expect(validatePayout(bank)).toEqual({})
  })

  it('method, minimum and schedule are required', () => {
    const e = validatePayout({ ...bank, payoutMethod: '', minimumPayout: '0', schedule: '' })
    expect(e).toMatchObject({ payoutMethod: M.method, minimumPayout: M.minimum, schedule: M.schedule })
    expect(validatePayout({ ...bank, minimumPayout: '-5' }).minimumPayout).toBe(M.minimum)
    expect(validatePayout({ ...bank, minimumPayout: 'abc' }).minimumPayout).toBe(M.minimum)
    expect(validatePayout({ ...bank, minimumPayout: '49.99' }).minimumPayout).toBe('Minimum payout must be at least $50.00.')
  })

  it('the minimum is read as people type it, and bounded like the server', () => {
    expect(validatePayout({ ...bank, minimumPayout: '1250,00' })).toEqual({})
    expect(payoutBody({ ...bank, minimumPayout: '1.250,50' }).minimumPayout).toBe(1250.5)
    expect(payoutBody({ ...bank, minimumPayout: '75,5' }).minimumPayout).toBe(75.5)
    expect(validatePayout({ ...bank, minimumPayout: '1000000000' }).minimumPayout).toBe('Minimum payout must be at most $100,000.00.')
    expect(validatePayout({ ...bank, minimumPayout: '1,250' }).minimumPayout).toMatch(/can be read two ways/)
    expect(validatePayout({ ...bank, minimumPayout: '1e9' }).minimumPayout).toBe(M.minimum)
  })

  it('PayPal needs a valid email', () => {
    const paypal = { ...DEFAULT_PAYOUT_FORM, payoutMethod: 'PAYPAL' as const }
    expect(validatePayout(paypal).paypalEmail).toBe(M.paypalRequired)
    expect(validatePayout({ ...paypal, paypalEmail: 'not-an-email' }).paypalEmail).toBe('Invalid PayPal email format.')
    expect(validatePayout({ ...paypal, paypalEmail: 'maya@example.com' })).toEqual({})
  })

  it('bank transfer needs a holder name, 8+ digit account and a currency', () => {
    const e = validatePayout({ ...bank, accountName: ' ', bankAccount: '1234567', currency: '' })
    expect(e).toMatchObject({ accountName: M.accountName, bankAccount: M.bankAccount, currency: M.currency })
    expect(validatePayout({ ...bank, bankAccount: '1234abcd' }).bankAccount).toBe(M.bankAccount)
  })

  it('USD needs a 9-digit routing number', () => {
    expect(validatePayout({ ...bank, routingNumber: '12345678' }).routingNumber).toBe(M.routing)
    expect(validatePayout({ ...bank, routingNumber: '' }).routingNumber).toBe(M.routing)
  })

  it('GBP needs a 6-digit sort code, or XX-XX-XX', () => {
    const gbp = { ...bank, currency: 'GBP' as const, routingNumber: '' }
    expect(validatePayout({ ...gbp, sortCode: '12345' }).sortCode).toBe(M.sortCode)
    expect(validatePayout({ ...gbp, sortCode: '12-34-5x' }).sortCode).toBe(M.sortCode)
    expect(validatePayout({ ...gbp, sortCode: '123456' })).toEqual({})
    expect(validatePayout({ ...gbp, sortCode: '12-34-56' })).toEqual({})
  })

  it('masked values read back from the server are accepted as they are', () => {
    expect(validatePayout({ ...bank, bankAccount: '••••5678', routingNumber: '•••••6789' })).toEqual({})
  })

  it('sends only the fields of the chosen method and currency', () => {
    expect(payoutBody(bank)).toMatchObject({ payoutMethod: 'BANK_TRANSFER', minimumPayout: 50, paypalEmail: null, sortCode: null, routingNumber: '123456789' })
    expect(payoutBody({ ...DEFAULT_PAYOUT_FORM, payoutMethod: 'PAYPAL', paypalEmail: ' a@b.co ' })).toMatchObject({ paypalEmail: 'a@b.co', bankAccount: null, accountName: null })
  })
})
