import { describe, expect, it } from 'vitest'
import { daysText, hoursText, megabytesText, orList } from './spans'

describe('spans in words', () => {
  it('says hours up to two days, then whole days', () => {
    expect([1, 24, 48, 72, 168, 36, 100].map(hoursText)).toEqual(['1 hour', '24 hours', '48 hours', '3 days', '7 days', '36 hours', '100 hours'])
    expect([1, 7, 30].map(daysText)).toEqual(['1 day', '7 days', '30 days'])
  })

  it('says sizes in megabytes and lists with "or"', () => {
    expect([5 * 1024 * 1024, 2.5 * 1024 * 1024].map(megabytesText)).toEqual(['5 MB', '2.5 MB'])
    expect([['JPEG', 'PNG', 'WebP'], ['PNG'], ['JPEG', 'PNG']].map(orList)).toEqual(['JPEG, PNG or WebP', 'PNG', 'JPEG or PNG'])
  })
})
