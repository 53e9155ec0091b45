import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, renderApp } from '@/test/utils'
import { answerReport, creator, makeBid, makeSlot, signedIn, trustActions } from '@/test/fixtures'
import { imageFile, mockUpload, stubObjectUrls } from '@/test/upload'
import type { PlacementTrust } from '@/api/trust'

const pinned = makeBid({ id: 'bid-P', status: 'PINNED', pinSlot: makeSlot({ title: 'Slot P' }), payment: { status: 'COMPLETED', expiresAt: null, paidAt: null } })

const running: PlacementTrust = {
  method: 'MANUAL',
  acceptance: { status: 'ACCEPTED', acceptBy: null, acceptedAt: '2026-11-25T10:00:00Z', acceptedBy: 'BRAND' },
  evidence: [],
  recheck: null,
  dispute: null,
  ended: false,
  endReason: null,
  actions: trustActions(),
}

const openReport = {
  id: 'd-1',
  status: 'OPEN' as const,
  reason: 'The comment was unpinned on Monday.',
  reporter: 'BRAND' as const,
  reportedAt: '2026-11-26T09:00:00Z',
  creatorNote: null,
  answerBy: '2026-11-28T09:00:00Z',
  answeredAt: null,
  outcome: null,
  decisionReason: null,
  decidedAt: null,
}

function creatorWith(trust: PlacementTrust) {
  return signedIn(creator, {
    'GET /influencer/approvals': () => json(200, [pinned]),
    'GET /instagram/connection': () => json(200, { connected: true, pinMethod: 'MANUAL' }),
    'GET /instagram/placements/bid-P/trust': () => json(200, trust),
  })
}

describe("the creator's answer and fresh screenshot", () => {
  beforeEach(() => {
    stubObjectUrls()
    // the fixtures' deadlines are dates: the panel compares them with the clock, so the clock is the fixtures' day
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-11-26T12:00:00Z'))
  })
  afterEach(() => vi.useRealTimers())

  it('an open report says what the brand reported and by when to answer; note and screenshot go as multipart', async () => {
    creatorWith({ ...running, dispute: openReport, actions: trustActions({ answer: { until: openReport.answerBy, kind: 'ANSWER' } }) })
    const answered = { ...running, dispute: { ...openReport, creatorNote: 'Still pinned, see today’s screenshot.', answeredAt: '2026-11-26T11:00:00Z' } }
    const uploads = mockUpload({ 'POST /influencer/placements/bid-P/screenshot': () => ({ status: 200, body: answered }) })
    renderApp('/approvals')
    const report = await screen.findByRole('region', { name: 'Report to answer' })
    expect(within(report).getByText(/The brand reported: “The comment was unpinned on Monday\.” — answer by Nov 28, 2026/)).toBeInTheDocument()
    await answerReport(report, uploads, 'Still pinned, see today’s screenshot.', imageFile('today.jpg', 'image/jpeg'))
    const form = uploads.calls[0]!.form
    expect(form.get('note')).toBe('Still pinned, see today’s screenshot.')
    expect((form.get('screenshot') as File).name).toBe('today.jpg')
    // answered: the form gives way to the dispute's state
    const summary = await screen.findByRole('region', { name: 'Dispute' })
    expect(within(summary).getByText('“Still pinned, see today’s screenshot.”')).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Report to answer' })).not.toBeInTheDocument()
  })

  it('a recheck asks for a fresh screenshot by its deadline; a refusal on the note shows on the note', async () => {
    creatorWith({
      ...running,
      recheck: { requestedAt: '2026-11-26T08:00:00Z', answerBy: '2026-11-27T08:00:00Z', answeredAt: null },
      actions: trustActions({ answer: { until: '2026-11-27T08:00:00Z', kind: 'RECHECK' } }),
    })
    mockUpload({
      'POST /influencer/placements/bid-P/screenshot': () => ({
        status: 422,
        body: { detail: 'The note is longer than 1000 characters.', code: 'validation_error', errors: [{ field: 'note', message: 'At most 1000 characters.' }] },
      }),
    })
    renderApp('/approvals')
    const recheck = await screen.findByRole('region', { name: 'Fresh screenshot requested' })
    expect(within(recheck).getByText(/Send a fresh screenshot by Nov 27, 2026/)).toBeInTheDocument()
    await userEvent.upload(within(recheck).getByLabelText('A fresh screenshot of the pinned comment'), imageFile())
    await userEvent.click(within(recheck).getByRole('button', { name: 'Send the screenshot' }))
    expect(await within(recheck).findByText('At most 1000 characters.')).toHaveAttribute('role', 'alert')
    expect(within(recheck).getByLabelText('Note (optional)')).toHaveAttribute('aria-invalid', 'true')
  })

  it('while the brand checks, the card says when it counts as accepted', async () => {
    creatorWith({ ...running, acceptance: { status: 'AWAITING', acceptBy: '2026-11-29T10:00:00Z', acceptedAt: null, acceptedBy: null } })
    renderApp('/approvals')
    expect(await screen.findByText(/The brand is checking your screenshot\. It counts as accepted on Nov 29, 2026/)).toBeInTheDocument()
  })

  it("an open report the server no longer takes an answer for says its time passed, with no form", async () => {
    creatorWith({ ...running, dispute: openReport, actions: trustActions() })
    renderApp('/approvals')
    expect(await screen.findByText(/The time to answer this report passed on Nov 28, 2026/)).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Report to answer' })).not.toBeInTheDocument()
  })

  it('a fresh screenshot is asked for only while the server takes one, by its deadline', async () => {
    const recheck = { requestedAt: '2026-11-26T08:00:00Z', answerBy: '2026-11-27T08:00:00Z', answeredAt: null }
    creatorWith({ ...running, recheck, ended: true, endReason: 'Refunded in full.', actions: trustActions() })
    renderApp('/approvals')
    expect(await screen.findByText(/This placement has ended: Refunded in full\./)).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Fresh screenshot requested' })).not.toBeInTheDocument()
  })
})
