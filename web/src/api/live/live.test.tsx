import { describe, expect, it } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient } from '@tanstack/react-query'
import { json, renderApp } from '@/test/utils'
import { mockStream } from '@/test/sse'
import { buyer, makeBid, makeSlot, page, signedIn, toastWith } from '@/test/fixtures'
import { KEYS } from '@/api/keys'
import { applyBidEvent, applySlotEvent, patchSlotIn } from './cache'
import { parseLiveEvent } from './events'
import { backoffDelay, streamUrl } from './stream'

const moved = { id: 'slot-1', currentBid: 52, bidCount: 3, bidderCount: 2, auctionEnd: '2030-01-01T00:02:00Z', status: 'ACTIVE' }

describe('live events into the query cache', () => {
  it('a slot event reaches every copy of the slot: marketplace pages, the slot itself, bids that hold it', () => {
    const client = new QueryClient()
    const other = makeSlot({ id: 'slot-2' })
    client.setQueryData(KEYS.slots({ q: '' }), { pages: [{ slots: [makeSlot(), other], total: 2, totalIsExact: true, page: 1, totalPages: 1 }], pageParams: [1] })
    client.setQueryData(KEYS.slot('slot-1'), makeSlot())
    client.setQueryData(KEYS.buyerBids, [makeBid()])

    applySlotEvent(client, moved, 'BUYER')

    const pages = client.getQueryData<{ pages: { slots: ReturnType<typeof makeSlot>[] }[] }>(KEYS.slots({ q: '' }))!
    expect(pages.pages[0]!.slots[0]).toMatchObject({ currentBid: 52, bidCount: 3, bidderCount: 2, auctionEnd: '2030-01-01T00:02:00Z' })
    expect(pages.pages[0]!.slots[1]).toBe(other) // untouched slots keep their identity
    expect(client.getQueryData<{ currentBid: number }>(KEYS.slot('slot-1'))!.currentBid).toBe(52)
    expect(client.getQueryData<ReturnType<typeof makeBid>[]>(KEYS.buyerBids)![0]!.pinSlot.currentBid).toBe(52)
  })

  it('an event older than what is shown changes nothing, and a closed auction does not reopen', () => {
    const shown = makeSlot({ currentBid: 60, bidCount: 4 })
    expect(patchSlotIn(shown, moved)).toBe(shown)
    const closed = makeSlot({ status: 'CLOSED', bidCount: 3 })
    expect(patchSlotIn(closed, moved)).toBe(closed)
    expect(patchSlotIn(makeSlot({ bidCount: 3 }), { ...moved, status: 'CLOSED' })).toMatchObject({ status: 'CLOSED' })
  })

  it('a withdrawal lowers the bidders shown without a new bid action; an event without the figure keeps it', () => {
    const shown = makeSlot({ currentBid: 52, bidCount: 3, bidderCount: 2, auctionEnd: moved.auctionEnd })
    expect(patchSlotIn(shown, { ...moved, currentBid: 40, bidderCount: 1 })).toMatchObject({ bidCount: 3, bidderCount: 1, currentBid: 40 })
    expect(patchSlotIn(shown, { ...moved, bidderCount: undefined })).toBe(shown)
  })

  it('a bid event writes status and amount into My Bids and answers the status before', () => {
    const client = new QueryClient()
    client.setQueryData(KEYS.buyerBids, [makeBid()])
    expect(applyBidEvent(client, { id: 'bid-1', slotId: 'slot-1', status: 'OUTBID', amount: 45 })).toBe('ACTIVE')
    expect(client.getQueryData<ReturnType<typeof makeBid>[]>(KEYS.buyerBids)![0]).toMatchObject({ status: 'OUTBID', amount: 45 })
  })

  it('reads the stream: known events typed, unknown or malformed ones dropped', () => {
    expect(parseLiveEvent('slot', JSON.stringify(moved))).toEqual({ type: 'slot', data: moved })
    expect(parseLiveEvent('end', '{"reason":"revoked"}')).toEqual({ type: 'end', reason: 'revoked' })
    expect(parseLiveEvent('slot', '{"id":"slot-1"}')).toBeNull()
    expect(parseLiveEvent('slot', 'not json')).toBeNull()
    expect(parseLiveEvent('something-new', '{}')).toBeNull()
    expect(streamUrl('/api/', ['a', 'b'])).toBe('/api/events/stream?slots=a,b')
    expect(streamUrl('/api', [])).toBe('/api/events/stream')
    expect(backoffDelay(0, () => 0.5)).toBe(1000)
    expect(backoffDelay(3, () => 0.5)).toBe(8000)
    expect(backoffDelay(20, () => 1)).toBe(36000)
  })
})

