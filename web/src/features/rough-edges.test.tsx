import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, mockApi, renderApp } from '@/test/utils'
import { buyer, creator, makeBid, makeSlot, page, signedIn, toastWith, type Bid, type Slot } from '@/test/fixtures'
import { connectReturn, payingBid } from '@/lib/return-notes'
import { bidPlacedText } from './buyer/place-bid'
import { slotFormProblem } from './creator/slot-form'

const slot = (over: Partial<Slot> = {}) => makeSlot({ bidCount: 5, ...over })
const bid = (over: Partial<Bid> = {}) => makeBid({ pinSlot: slot(), ...over })

afterEach(() => sessionStorage.clear())

describe('a leader raises their own bid', () => {
  it('the panel shows the visible bid and the maximum, keeps the comment, and says what moved', async () => {
    const mine = bid({ amount: 40, maxAutoBid: 60, autoBidEnabled: true })
    const api = signedIn(buyer, {
      'GET /marketplace/categories': () => json(200, []),
      'GET /marketplace/slots': () => page([slot()]),
      'GET /buyer/bids': () => json(200, [mine]),
      'GET /instagram/comments/slot-1': () => json(200, [{ id: 'c1', comment: 'Love it', username: 'northwind', likeCount: 2 }]),
      'POST /buyer/bids': () => json(201, { ...mine, maxAutoBid: 90 }),
    })
    renderApp('/marketplace')
    const open = await screen.findByRole('button', { name: 'View Details & Bid: Sunrise yoga reel' })
    await userEvent.click(open)
    const sheet = within(await screen.findByRole('dialog'))
    expect((await sheet.findByText('Your bid')).nextSibling).toHaveTextContent('$40.00')
    expect(sheet.getByText('Your maximum').nextSibling).toHaveTextContent('$60.00')
    await sheet.findByText(/You are leading/)
    expect(await sheet.findByLabelText(/Keep my comment/)).toBeChecked()
    await userEvent.clear(sheet.getByLabelText('Bid amount (USD)'))
    await userEvent.type(sheet.getByLabelText('Bid amount (USD)'), '90')
    await userEvent.click(sheet.getByRole('button', { name: 'Place Bid: $90.00' }))
    // more than twice the current price: the amount is named and confirmed first
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Bid $90.00' }))
    await toastWith('Your maximum is now $90.00. Your visible bid stays at $40.00 until someone bids against you.')
    // naming no comment keeps the one the bid has
    expect(api.calls.find((c) => c.method === 'POST' && c.path === '/buyer/bids')?.body).toEqual({ pinSlotId: 'slot-1', amount: 90, autoBidEnabled: false })
    // the panel closed: focus is back on the button that opened it
    await waitFor(() => expect(open).toHaveFocus())
  })

  it('My Bids shows the maximum beside the visible bid, and a comment chosen by id', async () => {
    signedIn(buyer, { 'GET /buyer/bids': () => json(200, [bid({ amount: 40, maxAutoBid: 90, autoBidEnabled: true, comment: 'Summer drop', commentId: 'c7', commentUsername: 'northwind' })]) })
    renderApp('/my-bids')
    const row = within(await screen.findByRole('article'))
    expect(row.getByText('Your bid').nextSibling).toHaveTextContent('$40.00')
    expect(row.getByText('Your maximum').nextSibling).toHaveTextContent('$90.00')
    expect(row.getByText(/Summer drop/)).toHaveTextContent('Comment: @northwind Summer drop')
  })
})

