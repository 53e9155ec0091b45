import { afterEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, makeUser, mockApi, renderApp } from '@/test/utils'
import { logIn } from '@/test/login'
import { mockStream } from '@/test/sse'
import { buyer, creator, makeBid, makeNotice, makeSlot, page, signedIn, toastWith, type Bid } from '@/test/fixtures'
import { alreadyTold, forgetTold, toldByAction, TOLD_FOR_MS } from '@/lib/told'
import { newAccount } from '@/lib/return-notes'

afterEach(() => {
  sessionStorage.clear()
  forgetTold()
})

const paid = { status: 'COMPLETED', expiresAt: null, paidAt: null }
const notice = (id: string, over: Record<string, unknown> = {}) => makeNotice(id, { link: '/approvals', ...over })

describe('the app path leads to the post', () => {
  it('every Approvals card opens the post on Instagram, and names the brand, never its e-mail', async () => {
    signedIn(creator, {
      'GET /influencer/approvals': () =>
        json(200, [
          makeBid({ id: 'bid-won', status: 'WON', payment: paid }),
          makeBid({ id: 'bid-new', status: 'PENDING_INFLUENCER_APPROVAL', pinSlot: makeSlot({ post: { imageUrl: '/i.png', mediaType: 'IMAGE', permalink: 'javascript:alert(1)', instagramId: '2' } }) }),
        ]),
      'GET /instagram/connection': () => json(200, { connected: true, pinMethod: 'MANUAL' }),
    })
    renderApp('/approvals#bid-bid-won')
    await screen.findAllByRole('link', { name: /Open the post on Instagram/ })
    const won = within(document.getElementById('bid-bid-won')!)
    expect(won.getByRole('link', { name: /Open the post on Instagram/ })).toHaveAttribute('href', 'https://instagram.example/p/1')
    expect(won.getByRole('link', { name: /Open the post on Instagram/ })).toHaveAttribute('target', '_blank')
    expect(won.getByRole('heading', { name: 'Northwind' })).toBeInTheDocument()
    // only a web address is linked
    const fresh = within(document.getElementById('bid-bid-new')!)
    expect(fresh.queryByRole('link', { name: /Open the post/ })).toBeNull()
    expect(fresh.getByRole('heading', { name: 'Northwind' })).toBeInTheDocument()
    expect(screen.queryByText('brand@example.com')).toBeNull()
  })
})

/** A buyer on the marketplace with one slot, its bid panel opened; `routes` add to or replace the usual answers. */
async function openBidPanel(routes: Record<string, (body: unknown, req: Request) => Response>) {
  const api = signedIn(buyer, {
    'GET /marketplace/categories': () => json(200, []),
    'GET /marketplace/slots': () => page([makeSlot()]),
    'GET /buyer/bids': () => json(200, []),
    ...routes,
  })
  renderApp('/marketplace')
  await userEvent.click(await screen.findByRole('button', { name: 'View Details & Bid: Sunrise yoga reel' }, { timeout: 15_000 }))
  return { api, sheet: within(await screen.findByRole('dialog')) }
}

