/** What the generated /ops schemas say that the hand-written contract did not: unknown names and amounts are null,
 *  a flag keeps why it was cleared, a payment says its currency and REFUNDING status, evidence images need retrying. */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, makeUser, renderApp } from '@/test/utils'
import { signedIn } from '@/test/fixtures'
import type { DisputeDetail, Flag, OpsPayment, OpsUser } from './api/types'

const operator = makeUser({ id: '0b5e0000-0000-4000-8000-0000000000aa', role: 'OPERATOR', name: 'Desk', email: 'desk@example.com', instagramHandle: null })

const detail = (over: Partial<DisputeDetail> = {}): DisputeDetail => ({
  id: 'd1',
  bidId: 'b1',
  slotId: 's1',
  status: 'OPEN',
  reason: 'The comment was never pinned.',
  reporter: 'SYSTEM',
  reportedAt: '2026-11-20T10:00:00Z',
  answeredAt: null,
  answerBy: '2026-11-22T10:00:00Z',
  creatorId: 'c1',
  creatorName: null,
  buyerId: 'u1',
  buyerName: null,
  amount: null,
  postUrl: null,
  outcome: null,
  decidedAt: null,
  awaitingAnswer: false,
  evidence: [{ id: 'e1', kind: 'RECHECK', uploadedAt: '2026-11-21T09:00:00Z', url: '/api/ops/disputes/d1/evidence/e1' }],
  creatorNote: null,
  decisionReason: null,
  history: [],
  ...over,
})

const user: OpsUser = { id: 'u1', email: 'riley@brand.example', name: 'Riley Brand', role: 'BUYER', status: 'ACTIVE', createdAt: '2026-10-01T00:00:00Z', suspendedReason: null }
const payment = (over: Partial<OpsPayment>): OpsPayment => ({
  id: 'p1',
  bidId: 'b1',
  buyerId: 'u1',
  creatorId: 'c1',
  amount: 120,
  currency: 'USD',
  status: 'COMPLETED',
  refunded: 0,
  released: 30,
  paidAt: '2026-11-18T10:00:00Z',
  ...over,
})

afterEach(() => vi.unstubAllGlobals())

describe('the operator desk on the generated schemas', () => {
  it('a dispute whose names and amount are unknown says so; a screenshot that failed can be asked again', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:recheck'), revokeObjectURL: vi.fn() }))
    let imageFails = true
    const api = signedIn(operator, {
      'GET /ops/disputes/d1': () => json(200, detail()),
      'GET /ops/disputes/d1/evidence/e1': () =>
        imageFails ? json(503, { detail: 'The object store cannot be reached.', code: 'service_unavailable' }) : new Response('png', { status: 200, headers: { 'Content-Type': 'image/png' } }),
    })
    renderApp('/ops/disputes/d1')
    expect(await screen.findByRole('heading', { name: 'Unknown brand vs unknown creator' })).toBeInTheDocument()
    const amount = screen.getByText('Amount').nextElementSibling as HTMLElement
    expect(amount).toHaveTextContent('—')
    expect(amount).not.toHaveTextContent('$0.00')
    expect(screen.queryByText(/null/)).toBeNull()

    expect(await screen.findByText('Could not load the screenshot')).toBeInTheDocument()
    imageFails = false
    await userEvent.click(screen.getByRole('button', { name: /Try again/ }))
    expect(await screen.findByRole('img', { name: 'Fresh screenshot screenshot' })).toHaveAttribute('src', 'blob:recheck')
    expect(api.calls.filter((c) => c.path === '/ops/disputes/d1/evidence/e1').map((c) => c.auth)).toEqual(['Bearer t', 'Bearer t'])
  })

  it('a cleared flag shows when and why it was cleared, and an unknown account by that name', async () => {
    const flag: Flag = {
      id: 'f1',
      userId: 'u2',
      userName: null,
      creatorId: 'c1',
      creatorName: 'Maya Creator',
      score: 40,
      reasons: ['Same device as the creator'],
      createdAt: '2026-11-20T10:00:00Z',
      status: 'CLEARED',
      clearedAt: '2026-11-21T10:00:00Z',
      clearReason: 'Shared office wifi',
    }
    signedIn(operator, { 'GET /ops/flags': (_b, req) => json(200, new URL(req.url).searchParams.get('status') === 'CLEARED' ? [flag] : []) })
    renderApp('/ops/flags')
    await userEvent.click(await screen.findByRole('tab', { name: 'Cleared' }))
    const list = within(await screen.findByRole('list', { name: 'Cleared flags' }))
    expect(list.getByText('Cleared because: Shared office wifi')).toBeInTheDocument()
    expect(list.getByText(/Unknown account/)).toBeInTheDocument()
    expect(list.getByText(/cleared/, { selector: 'p' })).toHaveTextContent('Nov 21, 2026')
  })

  it('offers a refund only on a COMPLETED payment: not while REFUNDING, not once refunded or expired', async () => {
    signedIn(operator, {
      'GET /ops/users': () => json(200, [user]),
      'GET /ops/payments': () =>
        json(200, [
          payment({ id: 'p1', status: 'COMPLETED' }),
          payment({ id: 'p2', status: 'REFUNDING' }),
          payment({ id: 'p3', status: 'REFUNDED', refunded: 120 }),
          payment({ id: 'p4', status: 'EXPIRED', paidAt: null, released: 0 }),
          payment({ id: 'p5', status: 'COMPLETED', currency: 'EUR', amount: 80, released: 0 }),
        ]),
    })
    renderApp('/ops/users')
    await userEvent.click(within(await screen.findByRole('list', { name: 'Users' })).getByRole('button', { name: 'Payments' }))
    const rows = within(await screen.findByRole('table', { name: 'Payments' })).getAllByRole('row').slice(1)
    const offers = rows.map((row) => within(row).queryByRole('button', { name: 'Refund' }) !== null)
    expect(offers).toEqual([true, false, false, false, true])
    expect(rows[1]).toHaveTextContent('refunding')
    expect(rows[4]).toHaveTextContent('€80.00')
  })

  it("a dispute's history says who and which outcome in words, not social's codes", async () => {
    signedIn(operator, {
      'GET /ops/disputes/d1': () =>
        json(200, detail({
          status: 'DECIDED',
          outcome: 'CONTINUE',
          history: [
            { at: '2026-11-20T10:00:00Z', what: 'Reported: not pinned', by: 'BRAND' },
            { at: '2026-11-20T11:00:00Z', what: 'Answered with a new screenshot', by: 'CREATOR' },
            { at: '2026-11-21T10:00:00Z', what: 'Decided CONTINUE: it is pinned', by: 'OPERATOR 033b0d8d-7087-46d8-8bce-355fb92d305d' },
            { at: '2026-11-22T10:00:00Z', what: 'Closed: Refunded in full by Pinbid.', by: 'PAYMENTS' },
          ],
        })),
    })
    renderApp('/ops/disputes/d1')
    const steps = within(await screen.findByRole('list', { name: 'History' })).getAllByRole('listitem')
    expect(steps.map((s) => s.textContent?.split('·').pop()?.trim())).toEqual(['the brand', 'the creator', 'an operator', 'Pinbid payments'])
    expect(steps[2]).toHaveTextContent('Decided “Keep going”: it is pinned')
    expect(screen.queryByText(/CONTINUE|OPERATOR|033b0d8d/)).toBeNull()
  })
})
