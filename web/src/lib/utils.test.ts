import { describe, expect, it } from 'vitest'
import { formatDate } from './utils'

describe('formatDate', () => {
  it('writes a date as toLocaleDateString does, with or without options, every time', () => {
    const short = { month: 'short', day: 'numeric', year: 'numeric' } as const
    for (const iso of ['2026-01-05T10:00:00Z', '2025-12-31T12:00:00Z', '2026-06-15']) {
      const d = new Date(iso)
      expect(formatDate(iso)).toBe(d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' }))
      expect(formatDate(iso, short)).toBe(d.toLocaleDateString('en-US', short))
      expect(formatDate(iso, short)).toBe(formatDate(iso, { ...short }))
    }
    expect(formatDate('2026-01-05', { month: 'long' })).toBe('January')
  })

  it('writes nothing for no date or an unreadable one', () => {
    expect(formatDate(null)).toBe('')
    expect(formatDate('not a date')).toBe('')
  })
})
