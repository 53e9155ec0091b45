import { describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import { QueryClient } from '@tanstack/react-query'
import { KEYS } from '@/api/keys'
import { applyBidEvent } from '@/api/live/cache'
import userEvent from '@testing-library/user-event'
import { json, renderApp } from '@/test/utils'
import { buyer, makeBid, makeSlot, page, signedIn, toastWith } from '@/test/fixtures'
import type { Campaign, CampaignDetail } from '@/api/types'
import { isoToLocal } from '@/lib/campaigns'
import { pageTitle as documentTitle } from '@/titles'
import { NO_CAMPAIGNS } from './campaigns/CampaignsPage'

const END = '2027-01-31T18:00:00.000Z'

function makeCampaign(over: Partial<Campaign> = {}): Campaign {
  return {
    id: 'camp-1',
    name: 'Fitness, December',
    status: 'ACTIVE',
    reason: null,
    filters: { category: 'fitness', maxPrice: 100 },
    ask: null,
    budget: 2000,
    maxPerSlot: 80,
    funded: 2000,
    committed: 450.1,
    spent: 120.05,
    available: 1549.9,
    commentText: 'Train with us: 20% off with FIT20',
    startsAt: '2026-11-01T00:00:00Z',
    endsAt: END,
    createdAt: '2026-11-01T00:00:00Z',
    updatedAt: '2026-11-20T00:00:00Z',
    version: 3,
    counts: { bidding: 4, leading: 3, outbid: 1, won: 2, pinned: 1 },
    ...over,
  }
}

function makeDetail(over: Partial<CampaignDetail> = {}): CampaignDetail {
  return {
    ...makeCampaign(over),
    bids: [
      { id: 'b-lead', slotId: 's1', slotTitle: 'Sunrise yoga reel', creatorName: 'Maya', status: 'ACTIVE', amount: 41, maxAutoBid: 80, finalPrice: null, clicks: 0, costPerClick: null, updatedAt: '2026-11-20T10:00:00Z' },
      { id: 'b-out', slotId: 's2', slotTitle: 'Leg day', creatorName: '', status: 'OUTBID', amount: 80, maxAutoBid: 80, finalPrice: null, clicks: 0, costPerClick: null, updatedAt: '2026-11-20T10:00:00Z' },
      { id: 'b-pin', slotId: 's3', slotTitle: 'Protein pancakes', creatorName: 'Leo', status: 'PINNED', amount: 60, maxAutoBid: 80, finalPrice: 60, clicks: 240, costPerClick: 0.25, updatedAt: '2026-11-20T10:00:00Z' },
    ],
    skipped: [{ slotId: 's9', slotTitle: 'Marathon prep', reason: 'OWN_BID', at: '2026-11-19T10:00:00Z' }],
    spendOverTime: [
      { at: '2026-11-02T00:00:00Z', spent: 0, committed: 80 },
      { at: '2026-11-10T00:00:00Z', spent: 60, committed: 300 },
      { at: '2026-11-20T00:00:00Z', spent: 120.05, committed: 450.1 },
    ],
    ...over,
  }
}

const FIRST_LOAD = { timeout: 15_000 }

describe('campaigns list', () => {
  it('each campaign: its name, status, the bar of its budget and its counts', async () => {
    signedIn(buyer, { 'GET /buyer/campaigns': () => json(200, [makeCampaign(), makeCampaign({ id: 'camp-2', name: 'Tech launch', status: 'DRAFT', funded: 0, committed: 0, spent: 0 })]) })
    renderApp('/campaigns')
    const list = within(await screen.findByRole('list', { name: 'Your campaigns' }, FIRST_LOAD))
    const [first, second] = list.getAllByRole('listitem')
    expect(within(first).getByRole('link', { name: 'Fitness, December' })).toHaveAttribute('href', '/campaigns/camp-1')
    expect(within(first).getByText('Active')).toBeInTheDocument()
    expect(within(first).getByRole('img', { name: '$120.05 spent and $330.05 committed to bids, of a $2,000.00 budget; $1,549.90 free.' })).toBeInTheDocument()
    expect(within(first).getByText(/Fitness · up to \$100\.00 · at most \$80\.00 a comment/)).toBeInTheDocument()
    const counts = within(first).getByText('Leading').parentElement!
    expect(counts).toHaveTextContent('Leading3')
    expect(within(second).getByText('Not funded')).toBeInTheDocument()
    // the shares of the bar: spent 6.0025 %, committed beyond spent 16.5025 %
    const bar = within(first).getByTestId('budget-bar')
    expect((bar.querySelector('[data-share="spent"]') as HTMLElement).style.width).toBe('6.0025%')
    expect((bar.querySelector('[data-share="committed"]') as HTMLElement).style.width).toBe('16.5025%')
  })

  it('with none, says what a campaign is and offers the first', async () => {
    signedIn(buyer, { 'GET /buyer/campaigns': () => json(200, []) })
    renderApp('/campaigns')
    expect(await screen.findByText(NO_CAMPAIGNS, {}, FIRST_LOAD)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Create your first campaign' })).toHaveAttribute('href', '/campaigns/new')
  })

  it('a failed load says so, with Try again', async () => {
    signedIn(buyer, { 'GET /buyer/campaigns': () => json(500, { detail: 'boom' }) })
    renderApp('/campaigns')
    expect(await screen.findByRole('alert', {}, FIRST_LOAD)).toHaveTextContent('Failed to load campaigns. Please try again later.')
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })

  it('sits beside My Bids in the brand navigation', async () => {
    signedIn(buyer, { 'GET /buyer/campaigns': () => json(200, []) })
    renderApp('/campaigns')
    await screen.findByText(NO_CAMPAIGNS, {}, FIRST_LOAD)
    const nav = screen.getAllByRole('link').map((a) => a.textContent)
    expect(nav.indexOf('Campaigns')).toBe(nav.indexOf('My Bids') + 1)
  })
})

describe('new campaign', () => {
  it('bad input is told on its fields and nothing is sent; the server’s 422 shows on the field it names', async () => {
    const api = signedIn(buyer, {
      'GET /marketplace/categories': () => json(200, ['fashion', 'fitness']),
      'GET /marketplace/slots': () => page([], 0),
      'POST /buyer/campaigns': () => json(422, { detail: 'Invalid input.', code: 'validation_error', errors: [{ field: 'maxPerSlot', message: 'The most per comment is below the smallest minimum bid it could win ($25.00).' }] }),
    })
    renderApp('/campaigns/new')
    const create = await screen.findByRole('button', { name: 'Create campaign' }, FIRST_LOAD)
    await userEvent.click(create)
    expect(await screen.findByText('Give the campaign a name.')).toBeInTheDocument()
    expect(screen.getByText('Enter the total budget.')).toBeInTheDocument()
    expect(screen.getByText('Enter the most you will pay for one comment.')).toBeInTheDocument()
    expect(screen.getByText('Write the comment to pin.')).toBeInTheDocument()
    expect(screen.getByText('Choose when the campaign ends.')).toBeInTheDocument()
    // the reach of filters that match nothing is said, not refused
    expect(await screen.findByText('No open slot matches now: the campaign will bid when one that fits is listed.')).toBeInTheDocument()

    await userEvent.type(screen.getByLabelText('Campaign name'), 'Fitness, December')
    await userEvent.type(screen.getByLabelText('Total budget (USD)'), '50')
    await userEvent.type(screen.getByLabelText('Most per comment (USD)'), '80')
    await userEvent.type(screen.getByLabelText('Comment to pin'), 'Train with us')
    await userEvent.type(screen.getByLabelText('Ends'), isoToLocal('2020-01-01T10:00:00Z'))
    await userEvent.click(create)
    expect(await screen.findByText('The most per comment ($80.00) cannot be above the budget ($50.00).')).toBeInTheDocument()
    expect(screen.getByText('The end date must be in the future.')).toBeInTheDocument()
    // the disclosure goes first, as on a bid's new comment
    expect(screen.getByText(/Ad · Riley Brand: Train with us/)).toBeInTheDocument()
    expect(api.called('POST', '/buyer/campaigns')).toBe(false)

    await userEvent.clear(screen.getByLabelText('Total budget (USD)'))
    await userEvent.type(screen.getByLabelText('Total budget (USD)'), '2000')
    await userEvent.clear(screen.getByLabelText('Ends'))
    await userEvent.type(screen.getByLabelText('Ends'), isoToLocal(END))
    await userEvent.click(create)
    await toastWith('The campaign could not be created.')
    expect(await screen.findByText('The most per comment is below the smallest minimum bid it could win ($25.00).')).toBeInTheDocument()
    expect(screen.getByLabelText('Most per comment (USD)')).toHaveFocus()
  })

  it('a good campaign is sent as typed, then its page opens', async () => {
    const api = signedIn(buyer, {
      'GET /marketplace/categories': () => json(200, ['fashion', 'fitness']),
      'GET /marketplace/slots': () => page([makeSlot()], 12),
      'POST /buyer/campaigns': () => json(201, makeCampaign({ status: 'DRAFT', funded: 0 })),
      'GET /buyer/campaigns/camp-1': () => json(200, makeDetail({ status: 'DRAFT', funded: 0, committed: 0, spent: 0, bids: [], skipped: [], spendOverTime: [] })),
    })
    renderApp('/campaigns/new')
    await userEvent.type(await screen.findByLabelText('Campaign name', {}, FIRST_LOAD), '  Fitness, December ')
    await userEvent.click(await screen.findByRole('button', { name: 'Fitness' }))
    await userEvent.click(screen.getByRole('switch', { name: 'Verified Only' }))
    await userEvent.type(screen.getByLabelText('Total budget (USD)'), '2.000,50')
    await userEvent.type(screen.getByLabelText('Most per comment (USD)'), '80')
    await userEvent.type(screen.getByLabelText('Comment to pin'), 'Train with us')
    await userEvent.type(screen.getByLabelText('Ends'), isoToLocal(END))
    expect(await screen.findByText('12 open slots match now.')).toBeInTheDocument()
    // pressed twice at once: one campaign
    const create = screen.getByRole('button', { name: 'Create campaign' })
    create.click()
    create.click()
    await toastWith('Campaign created')
    expect(api.calls.filter((c) => c.method === 'POST' && c.path === '/buyer/campaigns')).toHaveLength(1)
    const call = api.calls.find((c) => c.method === 'POST' && c.path === '/buyer/campaigns')
    expect(call?.body).toEqual({ name: 'Fitness, December', filters: { category: 'fitness', verified: true }, budget: 2000.5, maxPerSlot: 80, commentText: 'Train with us', endsAt: END })
    expect(await screen.findByText('Fund the budget to start bidding.')).toBeInTheDocument()
    expect(screen.getByTestId('location')).toHaveTextContent('/campaigns/camp-1')
  })
})

describe('a comment used before', () => {
  it('one press fills the comment with what an earlier bid carried; each text once, newest first', async () => {
    signedIn(buyer, {
      'GET /marketplace/categories': () => json(200, ['fashion', 'fitness']),
      'GET /marketplace/slots': () => page([makeSlot()], 12),
      'GET /buyer/bids': () =>
        json(200, [
          makeBid({ id: 'b1', comment: 'Oat latte, 20% off with LATTE20' }),
          makeBid({ id: 'b2', comment: null }),
          makeBid({ id: 'b3', comment: 'Oat latte, 20% off with LATTE20' }),
          makeBid({ id: 'b4', comment: 'Cold brew season' }),
        ]),
    })
    renderApp('/campaigns/new')
    const group = await screen.findByRole('group', { name: 'Or a comment you used before' }, FIRST_LOAD)
    const choices = within(group).getAllByRole('button')
    expect(choices.map((b) => b.textContent)).toEqual(['Oat latte, 20% off with LATTE20', 'Cold brew season'])
    await userEvent.click(choices[1])
    expect(screen.getByLabelText('Comment to pin')).toHaveValue('Cold brew season')
  })
})

describe('edit campaign', () => {
  it('a budget below what is committed is refused by the server, and said on the budget', async () => {
    const api = signedIn(buyer, {
      'GET /marketplace/categories': () => json(200, ['fitness']),
      'GET /marketplace/slots': () => page([makeSlot()], 3),
      'GET /buyer/campaigns/camp-1': () => json(200, makeDetail()),
      'PATCH /buyer/campaigns/camp-1': () => json(409, { detail: 'The budget cannot go below what is already committed ($450.10).', code: 'budget_below_committed' }),
    })
    renderApp('/campaigns/camp-1/edit')
    const budget = await screen.findByLabelText('Total budget (USD)', {}, FIRST_LOAD)
    expect(budget).toHaveValue('2000.00')
    await userEvent.clear(budget)
    await userEvent.type(budget, '300')
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }))
    await toastWith('The campaign could not be saved.')
    expect(await screen.findByText('The budget cannot go below what is already committed ($450.10).', { selector: '[data-slot="form-message"]' })).toBeInTheDocument()
    // only what changed was sent, with the version it was read at
    expect(api.calls.find((c) => c.method === 'PATCH')?.body).toEqual({ budget: 300, version: 3 })
  })
})