describe('the live stream on screen', () => {
  const marketplace = (stream: ReturnType<typeof mockStream>, extra = {}) =>
    signedIn(buyer, {
      'GET /marketplace/categories': () => json(200, []),
      'GET /marketplace/slots': () => page([makeSlot()]),
      'GET /events/stream': stream.route,
      ...extra,
    })

  it('subscribes the cards on screen with the bearer token, and a slot event moves the card', async () => {
    const stream = mockStream()
    marketplace(stream)
    renderApp('/marketplace')
    const card = within((await screen.findByRole('heading', { name: 'Sunrise yoga reel' }, { timeout: 15_000 })).closest('article')!)
    expect(card.getByTestId('slot-current-bid')).toHaveTextContent('$40.00')
    await waitFor(() => expect(stream.urls().some((u) => u.searchParams.get('slots') === 'slot-1')).toBe(true))
    expect(stream.requests().every((r) => r.headers.get('Authorization') === 'Bearer t')).toBe(true)

    stream.send('slot', { ...moved, auctionEnd: new Date(Date.now() + 90_000).toISOString() })
    await waitFor(() => expect(card.getByTestId('slot-current-bid')).toHaveTextContent('$52.00'))
    expect(card.getByTestId('slot-bid-count')).toHaveTextContent('2 bids') // brands in the running, not bid actions
    expect(card.getByTestId('slot-current-bid')).toHaveClass('live-flash')
    // soft close: the countdown follows the new end, in seconds
    expect(card.getByTestId('slot-time-left')).toHaveTextContent(/1m \d+s left/)

    stream.send('slot', { ...moved, bidCount: 3, status: 'CLOSED' })
    expect(await card.findByRole('button', { name: 'Auction closed: Sunrise yoga reel' })).toBeDisabled()
  })

  it('a new set of slots on screen opens its connection before closing the old one; a slot event refetches no list', async () => {
    const stream = mockStream()
    const api = marketplace(stream)
    renderApp('/marketplace')
    await screen.findByRole('heading', { name: 'Sunrise yoga reel' }, { timeout: 15_000 })
    await waitFor(() => expect(stream.urls().some((u) => u.searchParams.get('slots') === 'slot-1')).toBe(true))
    // the first connection (before the cards registered) is closed once its successor said ready
    await waitFor(() => expect(stream.requests()[0]!.signal.aborted).toBe(true))
    expect(stream.requests().at(-1)!.signal.aborted).toBe(false)
    const listings = () => api.calls.filter((c) => c.path === '/marketplace/slots').length
    const before = listings()
    stream.send('slot', { ...moved, auctionEnd: new Date(Date.now() + 86_400_000).toISOString() })
    await screen.findByText('$52.00')
    expect(listings()).toBe(before)
  })

  it('an outbid tells the brand once, and Bid Again opens the slot', async () => {
    const stream = mockStream()
    marketplace(stream, { 'GET /marketplace/slots/slot-1': () => json(200, makeSlot({ currentBid: 52 })) })
    renderApp('/marketplace')
    await screen.findByRole('heading', { name: 'Sunrise yoga reel' }, { timeout: 15_000 })
    await waitFor(() => expect(stream.urls().length).toBeGreaterThan(0))
    const outbid = { id: 'bid-9', slotId: 'slot-1', status: 'OUTBID', amount: 45, slotTitle: 'Sunrise yoga reel' }
    stream.send('bid', outbid)
    stream.send('bid', outbid)
    await toastWith('You were outbid on Sunrise yoga reel')
    expect(screen.getAllByText('You were outbid on Sunrise yoga reel')).toHaveLength(1)
    await userEvent.click(screen.getByRole('button', { name: 'Bid Again' }))
    const sheet = within(await screen.findByRole('dialog'))
    expect(sheet.getByTestId('panel-current-bid')).toHaveTextContent('$52.00')
  })

  it("a campaign's outbid bid points to its campaign, not to Bid Again", async () => {
    const stream = mockStream()
    marketplace(stream, { 'GET /buyer/bids': () => json(200, [makeBid({ id: 'bid-c', status: 'ACTIVE', campaignId: 'camp-1', campaignName: 'Fitness, December' })]) })
    renderApp('/my-bids')
    await screen.findByRole('link', { name: 'Fitness, December' }, { timeout: 15_000 })
    await waitFor(() => expect(stream.urls().length).toBeGreaterThan(0))
    stream.send('bid', { id: 'bid-c', slotId: 'slot-1', status: 'OUTBID', amount: 45, currentBid: 52, slotTitle: 'Sunrise yoga reel' })
    await toastWith('You were outbid on Sunrise yoga reel', 'The current bid is now $52.00. Your campaign “Fitness, December” placed this bid.')
    expect(screen.queryByRole('button', { name: 'Bid Again' })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'View campaign' }))
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/campaigns/camp-1'))
  })

  it('a stream ended by the server (revoked token) is the 403 rule: token dropped, to /login', async () => {
    const stream = mockStream()
    marketplace(stream)
    renderApp('/marketplace')
    await screen.findByRole('heading', { name: 'Sunrise yoga reel' }, { timeout: 15_000 })
    await waitFor(() => expect(stream.urls().length).toBeGreaterThan(0))
    stream.send('end', { reason: 'revoked' })
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'))
    expect(localStorage.getItem('token')).toBeNull()
  })

  it('a 403 before the stream starts is the 403 rule too', async () => {
    marketplace(mockStream(), { 'GET /events/stream': () => json(403, { detail: 'Session expired.', code: 'forbidden' }) })
    renderApp('/marketplace')
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'), { timeout: 15_000 })
    expect(localStorage.getItem('token')).toBeNull()
  })
})
