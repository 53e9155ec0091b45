import { describe, expect, it } from 'vitest'
import { screen, within } from '@testing-library/react'
import { json, makeUser, mockApi, renderApp } from '@/test/utils'

function signedIn(user: ReturnType<typeof makeUser>, routes: Record<string, (body: unknown, req: Request) => Response>) {
  localStorage.setItem('token', 't')
  return mockApi({ 'GET /auth/me': () => json(200, user), ...routes })
}

const months = ['2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11']

describe('charts', () => {
  it('Earnings shows monthly net earnings and payouts, with a table for screen readers', async () => {
    signedIn(makeUser({ role: 'INFLUENCER', instagramConnected: true }), {
      'GET /influencer/earnings': () => json(200, { totalEarnings: 108, thisMonthEarnings: 45, pendingPayouts: 45, pendingBalance: 0, availableBalance: 45, releasedEarnings: 108, refundedEarnings: 0 }),
      'GET /influencer/payouts': () => json(200, []),
      'GET /influencer/bids': () => json(200, []),
      'GET /influencer/payout-settings': () => json(404, { detail: 'Not found.', code: 'not_found' }),
      'GET /influencer/earnings/monthly': () => json(200, months.map((month, i) => ({ month, earnings: i === 4 ? 63 : i === 5 ? 45 : 0, payouts: i === 5 ? 63 : 0 }))),
    })
    renderApp('/earnings')
    const table = await screen.findByRole('table', { name: /Earnings by month/ })
    const october = within(table).getByRole('row', { name: /Oct 2026/ })
    expect(within(october).getAllByRole('cell').map((c) => c.textContent)).toEqual(['$63.00', '$0.00'])
    expect(within(table).getAllByRole('row')).toHaveLength(7)
    expect(within(table).getByRole('columnheader', { name: 'Payouts' })).toBeInTheDocument()
  })

  it('the brand dashboard shows spend by month', async () => {
    signedIn(makeUser({ role: 'BUYER', name: 'Riley Brand', instagramHandle: null }), {
      'GET /buyer/dashboard': () => json(200, { activeBids: 1, wonAuctions: 2, totalSpent: 65 }),
      'GET /marketplace/slots': () => json(200, { slots: [], total: 0, totalIsExact: true, totalPages: 0, page: 1 }),
      'GET /payments/spend-by-month': () => json(200, months.map((month, i) => ({ month, spent: i === 3 ? 25 : i === 5 ? 40 : 0 }))),
    })
    renderApp('/dashboard')
    const table = await screen.findByRole('table', { name: /Spend by month/ })
    const september = within(table).getByRole('row', { name: /Sep 2026/ })
    expect(within(september).getByRole('cell').textContent).toBe('$25.00')
  })
})
