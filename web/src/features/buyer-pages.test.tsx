import { describe, expect, it } from 'vitest'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, renderApp } from '@/test/utils'
import { buyer, makeBid, makeSlot, page, signedIn, toastWith, type Bid } from '@/test/fixtures'
import { NARROW_TO_SEE_MORE } from './buyer/MarketplacePage'

const slot = makeSlot
const bid = (status: string, over: Partial<Bid> = {}) =>
  makeBid({ id: `bid-${status}`, status, pinSlot: slot({ title: `Slot ${status}` }), ...over })

describe('marketplace', () => {
  it("counts, empty text, 'Active' badge, Clear All and Load More", async () => {
    const seen: string[] = []
    signedIn(buyer, {
      'GET /marketplace/categories': () => json(200, ['fashion', 'tech', 'fitness']),
      'GET /marketplace/slots': (_body, req) => {
        const url = new URL((req as Request).url)
        seen.push(url.search)
        if (url.searchParams.get('category') === 'tech') return page([])
        if (url.searchParams.get('page') === '2') return page([slot({ id: 's11', title: 'Eleventh' })], 11, 2, 2)
        return page(Array.from({ length: 10 }, (_, i) => slot({ id: `s${i}`, title: `Slot ${i}` })), 11, 1, 2)
      },
    })
    renderApp('/marketplace')
    // the first render compiles the lazy page chunk: allow it time
    await screen.findByText('Showing 10 of 11 pin slots', {}, { timeout: 15_000 })
    await userEvent.click(screen.getByRole('button', { name: 'Load More Pin Slots' }))
    await screen.findByText('Showing 11 of 11 pin slots')
    expect(screen.queryByRole('button', { name: 'Load More Pin Slots' })).not.toBeInTheDocument()
    expect(seen.some((s) => s.includes('page=2'))).toBe(true)

    await userEvent.click(screen.getByRole('button', { name: /Advanced Filters/ }))
    expect(screen.queryByText('Active')).not.toBeInTheDocument()
    const categories = within(screen.getByRole('group', { name: 'Category' }))
    expect(categories.getAllByRole('button')[0]).toHaveTextContent('all')
    await userEvent.click(categories.getByRole('button', { name: 'Tech' }))
    expect(screen.getByText('Active')).toBeInTheDocument()
    await screen.findByText('No pin slots found matching your criteria.')
    expect(seen.some((s) => s.includes('category=tech'))).toBe(true)
    await userEvent.click(screen.getByRole('button', { name: /Clear All/ }))
    expect(screen.queryByText('Active')).not.toBeInTheDocument()
    // back to the unfiltered list, both loaded pages kept
    await screen.findByText('Showing 11 of 11 pin slots')
  })

  it('a total the server stopped counting reads "20+", and the list ends where the pages end', async () => {
    const tens = (from: number) => Array.from({ length: 10 }, (_, i) => slot({ id: `s${from + i}`, title: `Slot ${from + i}` }))
    signedIn(buyer, {
      'GET /marketplace/categories': () => json(200, []),
      'GET /marketplace/slots': (_body, req) => {
        const p = Number(new URL((req as Request).url).searchParams.get('page'))
        return page(tens(p * 10), 20, p, 2, false)
      },
    })
    renderApp('/marketplace')
    await screen.findByText('Showing 10 of 20+ pin slots', {}, { timeout: 15_000 })
    expect(screen.queryByText(NARROW_TO_SEE_MORE)).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Load More Pin Slots' }))
    await screen.findByText('Showing 20 of 20+ pin slots')
    expect(screen.queryByRole('button', { name: 'Load More Pin Slots' })).not.toBeInTheDocument()
    expect(screen.getByText(NARROW_TO_SEE_MORE)).toBeInTheDocument()
  })

  it('a search the server refuses says why, with no Try again that would ask the same', async () => {
    signedIn(buyer, {
      'GET /marketplace/categories': () => json(200, ['fashion', 'tech']),
      'GET /marketplace/slots': (_body, req) =>
        new URL((req as Request).url).searchParams.get('q')
          ? json(422, { detail: 'Search for at least one letter or digit.', code: 'validation_error' })
          : page([slot({ id: 's1', title: 'Latte art' })]),
    })
    renderApp('/marketplace')
    await screen.findByText('Latte art', {}, { timeout: 15_000 })
    await userEvent.type(screen.getByPlaceholderText(/Search/), '%_')
    expect(await screen.findByRole('alert')).toHaveTextContent('Search for at least one letter or digit.')
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument()
  })

  it('the Place a Bid panel: validation toasts, then the payload', async () => {
    const api = signedIn(buyer, {
      'GET /marketplace/categories': () => json(200, []),
      'GET /marketplace/slots': () => page([slot()]),
      'GET /instagram/comments/slot-1': () =>
        json(200, [
          { id: 'c1', comment: '#ad Love it', username: 'northwind', likeCount: 2 },
          { id: 'c2', comment: 'No disclosure here', username: 'northwind', likeCount: 0 },
        ]),
      'POST /buyer/bids': () => json(201, bid('ACTIVE', { amount: 45 })),
    })
    renderApp('/marketplace')
    await userEvent.click(await screen.findByRole('button', { name: 'View Details & Bid: Sunrise yoga reel' }))
    const sheet = within(await screen.findByRole('dialog'))
    const amount = sheet.getByLabelText('Bid amount (USD)')
    expect(amount).toHaveValue('41.00') // current bid + 1
    await userEvent.clear(amount)
    await userEvent.type(amount, '40')
    await userEvent.click(sheet.getByRole('button', { name: 'Place Bid: $40.00' }))
    await toastWith('Invalid Bid Amount', 'Your bid must be higher than the current bid ($40.00) and at least the minimum bid ($25.00).')

    await userEvent.clear(amount)
    await userEvent.type(amount, '45')
    await sheet.findByText('#ad Love it')
    await userEvent.click(sheet.getByRole('button', { name: 'Place Bid: $45.00' }))
    await toastWith('No Comment Selected', 'Please select one of your previous comments to pin.')

    await userEvent.click(sheet.getByLabelText('Write a new comment'))
    await userEvent.click(sheet.getByRole('button', { name: 'Place Bid: $45.00' }))
    await toastWith('Comment is Empty', 'Please write a new comment to pin.')

    await userEvent.click(sheet.getByLabelText('Use a previous comment'))
    // a comment without a disclosure at its start cannot be chosen, and says why
    expect(sheet.getByLabelText(/No disclosure here/)).toBeDisabled()
    expect(sheet.getByText(/Needs an ad disclosure at its start/)).toBeInTheDocument()
    await userEvent.click(sheet.getByLabelText(/Love it/))
    await userEvent.click(sheet.getByRole('switch', { name: /Automatic bidding/ }))
    await userEvent.type(sheet.getByLabelText('Maximum auto-bid (USD)'), '80')
    await userEvent.click(sheet.getByRole('button', { name: 'Place Bid: $45.00' }))
    await toastWith('Bid Placed Successfully!')
    const call = api.calls.find((c) => c.method === 'POST' && c.path === '/buyer/bids')
    // the chosen comment's words travel with its id, so My Bids and the creator's Approvals card can show them
    expect(call?.body).toEqual({ pinSlotId: 'slot-1', amount: 45, autoBidEnabled: true, maxAutoBid: 80, commentId: 'c1', commentUsername: 'northwind', commentText: '#ad Love it' })
  })

  it('not connected (401): the Connect prompt, and a bid without a comment', async () => {
    const api = signedIn(buyer, {
      'GET /marketplace/categories': () => json(200, []),
      'GET /marketplace/slots': () => page([slot({ currentBid: null, bidCount: 0, bidderCount: 0 })]),
      'GET /instagram/comments/slot-1': () => json(401, { detail: 'Connect your Instagram account.', code: 'instagram_not_connected' }),
      'POST /buyer/bids': () => json(400, { detail: 'The auction has ended.', code: 'auction_closed' }),
    })
    renderApp('/marketplace')
    await userEvent.click(await screen.findByRole('button', { name: /View Details & Bid/ }))
    const sheet = within(await screen.findByRole('dialog'))
    await sheet.findByText('Connect Instagram to use one of your comments')
    expect(sheet.queryByLabelText('Use a previous comment')).not.toBeInTheDocument()
    expect(sheet.getByLabelText('Bid amount (USD)')).toHaveValue('25.00') // minBid when nobody has bid
    await userEvent.click(sheet.getByLabelText('Add my comment later'))
    await userEvent.click(sheet.getByRole('button', { name: 'Place Bid: $25.00' }))
    await toastWith('Bid Failed', 'The auction has ended.')
    expect(api.calls.find((c) => c.method === 'POST' && c.path === '/buyer/bids')?.body).toEqual({ pinSlotId: 'slot-1', amount: 25, autoBidEnabled: false })
    // the token was not dropped: 401 is not the 403 rule
    expect(localStorage.getItem('token')).toBe('t')
  })
})