describe('a campaign’s page', () => {
  it('the bar’s figures, the bids with their state, clicks and cost per click, and the chart’s table', async () => {
    signedIn(buyer, { 'GET /buyer/campaigns/camp-1': () => json(200, makeDetail()) })
    renderApp('/campaigns/camp-1')
    expect(await screen.findByRole('heading', { name: 'Fitness, December' }, FIRST_LOAD)).toBeInTheDocument()
    expect(screen.getByTestId('campaign-state')).toHaveTextContent('Bidding on every open slot that fits')
    const budget = within(screen.getByRole('heading', { name: 'Budget' }).closest('[data-slot="card"]') as HTMLElement)
    expect(budget.getByText('Spent').parentElement).toHaveTextContent('Spent$120.05')
    expect(budget.getByText('Committed to bids').parentElement).toHaveTextContent('Committed to bids$330.05')
    expect(budget.getByText('Free').parentElement).toHaveTextContent('Free$1,549.90')
    const bids = within(screen.getByRole('list', { name: 'Bids of this campaign' }))
    const [lead, out, pinned] = bids.getAllByRole('listitem')
    expect(lead).toHaveTextContent('Leading')
    expect(lead).toHaveTextContent('Up to $80.00')
    expect(out).toHaveTextContent('Outbid')
    expect(out).toHaveTextContent('Unknown creator')
    expect(pinned).toHaveTextContent('Clicks 240')
    expect(pinned).toHaveTextContent('Per click $0.25')
    expect(within(pinned).getByRole('link', { name: 'Protein pancakes' })).toHaveAttribute('href', '/my-bids/b-pin')
    expect(screen.getByRole('table', { name: /Spend over time for Fitness, December/ })).toBeInTheDocument()
    expect(screen.getByText('Slots it fitted but did not bid on (1)')).toBeInTheDocument()
    expect(screen.getByText(/you already bid there yourself/)).toBeInTheDocument()
  })

  it('Pause, Resume and End (End asks first), each told by a toast; the page shows the answer', async () => {
    let current = makeDetail()
    const api = signedIn(buyer, {
      'GET /buyer/campaigns/camp-1': () => json(200, current),
      'GET /buyer/campaigns': () => json(200, [current]),
      'POST /buyer/campaigns/camp-1/pause': () => json(200, (current = { ...current, status: 'PAUSED', reason: 'paused' })),
      'POST /buyer/campaigns/camp-1/resume': () => json(200, (current = { ...current, status: 'ACTIVE', reason: null })),
      'POST /buyer/campaigns/camp-1/end': () => json(200, (current = { ...current, status: 'ENDED', reason: 'ended_by_brand' })),
    })
    renderApp('/campaigns/camp-1')
    await userEvent.click(await screen.findByRole('button', { name: 'Pause' }, FIRST_LOAD))
    await toastWith('Campaign paused')
    expect(await screen.findByText(/Paused: it places no new bids/)).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Resume' }))
    await toastWith('Campaign resumed')
    await screen.findByRole('button', { name: 'Pause' })

    await userEvent.click(screen.getByRole('button', { name: 'End' }))
    const confirm = within(await screen.findByRole('alertdialog'))
    expect(confirm.getByText(/This cannot be undone/)).toBeInTheDocument()
    await userEvent.click(confirm.getByRole('button', { name: 'Cancel' }))
    expect(api.called('POST', '/buyer/campaigns/camp-1/end')).toBe(false)
    await userEvent.click(screen.getByRole('button', { name: 'End' }))
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'End campaign' }))
    await toastWith('Campaign ended')
    expect(await screen.findByText(/You ended it/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Pause' })).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument()
  })

  it('a refused action says why; Fund goes to the checkout page', async () => {
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign })
    signedIn(buyer, {
      'GET /buyer/campaigns/camp-1': () => json(200, makeDetail({ status: 'DRAFT', funded: 0 })),
      'POST /buyer/campaigns/camp-1/fund': () => json(200, { url: 'https://checkout.example/c/1' }),
      'POST /buyer/campaigns/camp-1/end': () => json(409, { detail: 'This campaign has already ended.', code: 'campaign_ended' }),
    })
    renderApp('/campaigns/camp-1')
    await userEvent.click(await screen.findByRole('button', { name: 'End' }, FIRST_LOAD))
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'End campaign' }))
    await toastWith('Could not end the campaign', 'This campaign has already ended.')
    await userEvent.click(screen.getByRole('button', { name: 'Fund $2,000.00' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.example/c/1'))
  })

  it("the chart starts at nothing when the campaign was created, with only the server's point of now", async () => {
    signedIn(buyer, { 'GET /buyer/campaigns/camp-1': () => json(200, makeDetail({ createdAt: '2026-11-01T00:00:00Z', spendOverTime: [{ at: '2026-11-20T00:00:00Z', spent: 0, committed: 240 }] })) })
    renderApp('/campaigns/camp-1')
    const table = within(await screen.findByRole('table', { name: /Spend over time/ }, FIRST_LOAD))
    const rows = table.getAllByRole('row').slice(1)
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringMatching(/^Nov 1, 2026.*\$0\.00\$0\.00$/), expect.stringMatching(/^Nov 20, 2026.*\$0\.00\$240\.00$/)])
  })

  it('back from checkout: a toast says how the payment went, and the address is cleaned', async () => {
    signedIn(buyer, { 'GET /buyer/campaigns/camp-1': () => json(200, makeDetail({ status: 'DRAFT', funded: 0 })) })
    renderApp('/campaigns/camp-1?funding=cancelled')
    await toastWith('Payment cancelled', 'Nothing was charged; the campaign is not funded.')
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/campaigns/camp-1'))
  })

  it('a bid event on the live stream marks the campaigns stale at once', () => {
    const client = new QueryClient()
    client.setQueryData(KEYS.buyerCampaigns, [makeCampaign()])
    client.setQueryData(KEYS.buyerCampaign('camp-1'), makeDetail())
    applyBidEvent(client, { id: 'b-lead', slotId: 's1', status: 'OUTBID', amount: 80 })
    expect(client.getQueryState(KEYS.buyerCampaigns)?.isInvalidated).toBe(true)
    expect(client.getQueryState(KEYS.buyerCampaign('camp-1'))?.isInvalidated).toBe(true)
  })

  it("another brand's or a missing campaign is not there", async () => {
    signedIn(buyer, { 'GET /buyer/campaigns/nope': () => json(404, { detail: 'Not found.', code: 'not_found' }) })
    renderApp('/campaigns/nope')
    expect(await screen.findByText('This campaign is not there.', {}, FIRST_LOAD)).toBeInTheDocument()
  })
})

