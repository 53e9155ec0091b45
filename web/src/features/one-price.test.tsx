import { describe, expect, it } from 'vitest'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, renderApp } from '@/test/utils'
import { buyer, creator, makeBid, makeSlot, page, signedIn } from '@/test/fixtures'
import { leaderPaysLine, minimumNextBid, validateBidAmount } from '@/lib/bids'
import { bidPlacedText } from './buyer/place-bid'

// The auction: A bid $12.50, B bid $14 with automatic bidding up to $25. One price for everyone: the
// current bid is what the leader (B) would pay if it ended now, A's $12.50; B's own $14 and $25 stay its own.
const contested = makeSlot({ minBid: 10, currentBid: 12.5, bidCount: 2 })

describe('one price', () => {
  it('the minimum next bid follows the accepting rule x > currentBid on the second price', () => {
    const alone = { minBid: 20, currentBid: 20 } // a single $25 bid on a $20 minimum shows $20
    expect(minimumNextBid(alone)).toBe(20.01)
    expect(validateBidAmount('20', alone)).toBe('Your bid must be higher than the current bid ($20.00) and at least the minimum bid ($20.00).')
    expect(validateBidAmount('20.01', alone)).toBeNull()
    expect(minimumNextBid(contested)).toBe(12.51)
    expect(leaderPaysLine(contested)).toBe('You are leading: you would pay $12.50 if the auction ended now.')
  })

  it('the toast after a bid that leads says what it would pay when that is below its own bid', () => {
    const placed = { status: 'ACTIVE', amount: 14, maxAutoBid: 25, autoBidEnabled: true, pinSlot: { currentBid: 12.5 } }
    expect(bidPlacedText(placed)).toBe('You are the highest bidder at $14.00, with a maximum of $25.00. If the auction ended now you would pay $12.50.')
    expect(bidPlacedText({ ...placed, amount: 12.5 })).toBe('You are the highest bidder at $12.50, with a maximum of $25.00.')
  })

  it('the card and the bid panel show the price the leader would pay, and the leader its own bid and maximum', async () => {
    const mine = makeBid({ amount: 14, maxAutoBid: 25, autoBidEnabled: true, pinSlot: contested })
    signedIn(buyer, {
      'GET /marketplace/categories': () => json(200, []),
      'GET /marketplace/slots': () => page([contested]),
      'GET /instagram/comments/slot-1': () => json(401, { detail: 'Connect Instagram.', code: 'instagram_not_connected' }),
      'GET /buyer/bids': () => json(200, [mine]),
    })
    renderApp('/marketplace')
    const card = await screen.findByTestId('slot-current-bid', {}, { timeout: 15_000 })
    expect(card).toHaveTextContent('$12.50')
    await userEvent.click(screen.getByRole('button', { name: /Sunrise yoga reel/ }))
    const sheet = within(await screen.findByRole('dialog'))
    expect(sheet.getByTestId('panel-current-bid')).toHaveTextContent('$12.50')
    expect(sheet.getByTestId('panel-minimum-next')).toHaveTextContent('$12.51')
    expect(sheet.getByText('Your bid').nextSibling).toHaveTextContent('$14.00')
    expect(sheet.getByText('Your maximum').nextSibling).toHaveTextContent('$25.00')
    expect(sheet.getByTestId('panel-leader-pays')).toHaveTextContent('you would pay $12.50 if the auction ended now')
  })

  it('My Bids shows a bid its own amount and "Your maximum", and the leader what it would pay now', async () => {
    const leading = makeBid({ id: 'b-lead', amount: 14, maxAutoBid: 25, autoBidEnabled: true, pinSlot: contested })
    const plain = makeBid({ id: 'b-out', status: 'OUTBID', amount: 12.5, pinSlot: makeSlot({ id: 'slot-2', title: 'Other reel', currentBid: 30 }) })
    signedIn(buyer, { 'GET /buyer/bids': () => json(200, [leading, plain]) })
    renderApp('/my-bids')
    const rows = within(await screen.findByRole('tabpanel')).getAllByRole('article')
    const [lead, out] = rows.map((row) => within(row))
    expect(lead.getByText('Your bid').nextSibling).toHaveTextContent('$14.00')
    expect(lead.getByText('Your maximum').nextSibling).toHaveTextContent('$25.00')
    expect(lead.getByText('Current bid').nextSibling).toHaveTextContent('$12.50')
    expect(lead.getByTestId('bid-leader-pays')).toHaveTextContent('You are leading: you would pay $12.50 if the auction ended now.')
    // a bid without an automatic maximum: its maximum is its own amount; no leader line
    expect(out.getByText('Your maximum').nextSibling).toHaveTextContent('$12.50')
    expect(out.queryByTestId('bid-leader-pays')).toBeNull()
  })

  it("the creator's bid history says what the price means and what the leader would pay", async () => {
    const history = [
      { id: 'h1', amount: 14, status: 'ACTIVE', createdAt: '2026-01-02T00:00:00Z', updatedAt: '2026-01-02T00:00:00Z', user: { name: 'Brand B', email: 'b@b.test' } },
      { id: 'h2', amount: 12.5, status: 'OUTBID', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', user: { name: 'Brand A', email: 'a@b.test' } },
    ]
    const prices = [{ at: '2026-01-01T00:00:00Z', price: 10 }, { at: '2026-01-01T00:00:00Z', price: 10 }, { at: '2026-01-02T00:00:00Z', price: 12.5 }]
    signedIn(creator, {
      'GET /influencer/dashboard': () => json(200, { activeSlots: 1, pendingApprovals: 0, totalEarnings: 0, completedJobs: 0 }),
      'GET /influencer/pin-slots/active': () => json(200, [{ ...contested, bids: history, priceHistory: prices }]),
      'GET /notifications': () => json(200, []),
    })
    renderApp('/dashboard')
    expect(await screen.findByText('Current bid $12.50')).toBeInTheDocument()
    await userEvent.click(await screen.findByRole('button', { name: 'View Bidders (2)' }))
    const sheet = within(await screen.findByRole('dialog'))
    expect(sheet.getByTestId('history-current-bid')).toHaveTextContent('Current bid $12.50 · what the leading brand would pay if the auction ended now')
    expect(sheet.getByText('would pay $12.50')).toBeInTheDocument()
    // the chart draws the same one price as it moved
    const chart = within(await sheet.findByRole('table', { name: 'Price over time for Sunrise yoga reel' }))
    expect(chart.getAllByRole('cell').map((c) => c.textContent)).toEqual(['$10.00', '$10.00', '$12.50'])
  })
})