describe('my bids', () => {
  const bids = [
    bid('ACTIVE'),
    bid('OUTBID'),
    bid('AWAITING_PAYMENT', { finalPrice: 30, payment: { status: 'REQUESTED', expiresAt: null, paidAt: null } }),
    bid('PENDING_INFLUENCER_APPROVAL'),
    bid('WON', { payment: { status: 'COMPLETED', expiresAt: null, paidAt: null } }),
    bid('PINNED', { pinnedComment: { commentText: 'x', likes: 3, replies: 1, clicks: 0, status: 'ACTIVE', pinnedAt: null } }),
    bid('EXPIRED'),
  ]

  it('counters, tabs and per-status controls', async () => {
    signedIn(buyer, { 'GET /buyer/bids': () => json(200, bids) })
    renderApp('/my-bids')
    const active = within(await screen.findByRole('tabpanel'))
    expect(active.getByText('Slot ACTIVE')).toBeInTheDocument()
    expect(active.getByText(/left$/)).toBeInTheDocument()
    expect(active.getByRole('button', { name: 'Bid Again' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('tab', { name: /Won/ }))
    const won = within(screen.getByRole('tabpanel'))
    expect(won.getByRole('button', { name: 'Pay Now' })).toBeInTheDocument()
    expect(won.getByText('Pending Approval')).toBeInTheDocument()
    expect(won.getByText('Waiting for the creator to pin the comment')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('tab', { name: /Live/ }))
    expect(within(screen.getByRole('tabpanel')).getByText('Slot PINNED')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('tab', { name: /Past/ }))
    expect(within(screen.getByRole('tabpanel')).getByText('Slot EXPIRED')).toBeInTheDocument()
  })

  it('empty texts', async () => {
    signedIn(buyer, { 'GET /buyer/bids': () => json(200, []) })
    renderApp('/my-bids')
    await screen.findByText('No active bids.')
    await userEvent.click(screen.getByRole('tab', { name: /Won/ }))
    expect(screen.getByText('No won auctions.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('tab', { name: /Live/ }))
    expect(screen.getByText('No live pins.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('tab', { name: /Past/ }))
    expect(screen.getByText('No past bids.')).toBeInTheDocument()
  })

  it('payment query toasts and the load failure', async () => {
    signedIn(buyer, { 'GET /buyer/bids': () => json(500, { detail: 'boom' }) })
    renderApp('/my-bids?payment=cancelled')
    await toastWith('Payment Cancelled', 'Your payment has been cancelled.')
    await screen.findByText('Failed to load bids. Please try again later.')
  })

  it('Payment Successful', async () => {
    signedIn(buyer, { 'GET /buyer/bids': () => json(200, []) })
    renderApp('/my-bids?payment=success')
    await toastWith('Payment Successful', 'Your payment has been processed.')
  })
})