describe('Bid Again: one behaviour, wherever it appears', () => {
  const outbid = (over: Partial<Bid> = {}) => makeBid({ id: 'bid-out', status: 'OUTBID', amount: 45, pinSlot: makeSlot({ currentBid: 52 }), ...over })

  it('My Bids: opens the bid panel at the current bid plus 10, places nothing by itself, and the panel says what it placed', async () => {
    const api = signedIn(buyer, {
      'GET /buyer/bids': () => json(200, [outbid()]),
      'GET /instagram/connection': () => json(200, { connected: false }),
      'POST /buyer/bids': (body) => json(201, makeBid({ id: 'bid-out', status: 'ACTIVE', amount: (body as { amount: number }).amount, pinSlot: makeSlot({ currentBid: 53 }) })),
    })
    renderApp('/my-bids')
    await userEvent.click(await screen.findByRole('button', { name: 'Bid Again' }))
    const sheet = within(await screen.findByRole('dialog'))
    expect(sheet.getByLabelText('Bid amount (USD)')).toHaveValue('62.00')
    expect(sheet.getByText(/Bid Again starts at the current bid plus \$10\.00/)).toBeInTheDocument()
    expect(api.called('PUT', '/buyer/bids/bid-out')).toBe(false)
    expect(api.called('POST', '/buyer/bids')).toBe(false)
    await userEvent.click(sheet.getByRole('button', { name: 'Place Bid: $62.00' }))
    await toastWith('Bid Placed Successfully!', /You are the highest bidder at \$62\.00/)
    expect(api.calls.find((c) => c.method === 'POST' && c.path === '/buyer/bids')?.body).toMatchObject({ pinSlotId: 'slot-1', amount: 62 })
  })

  it("the outbid toast's Bid Again opens the same panel at the same amount", async () => {
    const stream = mockStream()
    signedIn(buyer, {
      'GET /marketplace/categories': () => json(200, []),
      'GET /marketplace/slots': () => page([makeSlot()]),
      'GET /marketplace/slots/slot-1': () => json(200, makeSlot({ currentBid: 52 })),
      'GET /instagram/connection': () => json(200, { connected: false }),
      'GET /events/stream': stream.route,
    })
    renderApp('/marketplace')
    await screen.findByRole('heading', { name: 'Sunrise yoga reel' }, { timeout: 15_000 })
    await waitFor(() => expect(stream.urls().length).toBeGreaterThan(0))
    stream.send('bid', { id: 'bid-9', slotId: 'slot-1', status: 'OUTBID', amount: 45, slotTitle: 'Sunrise yoga reel' })
    await toastWith('You were outbid on Sunrise yoga reel')
    await userEvent.click(screen.getByRole('button', { name: 'Bid Again' }))
    const sheet = within(await screen.findByRole('dialog'))
    expect(sheet.getByLabelText('Bid amount (USD)')).toHaveValue('62.00')
  })

  it("the marketplace's own Place Bid still starts at the current bid plus 1", async () => {
    const { sheet } = await openBidPanel({
      'GET /marketplace/slots': () => page([makeSlot({ currentBid: 52 })]),
      'GET /instagram/connection': () => json(200, { connected: false }),
    })
    expect(sheet.getByLabelText('Bid amount (USD)')).toHaveValue('53.00')
  })
})

describe('the bid panel without Instagram', () => {
  it('asks for the connection first and never for the comments (no 401 in the console)', async () => {
    const { api, sheet } = await openBidPanel({
      'GET /instagram/connection': () => json(200, { connected: false }),
      'GET /instagram/comments/slot-1': () => json(401, { detail: 'Connect Instagram first.', code: 'instagram_not_connected' }),
    })
    expect(await sheet.findByText('Connect Instagram to use one of your comments')).toBeInTheDocument()
    expect(api.called('GET', '/instagram/connection')).toBe(true)
    expect(api.called('GET', '/instagram/comments/slot-1')).toBe(false)
  })

  it('connected: the comments are read and offered', async () => {
    const { api, sheet } = await openBidPanel({
      'GET /instagram/connection': () => json(200, { connected: true }),
      'GET /instagram/comments/slot-1': () => json(200, [{ id: 'c1', comment: 'Love it', username: 'northwind', likeCount: 2 }]),
    })
    expect(await sheet.findByText(/Love it/)).toBeInTheDocument()
    expect(api.called('GET', '/instagram/comments/slot-1')).toBe(true)
  })
})

/** A buyer on My Bids (no bids) with the live stream open; returns the stream. */
async function myBidsStreaming() {
  const stream = mockStream()
  signedIn(buyer, { 'GET /buyer/bids': () => json(200, []), 'GET /events/stream': stream.route })
  renderApp('/my-bids')
  await screen.findByText('No active bids.')
  await waitFor(() => expect(stream.urls().length).toBeGreaterThan(0))
  return stream
}

