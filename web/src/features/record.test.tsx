import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import { recordHint, responseTime } from '@/features/creator/approvals'
import { CreatorRecord } from '@/features/buyer/SlotCard'

describe('the creator record', () => {
  it('says what share of placements was kept and how fast the creator decides', () => {
    render(<CreatorRecord record={{ placements: 12, keptPercent: 92, responseMinutes: 45 }} />)
    expect(screen.getByText('92% kept')).toBeInTheDocument()
    expect(screen.getByText(/12 placements · decides in 45 min/)).toBeInTheDocument()
  })

  it('a creator with no finished placement is new', () => {
    render(<CreatorRecord record={{ placements: 0, keptPercent: null, responseMinutes: null }} />)
    expect(screen.getByText('New creator')).toBeInTheDocument()
  })

  it('the average response time reads in minutes, hours or days', () => {
    expect([responseTime(null), responseTime(45), responseTime(300), responseTime(4000)]).toEqual(['N/A', '45 min', '5 h', '3 days'])
  })

  it('the creator\'s own record counts the placements ended by a dispute', () => {
    expect(recordHint({ keptPercent: 75, disputedPlacements: 1 })).toBe('75% of placements kept · 1 ended by a dispute')
    expect(recordHint({ keptPercent: 100, disputedPlacements: 0 })).toBe('100% of placements kept')
    expect(recordHint({ keptPercent: null, disputedPlacements: 0 })).toBeUndefined()
  })
})
