import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, makeUser, mockApi, renderApp } from '@/test/utils'
import { logIn, sendCode } from '@/test/login'
import { buyer, signedIn, toastWith } from '@/test/fixtures'

const operator = makeUser({ id: '0b5e0000-0000-4000-8000-0000000000aa', role: 'OPERATOR', name: 'Desk', email: 'desk@example.com', instagramHandle: null })
const location = () => screen.getByTestId('location').textContent

const dispute = (over: Record<string, unknown> = {}) => ({
  id: 'd1',
  bidId: 'b1',
  slotId: 's1',
  status: 'OPEN',
  reason: 'The comment was never pinned.',
  reporter: 'BRAND',
  reportedAt: '2026-11-20T10:00:00Z',
  answeredAt: null,
  answerBy: '2026-11-22T10:00:00Z',
  creatorId: 'c1',
  creatorName: 'Maya Creator',
  buyerId: 'u1',
  buyerName: 'Riley Brand',
  amount: 120,
  postUrl: 'https://instagram.example/p/1',
  outcome: null,
  decidedAt: null,
  awaitingAnswer: false,
  ...over,
})

/** payments' figures for bid b1: $200 paid, $45 released and paid out (a quarter of the creator's $180). */
const money = {
  bidId: 'b1',
  paymentId: 'p1',
  currency: 'USD',
  status: 'COMPLETED',
  paid: 200,
  released: 45,
  paidOut: 45,
  outcomes: [
    { outcome: 'CONTINUE', toBrand: 0, fromCreator: 0, paidOut: 0, toCreator: 9 },
    { outcome: 'REFUND_UNEARNED', toBrand: 150, fromCreator: 135, paidOut: 0, toCreator: 0 },
    { outcome: 'REFUND_ALL', toBrand: 200, fromCreator: 180, paidOut: 45, toCreator: 0 },
  ],
}

const detail = (over: Record<string, unknown> = {}) => ({
  ...dispute(over),
  evidence: [{ id: 'e1', kind: 'PIN', uploadedAt: '2026-11-19T09:00:00Z', url: '/api/ops/disputes/d1/evidence/e1' }],
  creatorNote: 'It was pinned, see the screenshot.',
  decisionReason: null,
  history: [
    { at: '2026-11-19T09:00:00Z', what: 'Creator said it was pinned', by: 'Maya Creator' },
    { at: '2026-11-20T10:00:00Z', what: 'Brand reported a problem', by: 'Riley Brand' },
  ],
  ...over,
})

/** Opens a dialog with `open`, gives `reason` and confirms with the `confirm` button; returns the dialog. */
async function confirmWithReason(open: HTMLElement, reason: string, confirm: string) {
  await userEvent.click(open)
  const dialog = within(await screen.findByRole('dialog'))
  await userEvent.type(dialog.getByLabelText('Reason'), reason)
  await userEvent.click(dialog.getByRole('button', { name: confirm }))
  return dialog
}

const opsUser = (over: Record<string, unknown> = {}) => ({
  id: 'u1',
  email: 'riley@brand.example',
  name: 'Riley Brand',
  role: 'BUYER',
  status: 'ACTIVE',
  createdAt: '2026-10-01T00:00:00Z',
  suspendedReason: null,
  ...over,
})

afterEach(() => vi.unstubAllGlobals())

