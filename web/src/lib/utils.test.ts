import { describe, expect, it, vi } from 'vitest'
import { formatDate } from './utils'

describe('formatDate', () => {
  it('writes a date as Intl does in en-US, long or short month, in the visitor’s time zone', () => {
    const long = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric' })
    const short = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' })
    for (let day = Date.UTC(2024, 0, 1); day < Date.UTC(2027, 0, 1); day += 86_400_000 + 3_600_000 * 7) {
      const iso = new Date(day).toISOString()
      expect(formatDate(iso), iso).toBe(long.format(new Date(day)))
      expect(formatDate(iso, 'short'), iso).toBe(short.format(new Date(day)))
    }
    expect(formatDate('2026-01-05T12:00:00Z')).toBe('January 5, 2026')
  })

  it('writes a day alone as that day, west of UTC too (new Date reads it as midnight UTC: the day before)', () => {
    vi.stubEnv('TZ', 'America/Los_Angeles')
    try {
      expect(new Date('2026-01-01').getDate()).toBe(31)
      expect(formatDate('2026-11-18')).toBe('November 18, 2026')
      expect(formatDate('2026-01-01', 'short')).toBe('Jan 1, 2026')
      expect(formatDate('2026-12-31')).toBe('December 31, 2026')
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('writes nothing for no date or an unreadable one', () => {
    expect(formatDate(null)).toBe('')
    expect(formatDate('not a date')).toBe('')
  })
})