describe('a session ended by the server says why on the login page', () => {
  it("a call refused with the 403 body's code and detail", async () => {
    signedIn(buyer, { 'GET /buyer/bids': () => json(403, { detail: 'This account is suspended: spam bids. Contact Pinbid support if you think this is a mistake.', code: 'account_suspended' }) })
    renderApp('/my-bids')
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'))
    const note = await screen.findByTestId('signed-out')
    expect(note).toHaveTextContent('Your account was suspended.')
    expect(note).toHaveTextContent('This account is suspended: spam bids.')
    expect(localStorage.getItem('token')).toBeNull()
  })

  it("the suspension's notice gives its words; the stream's end after it does not replace them", async () => {
    const stream = await myBidsStreaming()
    stream.send('notification', { notification: notice('s1', { kind: 'account.suspended', title: 'Your account was suspended', message: 'Pinbid suspended your account: spam bids.', link: '/' }), unreadCount: 1 })
    stream.send('end', { reason: 'revoked' })
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'))
    expect(await screen.findByTestId('signed-out')).toHaveTextContent('Pinbid suspended your account: spam bids.')
  })

  it('a stream ended alone says the session was ended', async () => {
    const stream = await myBidsStreaming()
    stream.send('end', { reason: 'revoked' })
    expect(await screen.findByTestId('signed-out')).toHaveTextContent('You were signed out.Your session was ended on the server. Please sign in again.')
  })

  it('a failed log in is not a sign-out: no note', async () => {
    mockApi({ 'POST /auth/login': () => json(403, { detail: 'Login failed.', code: 'login_failed' }), 'GET /auth/me': () => json(403, { detail: 'x', code: 'not_signed_in' }) })
    renderApp('/login')
    await logIn('a@example.com', 'wrong-password')
    await screen.findByText('Login failed. Please check your credentials and try again.')
    expect(screen.queryByTestId('signed-out')).toBeNull()
  })
})