describe('signing in as an operator', () => {
  it('asks for the code when the server wants one, then lands on the desk', async () => {
    const api = mockApi({
      'POST /auth/login': (body) => {
        const sent = body as { code?: string }
        if (!sent.code) return json(401, { detail: 'Enter the 6-digit code from your authenticator app.', code: 'second_factor_required' })
        if (sent.code !== '123456') return json(401, { detail: 'That code is not valid or was already used.', code: 'invalid_second_factor' })
        return json(200, { token: 'op-token', user: operator })
      },
      'GET /ops/disputes': () => json(200, []),
    })
    renderApp('/login')
    await logIn('desk@example.com', 'a long password')
    const code = await screen.findByLabelText('Authentication code')
    expect(code).toHaveFocus()

    await sendCode('12345')
    expect(await screen.findByText(/Enter the 6 digits from your authenticator app/)).toBeInTheDocument()
    expect(api.calls.filter((c) => c.path === '/auth/login')).toHaveLength(1)

    await sendCode('999999', { clear: true })
    expect(await screen.findByText('That code is not valid or was already used.')).toBeInTheDocument()

    await sendCode('123 456')
    await waitFor(() => expect(location()).toBe('/ops'))
    expect(api.calls.filter((c) => c.path === '/auth/login').at(-1)?.body).toEqual({ email: 'desk@example.com', password: 'a long password', code: '123456' })
    expect(await screen.findByRole('heading', { name: 'Disputes' })).toBeInTheDocument()
  })

  it('a suspended account is told why', async () => {
    mockApi({ 'POST /auth/login': () => json(403, { detail: 'This account is suspended: shill bidding.', code: 'account_suspended' }) })
    renderApp('/login')
    await logIn('riley@brand.example', 'a long password')
    expect(await screen.findByText('This account is suspended: shill bidding.')).toBeInTheDocument()
  })

  it('sends the browser device id with its calls', async () => {
    const api = mockApi({ 'POST /auth/login': () => json(403, { detail: 'Invalid email or password.', code: 'login_failed' }) })
    renderApp('/login')
    await logIn('riley@brand.example', 'a long password')
    await waitFor(() => expect(api.fn).toHaveBeenCalled())
    const sent = api.fn.mock.calls[0][0] as Request
    const device = sent.headers.get('X-Pinbid-Device')
    expect(device).toMatch(/^[A-Za-z0-9_-]{16,128}$/)
    expect(localStorage.getItem('pinbid_device')).toBe(device)
  })

  it('a brand who opens /ops is sent to its dashboard without calling the desk', async () => {
    const api = signedIn(buyer, { 'GET /buyer/dashboard': () => json(200, {}) })
    renderApp('/ops/users')
    await waitFor(() => expect(location()).toBe('/dashboard'))
    expect(api.calls.some((c) => c.path.startsWith('/ops'))).toBe(false)
  })
})

