import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, renderApp } from '@/test/utils'
import { answerReport, creator, makeBid, makeSlot, signedIn, toastWith, trustActions } from '@/test/fixtures'
import { imageFile, mockUpload, stubObjectUrls } from '@/test/upload'
import type { PlacementTrust } from '@/api/trust'

// a PINNED bid is not in Approvals (its statuses end at WON): the notice's Open leads to /placements/<bid>
const pinned = makeBid({
  id: 'bid-P',
  status: 'PINNED',
  comment: 'our winter blend is here',
  approvedComment: 'Ad · @northwind: our winter blend is here',
  pinSlot: makeSlot({ title: 'Morning routine reel' }),
  payment: { status: 'COMPLETED', expiresAt: null, paidAt: null },
})

const report = {
  id: 'd-1',
  status: 'OPEN' as const,
  reason: 'The comment is not pinned on the post any more.',
  reporter: 'BRAND' as const,
  reportedAt: '2026-11-26T09:00:00Z',
  creatorNote: null,
  answerBy: '2099-11-28T09:00:00Z',
  answeredAt: null,
  outcome: null,
  decisionReason: null,
  decidedAt: null,
}

const underReview: PlacementTrust = {
  method: 'MANUAL',
  acceptance: { status: 'AWAITING', acceptBy: '2099-11-29T10:00:00Z', acceptedAt: null, acceptedBy: null },
  evidence: [],
  recheck: null,
  dispute: report,
  ended: false,
  endReason: null,
  actions: trustActions({ answer: { until: report.answerBy, kind: 'ANSWER' } }),
}

function creatorWith(trust: () => Response, bids = [pinned]) {
  return signedIn(creator, {
    'GET /influencer/approvals': () => json(200, []),
    'GET /influencer/bids': () => json(200, bids),
    'GET /instagram/connection': () => json(200, { connected: true, pinMethod: 'MANUAL' }),
    'GET /instagram/placements/bid-P/trust': trust,
  })
}

describe("the creator's page of a placement under review", () => {
  beforeEach(stubObjectUrls)
  afterEach(() => vi.unstubAllGlobals())

  it("shows the brand's reason, the deadline and the answer form; the answer replaces the form", async () => {
    creatorWith(() => json(200, underReview))
    const answered = { ...underReview, dispute: { ...report, creatorNote: 'It is pinned: here is the post today.', answeredAt: '2026-11-26T11:00:00Z' }, actions: trustActions() }
    const uploads = mockUpload({ 'POST /influencer/placements/bid-P/screenshot': () => ({ status: 200, body: answered }) })
    renderApp('/placements/bid-P')
    expect(await screen.findByRole('heading', { name: 'Morning routine reel' })).toBeInTheDocument()
    expect(screen.getByText('This placement is under review.')).toBeInTheDocument()
    expect(screen.getByText('Ad · @northwind: our winter blend is here')).toBeInTheDocument()
    const form = screen.getByRole('region', { name: 'Report to answer' })
    expect(within(form).getByText(/The brand reported: “The comment is not pinned on the post any more\.” — answer by Nov 28, 2099/)).toBeInTheDocument()
    // the same checks and messages as "I pinned it": a screenshot is required, and only an image
    await answerReport(form, uploads, 'It is pinned: here is the post today.', imageFile('today.png', 'image/png'))
    expect(uploads.calls[0]!.form.get('note')).toBe('It is pinned: here is the post today.')
    const summary = await screen.findByRole('region', { name: 'Dispute' })
    expect(within(summary).getByText('“It is pinned: here is the post today.”')).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Report to answer' })).not.toBeInTheDocument()
  })

  it('answering twice: the server’s refusal is on the screen, and the page shows the answer already sent', async () => {
    let trust: PlacementTrust = underReview
    creatorWith(() => json(200, trust))
    const uploads = mockUpload({
      'POST /influencer/placements/bid-P/screenshot': () => {
        // answered meanwhile in another tab: the server refuses the second answer and keeps the first
        trust = { ...underReview, dispute: { ...report, creatorNote: 'First answer.', answeredAt: '2026-11-26T10:00:00Z' }, actions: trustActions() }
        return { status: 409, body: { detail: 'You already answered this report; an operator decides it now.', code: 'already_answered' } }
      },
    })
    renderApp('/placements/bid-P')
    const form = await screen.findByRole('region', { name: 'Report to answer' })
    await userEvent.upload(within(form).getByLabelText('A new screenshot of the pinned comment'), imageFile())
    await userEvent.click(within(form).getByRole('button', { name: 'Send my answer' }))
    await toastWith('Not sent', 'You already answered this report; an operator decides it now.')
    expect(uploads.calls).toHaveLength(1)
    const summary = await screen.findByRole('region', { name: 'Dispute' })
    expect(within(summary).getByText('“First answer.”')).toBeInTheDocument()
  })

  it('after the answer window: no form, the page says an operator decides now', async () => {
    creatorWith(() => json(200, { ...underReview, dispute: { ...report, answerBy: '2026-01-01T09:00:00Z' }, actions: trustActions() }))
    const uploads = mockUpload({})
    renderApp('/placements/bid-P')
    expect(await screen.findByText(/The time to answer this report passed on Jan 1, 2026.*An operator decides it now/)).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Report to answer' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Send my answer' })).not.toBeInTheDocument()
    expect(uploads.calls).toHaveLength(0)
  })

  it("someone else's placement: it does not exist for this creator, and nothing can be sent", async () => {
    creatorWith(() => json(404, { detail: 'No such placement.', code: 'not_found' }), [])
    renderApp('/placements/bid-P')
    expect(await screen.findByText('This placement does not exist, or it is not one of yours.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Send my answer' })).not.toBeInTheDocument()
  })

  it('the decision shows once made', async () => {
    creatorWith(() =>
      json(200, {
        ...underReview,
        ended: true,
        endReason: 'Dispute decided: REFUND_ALL',
        actions: trustActions(),
        dispute: { ...report, status: 'DECIDED', creatorNote: 'It is pinned.', answeredAt: '2026-11-26T10:00:00Z', outcome: 'REFUND_ALL', decisionReason: 'The post shows no pinned comment.', decidedAt: '2026-11-27T10:00:00Z' },
      }),
    )
    renderApp('/placements/bid-P')
    const summary = await screen.findByRole('region', { name: 'Dispute' })
    expect(within(summary).getByText('Refunded to the brand in full')).toBeInTheDocument()
    expect(within(summary).getByText('Reason: The post shows no pinned comment.')).toBeInTheDocument()
    expect(screen.getByText('Ended')).toBeInTheDocument()
  })
})
