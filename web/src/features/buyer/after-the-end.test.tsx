import { describe, expect, it } from 'vitest'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, renderApp } from '@/test/utils'
import { buyer, makeBid, makeSlot, signedIn } from '@/test/fixtures'
import { placementEnd } from '@/lib/bids'

const pinned = (status: string) => ({ commentText: 'x', likes: 3, replies: 1, clicks: 2, status, pinnedAt: null })
const paid = { status: 'COMPLETED', expiresAt: null, paidAt: null }

describe('after the end (issue 31)', () => {
  it('words each end, never "Pinned" once refunded or over', () => {
    expect(placementEnd(makeBid({ status: 'PINNED', pinnedComment: pinned('ACTIVE'), payment: paid }))).toBeNull()
    expect(placementEnd(makeBid({ status: 'PINNED', pinnedComment: pinned('ACTIVE'), payment: { ...paid, status: 'REFUNDED' }, refunded: 12.5 }))).toBe('Refunded')
    expect(placementEnd(makeBid({ status: 'PINNED', pinnedComment: pinned('ENDED'), payment: paid, refunded: 9, disputeOutcome: 'REFUND_UNEARNED' }))).toBe('Ended · part refunded')
    expect(placementEnd(makeBid({ status: 'PINNED', pinnedComment: pinned('COMPLETED'), payment: paid }))).toBe('Completed')
    expect(placementEnd(makeBid({ status: 'PINNED', pinnedComment: pinned('UNPINNED'), payment: paid, refunded: 4 }))).toBe('Ended early · part refunded')
  })

  it('My Bids: a refunded placement is past, badged Refunded, with what was paid and refunded', async () => {
    const refunded = makeBid({
      id: 'bid-refunded', status: 'PINNED', finalPrice: 12.5, tab: 'past', refunded: 12.5,
      payment: { ...paid, status: 'REFUNDED' }, pinnedComment: pinned('ENDED'), pinSlot: makeSlot({ title: 'Refunded slot' }),
    })
    signedIn(buyer, { 'GET /buyer/bids': () => json(200, [refunded]) })
    renderApp('/my-bids')
    await userEvent.click(await screen.findByRole('tab', { name: /Past/ }))
    const row = within(screen.getByRole('tabpanel'))
    expect(row.getByText('Refunded slot')).toBeInTheDocument()
    expect(row.getAllByText('Refunded').length).toBeGreaterThan(0)
    expect(row.queryByText('Pinned')).toBeNull()
    expect(row.queryByText('Price to pay')).toBeNull()
    expect(row.getByText('Price paid')).toBeInTheDocument()
    expect(row.getByText('Refunded to you')).toBeInTheDocument()
    expect(row.getAllByText('$12.50')).toHaveLength(2)
  })
})