describe('disputes', () => {
  it('lists open and decided disputes, with an empty state', async () => {
    signedIn(operator, {
      'GET /ops/disputes': (_b, req) => json(200, new URL(req.url).searchParams.get('status') === 'OPEN' ? [dispute()] : []),
    })
    renderApp('/ops')
    const list = within(await screen.findByRole('list', { name: 'Open disputes' }))
    expect(list.getByRole('link', { name: 'Riley Brand vs Maya Creator' })).toHaveAttribute('href', '/ops/disputes/d1')
    expect(list.getByText('The comment was never pinned.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('tab', { name: 'Decided' }))
    expect(await screen.findByText('No decided disputes yet.')).toBeInTheDocument()
  })

  it('shows an error with a retry when the list cannot load', async () => {
    let fail = true
    signedIn(operator, { 'GET /ops/disputes': () => (fail ? json(503, { detail: 'The social service cannot be reached.', code: 'service_unavailable' }) : json(200, [])) })
    renderApp('/ops')
    expect(await screen.findByText('The social service cannot be reached.')).toBeInTheDocument()
    fail = false
    await userEvent.click(screen.getByRole('button', { name: /Try again/ }))
    expect(await screen.findByText('No open disputes. Nothing waits for a decision.')).toBeInTheDocument()
  })

  it('shows the evidence, note and history, and decides after a confirmation', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:evidence-1') }))
    let decided = false
    const api = signedIn(operator, {
      'GET /ops/disputes/d1': () => json(200, decided ? detail({ status: 'DECIDED', outcome: 'REFUND_ALL', decisionReason: 'Never pinned.', decidedAt: '2026-11-21T10:00:00Z' }) : detail()),
      'GET /ops/disputes/d1/evidence/e1': () => new Response('png-bytes', { status: 200, headers: { 'Content-Type': 'image/png' } }),
      'POST /ops/disputes/d1/decision': () => {
        decided = true
        return json(200, detail({ status: 'DECIDED', outcome: 'REFUND_ALL' }))
      },
    })
    renderApp('/ops/disputes/d1')
    expect(await screen.findByText('It was pinned, see the screenshot.')).toBeInTheDocument()
    expect(within(screen.getByRole('list', { name: 'History' })).getAllByRole('listitem')).toHaveLength(2)
    expect(await screen.findByRole('img', { name: 'At the pin screenshot' })).toHaveAttribute('src', 'blob:evidence-1')
    expect(api.calls.find((c) => c.path === '/ops/disputes/d1/evidence/e1')?.auth).toBe('Bearer t')

    await userEvent.click(screen.getByRole('button', { name: 'Decide' }))
    expect(await screen.findByText('Choose an outcome.')).toBeInTheDocument()
    expect(screen.getByText('Give the reason: both sides are told it.')).toBeInTheDocument()

    await userEvent.click(screen.getByRole('radio', { name: /Refund all/ }))
    await userEvent.type(screen.getByLabelText('Reason'), 'Never pinned.')
    await userEvent.click(screen.getByRole('button', { name: 'Decide' }))
    const confirm = await screen.findByRole('alertdialog')
    expect(within(confirm).getByText('Refund all?')).toBeInTheDocument()
    expect(api.called('POST', '/ops/disputes/d1/decision')).toBe(false)
    await userEvent.click(within(confirm).getByRole('button', { name: 'Confirm decision' }))
    await toastWith('Dispute decided')
    expect(api.calls.find((c) => c.path === '/ops/disputes/d1/decision')?.body).toEqual({ outcome: 'REFUND_ALL', reason: 'Never pinned.' })
    expect(await screen.findByText('Never pinned.', { selector: 'p' })).toBeInTheDocument()
  })

  it('each outcome says the money it moves: to the brand, from the creator, already paid out and to be recovered', async () => {
    signedIn(operator, {
      'GET /ops/disputes/d1': () => json(200, detail()),
      'GET /ops/payments/dispute-outcomes': (_b, req) => json(200, new URL(req.url).searchParams.get('bidId') === 'b1' ? money : null),
    })
    renderApp('/ops/disputes/d1')
    const payment = await screen.findByRole('region', { name: 'The payment' })
    expect(within(payment).getByText('$200.00')).toBeInTheDocument()
    const unearned = screen.getByRole('radio', { name: /Refund the unearned share/ })
    expect(unearned).toHaveAccessibleName(/To the brand\s*\$150\.00.*From the creator\s*\$135\.00.*Already paid out, to be recovered\s*\$0\.00/)
    expect(screen.getByRole('radio', { name: /Refund all/ })).toHaveAccessibleName(/To the brand\s*\$200\.00.*From the creator\s*\$180\.00.*to be recovered\s*\$45\.00/)
    expect(screen.getByRole('radio', { name: /Keep going/ })).toHaveAccessibleName(/Released to the creator now\s*\$9\.00/)
  })

  it('amounts that cannot load say so, with a retry', async () => {
    let fail = true
    signedIn(operator, {
      'GET /ops/disputes/d1': () => json(200, detail()),
      'GET /ops/payments/dispute-outcomes': () => (fail ? json(503, { detail: 'The payments service cannot be reached.', code: 'service_unavailable' }) : json(200, money)),
    })
    renderApp('/ops/disputes/d1')
    expect(await screen.findByText(/Could not load the amounts: The payments service cannot be reached\./)).toBeInTheDocument()
    fail = false
    await userEvent.click(screen.getByRole('button', { name: 'Load the amounts again' }))
    expect(await screen.findByRole('region', { name: 'The payment' })).toBeInTheDocument()
  })

  it('while the creator may answer, no decision unless "Decide now" with its reason, which is sent', async () => {
    const api = signedIn(operator, {
      'GET /ops/disputes/d1': () => json(200, detail({ awaitingAnswer: true, creatorNote: null, answerBy: '2026-11-22T10:00:00Z' })),
      'GET /ops/payments/dispute-outcomes': () => json(200, money),
      'POST /ops/disputes/d1/decision': () => json(200, detail({ status: 'DECIDED', outcome: 'REFUND_ALL' })),
    })
    renderApp('/ops/disputes/d1')
    expect(await screen.findByText(/The creator has not answered yet and may until Nov 22, 2026/)).toBeInTheDocument()
    const decide = screen.getByRole('button', { name: 'Decide' })
    expect(decide).toBeDisabled()
    await userEvent.click(screen.getByRole('radio', { name: /Refund all/ }))
    await userEvent.type(screen.getByLabelText('Reason'), 'The post is deleted.')
    await userEvent.click(screen.getByRole('checkbox', { name: /Decide now/ }))
    await userEvent.click(screen.getByRole('button', { name: 'Decide now' }))
    expect(await screen.findByText('Say why you decide before the creator answers: it goes to the audit log.')).toBeInTheDocument()
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Why not wait for the answer'), 'Deleted post: no answer can change it.')
    await userEvent.click(screen.getByRole('button', { name: 'Decide now' }))
    const confirm = await screen.findByRole('alertdialog')
    expect(within(confirm).getByText('To the brand')).toBeInTheDocument()
    expect(within(confirm).getByText('$200.00')).toBeInTheDocument()
    await userEvent.click(within(confirm).getByRole('button', { name: 'Confirm decision' }))
    await toastWith('Dispute decided')
    expect(api.calls.find((c) => c.path === '/ops/disputes/d1/decision')?.body).toEqual({
      outcome: 'REFUND_ALL',
      reason: 'The post is deleted.',
      decideNowReason: 'Deleted post: no answer can change it.',
    })
  })

  it('the server refusing a decision while the creator may answer is said so, and the dispute read again', async () => {
    let reads = 0
    signedIn(operator, {
      'GET /ops/disputes/d1': () => {
        reads += 1
        return json(200, detail({ creatorNote: null }))
      },
      'GET /ops/payments/dispute-outcomes': () => json(200, money),
      'POST /ops/disputes/d1/decision': () =>
        json(409, { detail: 'The creator may answer until Nov 22, 2026 10:00 UTC and has not yet. Decide once they answer or that time has passed, or choose Decide now and say why.', code: 'awaiting_answer' }),
    })
    renderApp('/ops/disputes/d1')
    await userEvent.click(await screen.findByRole('radio', { name: /Keep going/ }))
    await userEvent.type(screen.getByLabelText('Reason'), 'Looks pinned.')
    await userEvent.click(screen.getByRole('button', { name: 'Decide' }))
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Confirm decision' }))
    await toastWith('The creator may still answer', /has not yet\. Decide once they answer/)
    await waitFor(() => expect(reads).toBeGreaterThan(1))
  })

  it('a dispute another operator decided first is said so', async () => {
    signedIn(operator, {
      'GET /ops/disputes/d1': () => json(200, { ...detail(), evidence: [] }),
      'POST /ops/disputes/d1/decision': () => json(409, { detail: 'This dispute is already decided.', code: 'already_decided' }),
    })
    renderApp('/ops/disputes/d1')
    await userEvent.click(await screen.findByRole('radio', { name: /Keep going/ }))
    await userEvent.type(screen.getByLabelText('Reason'), 'Looks pinned.')
    await userEvent.click(screen.getByRole('button', { name: 'Decide' }))
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Confirm decision' }))
    await toastWith('Another operator decided this dispute first')
  })
})

describe('flags', () => {
  it('clears a flag with a reason', async () => {
    let cleared = false
    const flag = { id: 'f1', userId: 'u2', userName: 'Second Account', creatorId: 'c1', creatorName: 'Maya Creator', score: 70, reasons: ['Same device as the creator', 'Bids stop just under the leader'], createdAt: '2026-11-20T10:00:00Z', status: 'OPEN' }
    const api = signedIn(operator, {
      'GET /ops/flags': (_b, req) => json(200, new URL(req.url).searchParams.get('status') === 'OPEN' && !cleared ? [flag] : []),
      'POST /ops/flags/f1/clear': () => {
        cleared = true
        return json(200, { ...flag, status: 'CLEARED' })
      },
    })
    renderApp('/ops/flags')
    const list = within(await screen.findByRole('list', { name: 'Open flags' }))
    expect(list.getByText('Same device as the creator')).toBeInTheDocument()
    await userEvent.click(list.getByRole('button', { name: 'Clear the flag on Second Account' }))
    const dialog = within(await screen.findByRole('dialog'))
    await userEvent.click(dialog.getByRole('button', { name: 'Clear flag' }))
    expect(await dialog.findByText(/Give the reason/)).toBeInTheDocument()
    expect(api.called('POST', '/ops/flags/f1/clear')).toBe(false)
    await userEvent.type(dialog.getByLabelText('Reason'), 'Shared office wifi')
    await userEvent.click(dialog.getByRole('button', { name: 'Clear flag' }))
    await toastWith('Flag cleared')
    expect(api.calls.find((c) => c.path === '/ops/flags/f1/clear')?.body).toEqual({ reason: 'Shared office wifi' })
    expect(await screen.findByText('No open flags.')).toBeInTheDocument()
  })
})

describe('users', () => {
  it('searches, suspends with a reason, and shows the server refusal in the dialog', async () => {
    let status = 'ACTIVE'
    const api = signedIn(operator, {
      'GET /ops/users': () => json(200, [opsUser({ status, suspendedReason: status === 'SUSPENDED' ? 'Shill bidding' : null })]),
      'POST /ops/users/u1/suspend': (body) => {
        if ((body as { reason: string }).reason === 'again') return json(409, { detail: 'This account is already suspended.', code: 'already_suspended' })
        status = 'SUSPENDED'
        return json(200, opsUser({ status, suspendedReason: 'Shill bidding' }))
      },
    })
    renderApp('/ops/users')
    await userEvent.type(await screen.findByLabelText('Email or name'), 'riley')
    await userEvent.click(screen.getByRole('button', { name: /Search/ }))
    await waitFor(() => expect(api.calls.some((c) => c.path === '/ops/users' && c.method === 'GET')).toBe(true))
    const users = within(await screen.findByRole('list', { name: 'Users' }))
    expect(users.getByText('riley@brand.example')).toBeInTheDocument()

    const dialog = await confirmWithReason(users.getByRole('button', { name: 'Suspend' }), 'again', 'Suspend account')
    expect(await dialog.findByText('This account is already suspended.')).toBeInTheDocument()
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }))

    await confirmWithReason(users.getByRole('button', { name: 'Suspend' }), 'Shill bidding', 'Suspend account')
    await toastWith('Riley Brand is suspended')
    expect(await screen.findByText('Suspended: Shill bidding')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Restore' })).toBeInTheDocument()
    const search = api.calls.filter((c) => c.path === '/ops/users' && c.method === 'GET')
    expect(search.length).toBeGreaterThan(1) // read again after the action
  })

  it("refunds one of the user's payments", async () => {
    const payment = { id: 'p1', bidId: 'b1', buyerId: 'u1', creatorId: 'c1', amount: 120, status: 'COMPLETED', refunded: 0, released: 30, paidAt: '2026-11-18T10:00:00Z' }
    const api = signedIn(operator, {
      'GET /ops/users': () => json(200, [opsUser()]),
      'GET /ops/payments': (_b, req) => json(200, new URL(req.url).searchParams.get('userId') === 'u1' ? [payment] : []),
      'POST /ops/payments/p1/refund': () => json(200, { ...payment, refunded: 120 }),
    })
    renderApp('/ops/users')
    const users = within(await screen.findByRole('list', { name: 'Users' }))
    await userEvent.click(users.getByRole('button', { name: 'Payments' }))
    const table = within(await screen.findByRole('table', { name: 'Payments' }))
    expect(table.getByText('$120.00')).toBeInTheDocument()
    await confirmWithReason(table.getByRole('button', { name: 'Refund' }), 'Comment never went up', 'Refund in full')
    await toastWith('Payment refunded')
    expect(api.calls.find((c) => c.path === '/ops/payments/p1/refund')?.body).toEqual({ reason: 'Comment never went up' })
  })
})