describe('around the campaigns', () => {
  it('each campaign page has its own document title', () => {
    expect(['/campaigns', '/campaigns/new', '/campaigns/camp-1', '/campaigns/camp-1/edit'].map(documentTitle)).toEqual([
      'Campaigns — Pinbid',
      'New campaign — Pinbid',
      'Campaign — Pinbid',
      'Edit campaign — Pinbid',
    ])
  })

  it("My Bids names a campaign's bid and links to the campaign", async () => {
    signedIn(buyer, { 'GET /buyer/bids': () => json(200, [makeBid({ campaignId: 'camp-1', campaignName: 'Fitness, December' }), makeBid({ id: 'bid-2', pinSlot: makeSlot({ id: 'slot-2', title: 'Own bid' }) })]) })
    renderApp('/my-bids')
    const link = await screen.findByRole('link', { name: 'Fitness, December' }, FIRST_LOAD)
    expect(link).toHaveAttribute('href', '/campaigns/camp-1')
    expect(screen.getAllByText('Campaign')).toHaveLength(1)
  })

  it("a campaign's outbid bid has no Bid Again, and its win no Pay Now: the campaign raises and pays", async () => {
    const ofCampaign = { campaignId: 'camp-1', campaignName: 'Fitness, December' }
    signedIn(buyer, {
      'GET /buyer/bids': () =>
        json(200, [
          makeBid({ id: 'b-out', status: 'OUTBID', ...ofCampaign }),
          makeBid({ id: 'b-won', status: 'AWAITING_PAYMENT', finalPrice: 30, payment: { status: 'REQUESTED', expiresAt: null, paidAt: null }, pinSlot: makeSlot({ id: 'slot-2', title: 'Won slot' }), ...ofCampaign }),
        ]),
    })
    renderApp('/my-bids')
    const active = within(await screen.findByRole('tabpanel', {}, FIRST_LOAD))
    await active.findByText('Sunrise yoga reel')
    expect(active.queryByRole('button', { name: 'Bid Again' })).not.toBeInTheDocument()
    expect(active.getByRole('button', { name: 'Cancel Bid' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('tab', { name: /Won/ }))
    const won = within(screen.getByRole('tabpanel'))
    expect(won.queryByRole('button', { name: 'Pay Now' })).not.toBeInTheDocument()
    expect(won.getByText("Paid from the campaign's budget")).toBeInTheDocument()
  })

  it('Save this search as a campaign takes the marketplace filters into the form', async () => {
    const api = signedIn(buyer, {
      'GET /marketplace/categories': () => json(200, ['fashion', 'fitness']),
      'GET /marketplace/slots': () => page([makeSlot()]),
    })
    renderApp('/marketplace')
    await userEvent.click(await screen.findByRole('button', { name: /Advanced Filters/ }, FIRST_LOAD))
    await userEvent.click(await screen.findByRole('button', { name: 'Fitness' }))
    await userEvent.click(screen.getByRole('switch', { name: 'Verified Only' }))
    await userEvent.click(screen.getByRole('link', { name: /Save this search as a campaign/ }))
    expect(await screen.findByRole('heading', { name: 'New campaign' }, FIRST_LOAD)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Fitness' })).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByRole('switch', { name: 'Verified Only' })).toBeChecked()
    await waitFor(() => expect(api.calls.some((c) => c.path === '/marketplace/slots' && c.method === 'GET')).toBe(true))
  })

  it('Save this search on the dashboard takes the question', async () => {
    signedIn(buyer, {
      'GET /buyer/dashboard': () => json(200, { activeBids: 0, wonAuctions: 0, totalSpent: 0 }),
      'GET /payments/spend-by-month': () => json(200, []),
      'GET /marketplace/slots': () => page([makeSlot()]),
      'GET /marketplace/categories': () => json(200, ['fitness']),
    })
    renderApp('/dashboard')
    await userEvent.type(await screen.findByLabelText(/AI search/, {}, FIRST_LOAD), 'fitness under $30')
    await userEvent.click(await screen.findByRole('link', { name: /Save this search as a campaign/ }))
    expect(await screen.findByLabelText('Your question', {}, FIRST_LOAD)).toHaveValue('fitness under $30')
    expect(screen.getByRole('radio', { name: 'A question' })).toBeChecked()
  })
})