describe('coming back from another site', () => {
  it('connecting Instagram from the bid panel returns to the same slot with the panel open', async () => {
    const assign = vi.fn()
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign } as Location)
    signedIn(buyer, {
      'GET /marketplace/categories': () => json(200, []),
      'GET /marketplace/slots': () => page([slot()]),
      'GET /buyer/bids': () => json(200, []),
      'GET /marketplace/slots/slot-1': () => json(200, slot()),
      'GET /instagram/comments/slot-1': () => json(401, { detail: 'Connect your Instagram account.', code: 'instagram_not_connected' }),
      'GET /instagram/connect': () => json(200, { url: 'https://instagram.example/authorize?state=s' }),
    })
    const first = renderApp('/marketplace')
    await userEvent.type(await screen.findByLabelText('Search pin slots'), 'yoga')
    await userEvent.click(await screen.findByRole('button', { name: 'View Details & Bid: Sunrise yoga reel' }))
    await userEvent.click(await within(await screen.findByRole('dialog')).findByRole('button', { name: 'Connect Instagram' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://instagram.example/authorize?state=s'))
    vi.restoreAllMocks()
    first.unmount()

    renderApp('/marketplace?connected=1')
    await toastWith('Instagram Connected')
    const sheet = within(await screen.findByRole('dialog'))
    await sheet.findByText('Sunrise yoga reel')
    expect(connectReturn.take()).toBeNull() // used once
    expect(screen.getByLabelText('Search pin slots')).toHaveValue('yoga') // the search the brand left with
  })

  it('after paying, My Bids opens on the tab that holds the paid bid, highlighted', async () => {
    payingBid.remember('bid-paid')
    signedIn(buyer, {
      'GET /buyer/bids': () =>
        json(200, [
          bid({ id: 'bid-live', status: 'ACTIVE', pinSlot: slot({ title: 'Still bidding' }) }),
          bid({ id: 'bid-paid', status: 'WON', finalPrice: 30, payment: { status: 'COMPLETED', expiresAt: null, paidAt: null }, pinSlot: slot({ id: 's2', title: 'Paid slot', status: 'CLOSED' }) }),
        ]),
    })
    renderApp('/my-bids?payment=success')
    await toastWith('Payment Successful')
    await waitFor(() => expect(screen.getByRole('tab', { name: /Won/ })).toHaveAttribute('aria-selected', 'true'))
    const paid = screen.getByText('Paid slot').closest('article')
    expect(paid).toHaveAttribute('aria-current', 'true')
  })
})

describe('the creator dashboard', () => {
  it('"View Bidders (n)" counts bidders, not bid actions, and End Auction asks first', async () => {
    const history = [
      { id: 'h1', amount: 52, status: 'ACTIVE', createdAt: '2026-01-02T00:00:00Z', updatedAt: '2026-01-02T00:00:00Z', user: { name: 'Northwind', email: 'n@b.test' } },
      { id: 'h2', amount: 51, status: 'OUTBID', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', user: { name: 'Acme', email: 'a@b.test' } },
      { id: 'h3', amount: 30, status: 'CANCELLED', createdAt: '2025-12-31T00:00:00Z', updatedAt: '2025-12-31T00:00:00Z', user: { name: 'Northwind', email: 'n@b.test' } },
      // withdrawn (a suspension, a tie): no longer in the running, so neither counted nor listed
      { id: 'h4', amount: 55, status: 'CANCELLED', createdAt: '2026-01-03T00:00:00Z', updatedAt: '2026-01-03T00:00:00Z', user: { name: 'Globex', email: 'g@b.test' } },
    ]
    const api = signedIn(creator, {
      'GET /influencer/dashboard': () => json(200, { activeSlots: 1, pendingApprovals: 0, totalEarnings: 0, completedJobs: 0 }),
      'GET /influencer/pin-slots/active': () => json(200, [slot({ bidCount: 7, bids: history })]),
      'GET /notifications': () => json(200, []),
    })
    renderApp('/dashboard')
    const view = await screen.findByRole('button', { name: 'View Bidders (2)' })
    await userEvent.click(view)
    const sheet = within(await screen.findByRole('dialog'))
    expect(sheet.getAllByRole('listitem')).toHaveLength(2)
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(view).toHaveFocus())

    await userEvent.click(screen.getByRole('button', { name: 'End Auction' }))
    const ask = within(await screen.findByRole('alertdialog', { name: 'End this auction now?' }))
    ask.getByText(/the highest bidder wins \(2 bidders\).*This cannot be undone\./)
    await userEvent.click(ask.getByRole('button', { name: 'Cancel' }))
    expect(api.called('POST', '/influencer/pin-slots/slot-1/end-auction')).toBe(false)
  })
})

describe('wording and role', () => {
  it('one slot is "1 opportunity found"', async () => {
    signedIn(buyer, {
      'GET /buyer/dashboard': () => json(200, { activeBids: 0, wonAuctions: 0, totalSpent: 0 }),
      'GET /marketplace/slots': () => page([slot()]),
    })
    renderApp('/dashboard')
    await screen.findByText('1 opportunity found')
  })

  it('a large total is grouped, and one the server stopped counting says so: "10,000+ opportunities found"', async () => {
    let answer = { total: 12_345, totalIsExact: true }
    signedIn(buyer, {
      'GET /buyer/dashboard': () => json(200, { activeBids: 0, wonAuctions: 0, totalSpent: 0 }),
      'GET /marketplace/slots': () => page([slot()], answer.total, 1, 1000, answer.totalIsExact),
    })
    renderApp('/dashboard')
    await screen.findByText('12,345 opportunities found')
    answer = { total: 10_000, totalIsExact: false }
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search pin slots' }), 'latte')
    await screen.findByText('10,000+ opportunities found')
  })

  it('brands see only brand settings', async () => {
    signedIn(buyer, { 'GET /notifications/preferences': () => json(200, { newBids: true, approvals: true, payouts: true, marketing: false }) })
    renderApp('/settings')
    await screen.findByRole('switch', { name: 'Outbid alerts' })
    expect(screen.queryByRole('switch', { name: 'Auto-post approved comments' })).not.toBeInTheDocument()
    expect(screen.queryByRole('switch', { name: 'Auto-pin paid comments' })).not.toBeInTheDocument()
    expect(screen.queryByText(/placed on your slot/)).not.toBeInTheDocument()
  })
})

describe('small things', () => {
  it('the slot form problem goes away as soon as the fields are fixed', () => {
    const fields = { title: '', category: 'food', minBid: '10', buyNow: '' }
    expect(slotFormProblem(fields)).toBe('Give the slot a title, a category and a minimum bid.')
    expect(slotFormProblem({ ...fields, title: 'Latte art' })).toBeNull()
    expect(slotFormProblem({ ...fields, title: 'Latte art', buyNow: '5' })).toBe('The Buy Now price must be at least the minimum bid.')
    expect(slotFormProblem({ ...fields, title: 'Latte art', buyNow: '15' })).toBeNull()
  })

  it('the slot form reads prices as people type them', () => {
    const fields = { title: 'Latte art', category: 'food', minBid: '12,50', buyNow: '1.250,00' }
    expect(slotFormProblem(fields)).toBeNull()
    expect(slotFormProblem({ ...fields, buyNow: '12,49' })).toBe('The Buy Now price must be at least the minimum bid.')
    expect(slotFormProblem({ ...fields, minBid: '12.345' })).toMatch(/^Minimum bid: “12.345” can be read two ways/)
    expect(slotFormProblem({ ...fields, buyNow: '2000000' })).toBe('Buy Now price: The amount must be at most $1,000,000.00.')
  })

  it('an unknown blog post sets the page title', async () => {
    mockApi({ 'GET /blog/articles/no-such-post': () => json(404, { detail: 'Not found.', code: 'not_found' }) })
    renderApp('/blog/no-such-post')
    await screen.findByText('Blog post not found.')
    await waitFor(() => expect(document.title).toBe('Blog post not found — Pinbid'))
  })
})

describe('the bid toast', () => {
  const leading = { status: 'ACTIVE', amount: 40, maxAutoBid: 60, autoBidEnabled: true }
  it('says what moved when a leader raises', () => {
    expect(bidPlacedText({ ...leading, maxAutoBid: 90 }, leading)).toBe('Your maximum is now $90.00. Your visible bid stays at $40.00 until someone bids against you.')
    expect(bidPlacedText(leading, leading)).toBe('Your maximum stays at $60.00, above this amount. Your visible bid stays at $40.00 until someone bids against you.')
  })
  it('otherwise names the price, and the maximum when there is one', () => {
    expect(bidPlacedText({ status: 'ACTIVE', amount: 41, maxAutoBid: null, autoBidEnabled: false })).toBe('You are the highest bidder at $41.00.')
    expect(bidPlacedText({ status: 'ACTIVE', amount: 41, maxAutoBid: 80, autoBidEnabled: true })).toBe('You are the highest bidder at $41.00, with a maximum of $80.00.')
    expect(bidPlacedText({ status: 'OUTBID', amount: 50, maxAutoBid: null, autoBidEnabled: false })).toBe("Your bid of $50.00 was placed, but another bidder's maximum is higher.")
  })
})