describe('audit log', () => {
  it('lists entries and filters by object', async () => {
    const entry = {
      id: 'a1',
      operatorId: operator.id,
      operatorEmail: 'desk@example.com',
      operatorName: 'Dana Desk',
      action: 'user.suspend',
      objectType: 'user',
      objectId: 'u1',
      objectUser: { id: 'u1', name: 'Shady Brand', email: 'shady@example.com', role: 'BUYER' },
      reason: 'Shill bidding',
      actedAt: '2026-11-20T10:00:00Z',
    }
    const api = signedIn(operator, { 'GET /ops/audit': () => json(200, [entry]) })
    renderApp('/ops/audit')
    const entries = within(await screen.findByRole('list', { name: 'Audit entries' }))
    expect(await entries.findByText('user.suspend')).toBeInTheDocument()
    expect(entries.getByText('Shill bidding')).toBeInTheDocument()
    // people by name and email beside their ids
    expect(entries.getByText('Dana Desk')).toBeInTheDocument()
    expect(entries.getByText('(desk@example.com)')).toBeInTheDocument()
    expect(entries.getByText('Shady Brand')).toBeInTheDocument()
    expect(entries.getByText('(shady@example.com)')).toBeInTheDocument()
    expect(entries.getByText('u1')).toBeInTheDocument()
    await userEvent.selectOptions(screen.getByLabelText('Object'), 'user')
    await userEvent.type(screen.getByLabelText('Object id'), 'u1')
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }))
    await waitFor(() => expect(api.calls.some((c) => c.path === '/ops/audit' && c.method === 'GET' && c.auth === 'Bearer t')).toBe(true))
    await waitFor(() => {
      const urls = api.fn.mock.calls.map((call) => (call[0] as Request).url)
      expect(urls.some((u) => u.includes('objectType=user') && u.includes('objectId=u1'))).toBe(true)
    })
  })

  it('says when there is nothing yet', async () => {
    signedIn(operator, { 'GET /ops/audit': () => json(200, []) })
    renderApp('/ops/audit')
    expect(await screen.findByText('No operator action yet.')).toBeInTheDocument()
  })
})
