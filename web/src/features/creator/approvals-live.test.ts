import { describe, expect, it } from 'vitest'
import { PAYMENT_REQUEST_CHECK_MS, untilPaymentRequested } from './approvals'

describe('Approvals without polling', () => {
  it('asks again only while an approved bid waits for its payment to be opened (the stream says nothing then)', () => {
    const state = (statuses: string[]) => ({ state: { data: statuses.map((status) => ({ status })) } })
    expect(untilPaymentRequested(state(['APPROVED', 'PENDING_INFLUENCER_APPROVAL']))).toBe(PAYMENT_REQUEST_CHECK_MS)
    expect(untilPaymentRequested(state(['AWAITING_PAYMENT', 'WON', 'PENDING_INFLUENCER_APPROVAL']))).toBe(false)
    expect(untilPaymentRequested({ state: {} })).toBe(false)
  })
})
