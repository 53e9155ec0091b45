import { describe, expect, it } from 'vitest'
import { screen } from '@testing-library/react'
import { json, renderApp } from '@/test/utils'
import { creator, makeBid, signedIn } from '@/test/fixtures'

const EARNINGS = { totalEarnings: 22.5, thisMonthEarnings: 22.5, pendingPayouts: 0, pendingBalance: 0, availableBalance: 0, releasedEarnings: 7.5, refundedEarnings: 2.25, owed: 0 }

function creatorEarning(earnings: Record<string, unknown>, bids: unknown[] = []) {
  signedIn(creator, {
    'GET /influencer/earnings': () => json(200, earnings),
    'GET /influencer/payouts': () => json(200, []),
    'GET /influencer/bids': () => json(200, bids),
    'GET /influencer/payout-settings': () => json(200, { method: 'bank', schedule: 'monthly', minimumPayout: 50, accountConnected: false, details: null }),
  })
  renderApp('/earnings')
}

describe('Earnings: money owed back', () => {
  it('says how much the next earnings pay back, and shows a negative balance as negative', async () => {
    creatorEarning({ ...EARNINGS, owed: 12.5, availableBalance: -12.5, pendingPayouts: -12.5 })
    const notice = await screen.findByRole('status', { name: 'Money owed' })
    expect(notice).toHaveTextContent('$12.50 will be taken from your next earnings.')
    expect(notice).toHaveTextContent('Your balance is -$12.50.')
    expect(screen.getAllByText('-$12.50').some((el) => el.classList.contains('text-destructive'))).toBe(true)
  })

  it('nothing owed: no notice', async () => {
    creatorEarning(EARNINGS)
    expect(await screen.findByText('Total Earned')).toBeInTheDocument()
    expect(screen.queryByRole('status', { name: 'Money owed' })).not.toBeInTheDocument()
    expect(screen.queryByText(/will be taken from your next earnings/)).not.toBeInTheDocument()
  })

  it('a refunded sale stays in the transactions with what the brand got back, the same gross amount', async () => {
    const paid = { status: 'COMPLETED', expiresAt: null, paidAt: '2026-11-20T10:00:00Z' }
    const sold = makeBid({ id: 'kept', status: 'PINNED', finalPrice: 40, payment: paid, user: { name: 'Kept Brand' } })
    const refunded = makeBid({ id: 'back', status: 'PINNED', finalPrice: 12.5, refunded: 12.5, disputeOutcome: 'REFUND_ALL',
      payment: { ...paid, status: 'REFUNDED' }, user: { name: 'Refunded Brand' } })
    creatorEarning({ ...EARNINGS, refundedEarnings: 12.5 }, [sold, refunded])
    expect(await screen.findByText('Refunded Brand')).toBeInTheDocument()
    expect(screen.getByText('$12.50 refunded to the brand')).toBeInTheDocument()
    expect(screen.getByText('$36.00 net')).toBeInTheDocument()
    expect(screen.getByText('Refunded to brands (gross)').nextElementSibling).toHaveTextContent('$12.50')
  })
})
