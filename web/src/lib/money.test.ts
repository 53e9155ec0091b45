import { describe, expect, it } from 'vitest'
import { formatMoney, readMoney } from './money'

const cents = (raw: string, max?: number) => {
  const r = readMoney(raw, max)
  return r.ok ? r.cents : r.problem
}

describe('readMoney reads what people type, exactly, in cents', () => {
  it.each([
    ['12,50', 1250],
    ['12.50', 1250],
    ['12.5', 1250],
    ['12', 1200],
    [' 12 ', 1200],
    ['12,', 1200],
    ['$12.5', 1250],
    ['$ 42,50', 4250],
    ['0.99', 99],
    [',5', 50],
    ['1.234,56', 123456],
    ['1,234.56', 123456],
    ['1 234,56', 123456],
    ['1\u00a0234,56', 123456],
    ['1\u202f234.56', 123456],
    ['1 234', 123400],
    ['1.234.567', 123456700],
    ['1,000,000', 100000000],
    ['1250,00', 125000],
    ['007', 700],
  ])('%j is %i cents', (raw, expected) => {
    expect(cents(raw, 1_000_000_000)).toBe(expected)
  })
})

describe('readMoney refuses what it cannot read without guessing', () => {
  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['0', 'not_positive'],
    ['0,00', 'not_positive'],
    ['-1', 'not_positive'],
    ['−5', 'not_positive'],
    ['1e9', 'unreadable'],
    ['٣', 'unreadable'],
    ['１２', 'unreadable'],
    ['twelve', 'unreadable'],
    ['12.345', 'ambiguous'],
    ['1,234', 'ambiguous'],
    ['12.3456', 'too_many_decimals'],
    ['1234.567', 'too_many_decimals'],
    ['0.001', 'too_many_decimals'],
    ['1.2.3', 'unreadable'],
    ['1,23.45', 'unreadable'],
    ['1.234,56,7', 'unreadable'],
    ['12 34', 'unreadable'],
    ['.', 'unreadable'],
    ['1'.repeat(30), 'too_large'],
    ['1000000.01', 'too_large'],
  ])('%j is refused as %s', (raw, problem) => {
    expect(cents(raw)).toBe(problem)
  })

  it('says what to type instead', () => {
    const ambiguous = readMoney('12.345')
    expect(ambiguous.ok || ambiguous.message).toBe('“12.345” can be read two ways: type 12345 for the whole amount, or use two decimals for cents (12.34).')
    const large = readMoney('2000000')
    expect(large.ok || large.message).toBe('The amount must be at most $1,000,000.00.')
    const own = readMoney('100000.01', 10_000_000)
    expect(own.ok || own.message).toBe('The amount must be at most $100,000.00.')
  })

  it('keeps the largest amount allowed', () => {
    expect(cents('1,000,000.00')).toBe(100_000_000)
  })
})

describe('one format for amounts', () => {
  it('shows dollars with thousands and cents', () => {
    expect(formatMoney(1250)).toBe('$1,250.00')
    expect(formatMoney(0.5)).toBe('$0.50')
    expect(formatMoney(null)).toBe('$0.00')
    expect(formatMoney(-5)).toBe('-$5.00')
  })

  it('writes every amount in cents as Intl does', () => {
    const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 })
    const differing: string[] = []
    for (let cents = -250_000; cents <= 100_000_000; cents += cents < 1_000_000 ? 97 : 99_991) {
      const dollars = cents / 100
      if (formatMoney(dollars) !== intl.format(dollars)) differing.push(`${cents}: ${formatMoney(dollars)} ≠ ${intl.format(dollars)}`)
    }
    expect(differing.slice(0, 5)).toEqual([])
  })
})
