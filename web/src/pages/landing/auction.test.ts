import { describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG, setConfig } from '@/config'
import { FAQ_GROUPS } from './faq'
import { currentPrice, RESERVE, secondPrice, split } from './auction'

const b = (id: string, ceiling: number, seq: number) => ({ id, name: id, ceiling, seq })

describe('demo auction rules', () => {
  it('shows one price, the one the leader would pay now: the runner-up maximum, capped by the leader ceiling', () => {
    expect(currentPrice([b('a', 58, 1), b('b', 44, 2)])).toBe(44)
    expect(currentPrice([b('a', 58, 1), b('you', 70, 3)])).toBe(58)
    expect(currentPrice([b('a', 58, 1), b('you', 58.5, 3)])).toBe(58)
    expect(currentPrice([b('you', 70, 3)])).toBe(RESERVE) // alone: the reserve, not its maximum
    expect(currentPrice([b('a', 30, 1), b('b', 20, 2)])).toBe(RESERVE) // never below the reserve
    expect(currentPrice([])).toBe(RESERVE)
  })
  it('the price shown is the price paid at the close', () => {
    for (const field of [[b('a', 58, 1), b('you', 70, 3), b('c', 44, 2)], [b('you', 70, 3)], [b('a', 58, 1), b('b', 44, 2)], [b('late', 58, 5), b('early', 58, 1)]]) {
      expect(secondPrice(field)).toBe(currentPrice(field))
    }
    expect(secondPrice([b('a', 58, 1), b('you', 70, 3), b('c', 44, 2)])).toBe(58)
  })
  it('ties go to the earlier bidder, who pays the tied maximum', () => {
    expect(currentPrice([b('late', 58, 5), b('early', 58, 1)])).toBe(58)
  })
  it('the creator nets 90%', () => {
    expect(split(58)).toEqual({ fee: 5.8, net: 52.2 })
  })
  it('the fee and the FAQ follow the fee the server serves', () => {
    setConfig({ ...DEFAULT_CONFIG, rules: { ...DEFAULT_CONFIG.rules, platformFeePercent: 15 } })
    try {
      expect(split(58)).toEqual({ fee: 8.7, net: 49.3 })
      const fees = FAQ_GROUPS.flatMap((group) => group.items).find((item) => item.id === 'fees')
      expect(fees?.answer).toContain('Pinbid takes a 15% commission')
      expect(fees?.answer).toContain('net earnings at 85% of the final price')
    } finally {
      setConfig(DEFAULT_CONFIG)
    }
  })
})