describe('one action, one toast', () => {
  it('a notice the action already told is kept in the bell but not toasted again; others are', async () => {
    const stream = mockStream()
    signedIn(creator, {
      'GET /influencer/approvals': () => json(200, [makeBid({ id: 'bid-WON', status: 'WON', payment: paid })]),
      'GET /instagram/connection': () => json(200, { connected: true, pinMethod: 'SESSION' }),
      'PUT /influencer/pin-comment/bid-WON': () => json(200, { bidId: 'bid-WON', commentId: 'c', commentText: 'Great reel #ad', status: 'PINNED', detail: 'ok' }),
      'GET /notifications/unread-count': () => json(200, { unreadCount: 0 }),
      'GET /events/stream': stream.route,
    })
    renderApp('/approvals')
    await userEvent.click(await screen.findByRole('button', { name: 'Pin Comment' }, { timeout: 15_000 }))
    await toastWith('Comment Pinned')
    await waitFor(() => expect(stream.urls().length).toBeGreaterThan(0))
    stream.send('notification', { notification: notice('n1', { kind: 'comment.pinned', title: 'Comment pinned', message: 'The winning comment is pinned.' }), unreadCount: 1 })
    stream.send('notification', { notification: notice('n2', { kind: 'payout.paid', title: 'Payout sent', message: 'We sent you $90.00.' }), unreadCount: 2 })
    await toastWith('Payout sent')
    expect(await screen.findByRole('link', { name: 'Notifications, 2 unread' })).toBeInTheDocument()
    expect(screen.queryByText('The winning comment is pinned.')).toBeNull()
  })

  it('each expectation is used once, and only for a minute', () => {
    toldByAction(['auction.approve'], 1_000)
    expect(alreadyTold('auction.approve', 2_000)).toBe(true)
    expect(alreadyTold('auction.approve', 2_000)).toBe(false)
    toldByAction(['auction.won'], 1_000)
    expect(alreadyTold('auction.won', 1_000 + TOLD_FOR_MS + 1)).toBe(false)
    expect(alreadyTold('comment.pinned', 1_000)).toBe(false)
  })

  it('a wrong pinning password is said once, under the field, with no toast', async () => {
    signedIn(creator, {
      'GET /influencer/approvals': () => json(200, [makeBid({ id: 'bid-WON', status: 'WON', payment: paid })]),
      'GET /instagram/connection': () => json(200, { connected: true, pinMethod: 'SESSION' }),
      'PUT /influencer/pin-comment/bid-WON': () => json(401, { detail: 'Log in to Instagram to pin.', code: 'instagram_login_required' }),
      'POST /influencer/instagram-login': () =>
        json(422, { detail: 'The Instagram password is wrong.', code: 'bad_password', errors: [{ field: 'password', message: 'The Instagram password is wrong.' }] }),
    })
    renderApp('/approvals')
    await userEvent.click(await screen.findByRole('button', { name: 'Pin Comment' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Secure Instagram Login' }))
    await userEvent.type(dialog.getByLabelText('Instagram password'), 'nope')
    await userEvent.click(dialog.getByRole('button', { name: /Log In/ }))
    await waitFor(() => expect(screen.getAllByText('The Instagram password is wrong.')).toHaveLength(1))
    expect(dialog.getByLabelText('Instagram password')).toHaveAccessibleDescription(/The Instagram password is wrong\./)
    expect(screen.queryByText('Instagram Login Failed')).toBeNull()
  })

  it('a refusal that names no field is said once, above the buttons', async () => {
    signedIn(creator, {
      'GET /influencer/approvals': () => json(200, [makeBid({ id: 'bid-WON', status: 'WON', payment: paid })]),
      'GET /instagram/connection': () => json(200, { connected: true, pinMethod: 'SESSION' }),
      'PUT /influencer/pin-comment/bid-WON': () => json(401, { detail: 'Log in to Instagram to pin.', code: 'instagram_login_required' }),
      'POST /influencer/instagram-login': () => json(409, { detail: 'Instagram asks you to confirm this login in the app.', code: 'challenge_required' }),
    })
    renderApp('/approvals')
    await userEvent.click(await screen.findByRole('button', { name: 'Pin Comment' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Secure Instagram Login' }))
    await userEvent.type(dialog.getByLabelText('Instagram password'), 'nope')
    await userEvent.click(dialog.getByRole('button', { name: /Log In/ }))
    expect(await dialog.findByRole('alert')).toHaveTextContent('Instagram asks you to confirm this login in the app.')
    expect(screen.getAllByText('Instagram asks you to confirm this login in the app.')).toHaveLength(1)
  })
})

describe('settings: auto-pin follows the pin method', () => {
  const prefs = { newBids: true, approvals: true, payouts: true, marketing: false }
  it('under "I pin in the app" it is off and cannot be turned on; under "Pinbid pins for me" it is on', async () => {
    let method = 'MANUAL'
    signedIn(creator, {
      'GET /notifications/preferences': () => json(200, prefs),
      'GET /instagram/connection': () => json(200, { connected: true, pinMethod: method }),
      'PUT /instagram/pin-method': (body) => {
        method = (body as { pinMethod: string }).pinMethod
        return json(200, { pinMethod: method })
      },
    })
    renderApp('/settings')
    const autoPin = await screen.findByRole('switch', { name: 'Auto-pin paid comments' })
    await waitFor(() => expect(autoPin).toBeDisabled())
    expect(autoPin).not.toBeChecked()
    expect(screen.getByText(/Off while you pin in the Instagram app/)).toBeInTheDocument()
    await userEvent.click(await screen.findByRole('radio', { name: /Pinbid pins for me/ }))
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Auto-pin paid comments' })).toBeEnabled())
    expect(screen.getByRole('switch', { name: 'Auto-pin paid comments' })).toBeChecked()
  })
})

describe('the operator decides only with the button', () => {
  it('Enter on an outcome chooses it and sends nothing; the button still asks first', async () => {
    const operator = makeUser({ role: 'OPERATOR', name: 'Desk', instagramHandle: null })
    const detail = {
      id: 'd1', bidId: 'b1', slotId: 's1', status: 'OPEN', reason: 'Never pinned.', reporter: 'BRAND', reportedAt: '2026-11-20T10:00:00Z',
      answeredAt: '2026-11-21T10:00:00Z', answerBy: '2026-11-22T10:00:00Z', creatorId: 'c1', creatorName: 'Maya Creator', buyerId: 'u1',
      buyerName: 'Riley Brand', amount: 120, postUrl: null, outcome: null, decidedAt: null, awaitingAnswer: false,
      evidence: [], creatorNote: null, decisionReason: null, history: [],
    }
    const api = signedIn(operator, { 'GET /ops/disputes/d1': () => json(200, detail) })
    renderApp('/ops/disputes/d1')
    await userEvent.type(await screen.findByLabelText('Reason'), 'Pinned, as the screenshot shows.')
    const refundAll = screen.getByRole('radio', { name: /Refund all/ })
    refundAll.focus()
    await userEvent.keyboard('{Enter}')
    expect(screen.queryByRole('alertdialog')).toBeNull()
    // a submit the browser would make from the radio is stopped at the form
    expect(fireEvent.keyDown(refundAll, { key: 'Enter' })).toBe(false)
    expect(screen.queryByRole('alertdialog')).toBeNull()
    await userEvent.click(refundAll)
    await userEvent.click(screen.getByRole('button', { name: 'Decide' }))
    expect(await screen.findByRole('alertdialog')).toBeInTheDocument()
    expect(api.called('POST', '/ops/disputes/d1/decision')).toBe(false)
  })
})

describe('focus, words and greetings', () => {
  it('a tab panel that takes focus shows it', async () => {
    signedIn(buyer, { 'GET /buyer/bids': () => json(200, []) })
    renderApp('/my-bids')
    const panel = await screen.findByRole('tabpanel')
    expect(panel).toHaveAttribute('tabindex', '0')
    expect(panel.className).toMatch(/focus-visible:ring-\[3px\]/)
  })

  it('people are Creators and Brands on screen (the API keeps its role names)', async () => {
    const api = mockApi({ 'GET /auth/me': () => json(403, { detail: 'x', code: 'not_signed_in' }), 'POST /auth/register': () => json(201, { token: 't', user: makeUser({ role: 'BUYER' }) }) })
    renderApp('/signup/buyer')
    expect(await screen.findByRole('button', { name: 'Create Brand Account' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Sign up as a creator' })).toHaveAttribute('href', '/signup/influencer')
    expect(screen.getByRole('form', { name: 'Brand signup' })).toBeInTheDocument()
    // the words on screen, not the test's location probe (it shows the path, /signup/buyer)
    const shown = document.body.cloneNode(true) as HTMLElement
    shown.querySelector('[data-testid="location"]')!.remove()
    expect(shown.textContent).not.toMatch(/\b(Influencer|Buyer)\b/i)
    expect(api.called('POST', '/auth/register')).toBe(false)
  })

  it('a brand-new account is greeted "Welcome"; a log in is "Welcome back"', async () => {
    const fresh = makeUser({ id: 'u-new', role: 'BUYER', name: 'Nova Brand', instagramHandle: null })
    mockApi({
      'GET /auth/me': () => json(403, { detail: 'x', code: 'not_signed_in' }),
      'POST /auth/register': () => json(201, { token: 't', user: fresh }),
      'GET /buyer/dashboard': () => json(200, { activeBids: 0, wonAuctions: 0, totalSpent: 0 }),
      'GET /marketplace/slots': () => page([]),
    })
    renderApp('/signup/buyer')
    await userEvent.type(await screen.findByLabelText('Full Name'), 'Nova Brand')
    await userEvent.type(screen.getByLabelText('Email'), 'nova@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'long-enough-1')
    await userEvent.click(screen.getByRole('button', { name: 'Create Brand Account' }))
    expect(await screen.findByRole('heading', { name: 'Welcome, Nova Brand' })).toBeInTheDocument()
    expect(newAccount.peek()).toBe('u-new')
  })

  it('a returning account is welcomed back', async () => {
    newAccount.remember('someone-else')
    signedIn(buyer, { 'GET /buyer/dashboard': () => json(200, { activeBids: 0, wonAuctions: 0, totalSpent: 0 }), 'GET /marketplace/slots': () => page([]) })
    renderApp('/dashboard')
    expect(await screen.findByRole('heading', { name: `Welcome back, ${buyer.name}` })).toBeInTheDocument()
    // the account's role under its name is a person's word too
    expect(screen.getAllByText('Brand').length).toBeGreaterThan(0)
    expect(screen.queryByText('Buyer')).toBeNull()
  })
})

describe('the landing claims only what the product backs', () => {
  it('no unbacked counts of creators, money or views: the share, the price rule and the placement length', async () => {
    mockApi({ 'GET /auth/me': () => json(403, { detail: 'x', code: 'not_signed_in' }) })
    renderApp('/')
    await screen.findByRole('heading', { level: 1, name: /Auction it/ })
    const text = document.body.textContent ?? ''
    for (const claim of ['10K+', '$2M+', '50M+', 'active creators', 'paid to creators', 'views generated']) expect(text).not.toContain(claim)
    expect(screen.getByText('90%')).toBeInTheDocument()
    expect(screen.getByText('of the price goes to the creator')).toBeInTheDocument()
    expect(screen.getByText('the winner pays the second-highest bid')).toBeInTheDocument()
    expect(screen.getByText('7–30 days')).toBeInTheDocument()
  })
})
