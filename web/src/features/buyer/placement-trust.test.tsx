import { beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG, getConfig, setConfig } from '@/config'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, renderApp } from '@/test/utils'
import { buyer, makeBid, makeSlot, signedIn, toastWith, trustActions } from '@/test/fixtures'
import { stubObjectUrls } from '@/test/upload'
import type { Dispute, PlacementTrust } from '@/api/trust'

const RESULTS = { link: null, clicks: 0, likes: 0, replies: 0, status: 'PINNED', clicksByHour: [], figures: [] }
const PERMALINK = 'https://instagram.example/p/1'

const awaiting: PlacementTrust = {
  method: 'MANUAL',
  acceptance: { status: 'AWAITING', acceptBy: '2026-11-29T10:00:00Z', acceptedAt: null, acceptedBy: null },
  evidence: [{ id: 'ev-1', kind: 'PIN', uploadedAt: '2026-11-26T10:00:00Z', url: '/api/instagram/placements/bid-1/evidence/ev-1' }],
  recheck: null,
  dispute: null,
  ended: false,
  endReason: null,
  actions: trustActions({ accept: '2026-11-29T10:00:00Z', report: true }),
}
const ACCEPTED_ACTIONS = trustActions({ report: true })

const dispute = (over: Partial<Dispute> = {}): Dispute => ({
  id: 'd-1',
  status: 'OPEN',
  reason: 'The comment is not pinned.',
  reporter: 'BRAND',
  reportedAt: '2026-11-26T12:00:00Z',
  creatorNote: null,
  answerBy: '2026-11-28T12:00:00Z',
  answeredAt: null,
  outcome: null,
  decisionReason: null,
  decidedAt: null,
  ...over,
})

function brandWith(trust: () => PlacementTrust, routes: Record<string, (body: unknown) => Response> = {}) {
  return signedIn(buyer, {
    'GET /buyer/bids': () => json(200, [makeBid({ id: 'bid-1', status: 'PINNED', pinSlot: makeSlot() })]),
    'GET /instagram/placements/bid-1/results': () => json(200, RESULTS),
    'GET /instagram/placements/bid-1/trust': () => json(200, trust()),
    'GET /instagram/placements/bid-1/evidence/ev-1': () => new Response('png-bytes', { status: 200, headers: { 'Content-Type': 'image/png' } }),
    ...routes,
  })
}

