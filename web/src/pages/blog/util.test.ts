import { describe, expect, it } from 'vitest'
import { formatViews } from './util'

describe('formatViews', () => {
  it('groups the digits as toLocaleString does', () => {
    for (const n of [0, 1, 7, 999, 1000, 12_345, 999_999, 1_000_000, 123_456_789]) {
      expect(formatViews(n)).toBe(`${n.toLocaleString('en-US')} ${n === 1 ? 'view' : 'views'}`)
    }
  })
})