describe("the brand's placement page: proof of the pin", () => {
  beforeEach(stubObjectUrls)

  it('shows the post link, the screenshot fetched with the token and the deadline; "Looks right" double-clicked accepts once', async () => {
    let accepted = false
    const api = brandWith(() => (accepted ? { ...awaiting, acceptance: { status: 'ACCEPTED', acceptBy: null, acceptedAt: '2026-11-26T13:00:00Z', acceptedBy: 'BRAND' }, actions: ACCEPTED_ACTIONS } : awaiting), {
      'POST /buyer/placements/bid-1/accept': () => {
        accepted = true
        return json(200, { ...awaiting, acceptance: { status: 'ACCEPTED', acceptBy: null, acceptedAt: '2026-11-26T13:00:00Z', acceptedBy: 'BRAND' }, actions: ACCEPTED_ACTIONS })
      },
    })
    renderApp('/my-bids/bid-1')
    expect(await screen.findByText(/^Counts as accepted on Nov 29, 2026/)).toBeInTheDocument()
    expect(await screen.findByRole('link', { name: /Open the post on Instagram/ })).toHaveAttribute('href', PERMALINK)
    const image = await screen.findByRole('img', { name: /Screenshot: Sent with “I pinned it”/ })
    expect(image).toHaveAttribute('src', expect.stringMatching(/^blob:/))
    const evidenceCall = api.calls.find((c) => c.path === '/instagram/placements/bid-1/evidence/ev-1')
    expect(evidenceCall?.auth).toBe('Bearer t')

    await userEvent.dblClick(screen.getByRole('button', { name: 'Looks right' }))
    await toastWith('Placement accepted')
    expect(api.calls.filter((c) => c.method === 'POST' && c.path === '/buyer/placements/bid-1/accept')).toHaveLength(1)
    expect(await screen.findByText(/You accepted it on/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Looks right' })).not.toBeInTheDocument()
    // once accepted, the brand can still say the comment came down
    expect(screen.getByRole('button', { name: 'Report: no longer pinned' })).toBeInTheDocument()
  })

  it('"Report a problem" needs a reason, sends it once however often it is pressed, and shows the open dispute', async () => {
    let reported: Dispute | null = null
    const api = brandWith(() => ({ ...awaiting, dispute: reported, actions: reported ? trustActions() : awaiting.actions }), {
      'POST /buyer/placements/bid-1/report': (body) => {
        reported = dispute({ reason: (body as { reason: string }).reason })
        return json(200, { ...awaiting, dispute: reported, actions: trustActions() })
      },
    })
    renderApp('/my-bids/bid-1')
    await userEvent.click(await screen.findByRole('button', { name: 'Report a problem' }))
    const dialog = await screen.findByRole('dialog', { name: 'Report a problem' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send the report' }))
    expect(await within(dialog).findByText(/Say what is wrong/)).toHaveAttribute('role', 'alert')
    await userEvent.type(within(dialog).getByLabelText('What is wrong?'), 'The comment is not pinned.')
    await userEvent.dblClick(within(dialog).getByRole('button', { name: 'Send the report' }))
    await toastWith('Problem reported')
    const posts = api.calls.filter((c) => c.method === 'POST' && c.path === '/buyer/placements/bid-1/report')
    expect(posts).toHaveLength(1)
    expect(posts[0]!.body).toEqual({ reason: 'The comment is not pinned.' })
    const summary = await screen.findByRole('region', { name: 'Dispute' })
    expect(within(summary).getByText('You reported: “The comment is not pinned.”')).toBeInTheDocument()
    expect(within(summary).getByText('Open: releases are stopped')).toBeInTheDocument()
    expect(within(summary).getByText(/^Due by Nov 28, 2026/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Looks right' })).not.toBeInTheDocument()
  })

  it('a report refused because one is open says why in the dialog', async () => {
    const api = brandWith(() => ({ ...awaiting, acceptance: { ...awaiting.acceptance, status: 'ACCEPTED', acceptedBy: 'SILENCE', acceptedAt: '2026-11-29T10:00:00Z' }, actions: ACCEPTED_ACTIONS }), {
      'POST /buyer/placements/bid-1/report': () => json(409, { detail: 'This placement is already disputed.', code: 'already_disputed' }),
    })
    renderApp('/my-bids/bid-1')
    expect(await screen.findByText(/Accepted automatically when the window closed/)).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Report: no longer pinned' }))
    const dialog = await screen.findByRole('dialog', { name: 'Report: no longer pinned' })
    await userEvent.type(within(dialog).getByLabelText('What is wrong?'), 'Gone since Monday.')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Report it' }))
    expect(await within(dialog).findByText('This placement is already disputed.')).toHaveAttribute('role', 'alert')
    // the page asks again what is true now
    await waitFor(() => expect(api.calls.filter((c) => c.path === '/instagram/placements/bid-1/trust').length).toBeGreaterThan(1))
  })

  it("shows the creator's answer and the operator's decision with its reason; an ended placement offers no report", async () => {
    brandWith(() => ({
      ...awaiting,
      acceptance: { status: 'AWAITING', acceptBy: '2026-11-29T10:00:00Z', acceptedAt: null, acceptedBy: null },
      dispute: dispute({
        status: 'DECIDED',
        creatorNote: 'It was pinned all along.',
        answeredAt: '2026-11-27T09:00:00Z',
        outcome: 'REFUND_UNEARNED',
        decisionReason: 'The new screenshot shows another comment pinned.',
        decidedAt: '2026-11-27T15:00:00Z',
      }),
      ended: true,
      endReason: 'refunded after a dispute',
      actions: trustActions(),
    }))
    renderApp('/my-bids/bid-1')
    const summary = await screen.findByRole('region', { name: 'Dispute' })
    expect(within(summary).getByText('“It was pinned all along.”')).toBeInTheDocument()
    expect(within(summary).getByText('The unearned share is refunded to the brand')).toBeInTheDocument()
    expect(within(summary).getByText('Reason: The new screenshot shows another comment pinned.')).toBeInTheDocument()
    expect(screen.getByText('This placement has ended: refunded after a dispute')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Report/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Looks right' })).not.toBeInTheDocument()
  })

  it('follows what the server allows: its deadline is the one shown, and a button it closes is not offered', async () => {
    // awaiting acceptance, but the server takes "Looks right" until its own deadline and no report (completed)
    brandWith(() => ({ ...awaiting, actions: trustActions({ accept: '2026-11-30T08:00:00Z' }) }))
    renderApp('/my-bids/bid-1')
    expect(await screen.findByText(/^Counts as accepted on Nov 30, 2026/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Looks right' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Report/ })).not.toBeInTheDocument()
  })

  it('offers nothing when the server says nothing is open, whatever the state looks like', async () => {
    brandWith(() => ({ ...awaiting, acceptance: { status: 'ACCEPTED', acceptBy: null, acceptedAt: '2026-11-26T13:00:00Z', acceptedBy: 'BRAND' }, actions: trustActions() }))
    renderApp('/my-bids/bid-1')
    expect(await screen.findByText(/You accepted it on/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Report/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Looks right' })).not.toBeInTheDocument()
  })

  it("the report says the creator's time to answer as social is set", async () => {
    brandWith(() => awaiting)
    renderApp('/my-bids/bid-1')
    setConfig({ ...getConfig(), rules: { ...DEFAULT_CONFIG.rules, trustWindowHours: { ...DEFAULT_CONFIG.rules.trustWindowHours, disputeAnswer: 96 } } })
    try {
      await userEvent.click(await screen.findByRole('button', { name: 'Report a problem' }))
      const dialog = await screen.findByRole('dialog', { name: 'Report a problem' })
      expect(within(dialog).getByText(/The creator can answer within 4 days with a note/)).toBeInTheDocument()
    } finally {
      setConfig(DEFAULT_CONFIG)
    }
  })

  it('a failed load says so with Try again; a screenshot that cannot load says so too', async () => {
    let fail = true
    brandWith(() => awaiting, {
      'GET /instagram/placements/bid-1/trust': () => (fail ? json(500, { detail: 'boom', code: 'internal' }) : json(200, awaiting)),
      'GET /instagram/placements/bid-1/evidence/ev-1': () => json(404, { detail: 'Not found.', code: 'not_found' }),
    })
    renderApp('/my-bids/bid-1')
    expect(await screen.findByText('Failed to load the proof of the pin. Please try again later.')).toBeInTheDocument()
    fail = false
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('The screenshot could not be loaded.')).toBeInTheDocument()
  })
})
