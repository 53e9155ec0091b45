/** Slots, bids and signed-in sessions for the feature tests, shaped as the API sends them. */
import { expect } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Schemas } from '@/api/client'
import { json, makeUser, mockApi } from './utils'
import type { UploadCall } from './upload'

export type Slot = Schemas['SlotOut']
export type Bid = Schemas['BidOut']

export function makeSlot(over: Partial<Slot> = {}): Slot {
  return {
    id: 'slot-1',
    title: 'Sunrise yoga reel',
    description: 'Pinned comment under my morning flow',
    category: 'fitness',
    minBid: 25,
    currentBid: 40,
    buyNowPrice: null,
    auctionEnd: new Date(Date.now() + 86_400_000).toISOString(),
    duration: 7,
    status: 'ACTIVE',
    outcome: null,
    bidCount: 1,
    bidderCount: 1,
    createdAt: '2026-01-01T00:00:00Z',
    post: { imageUrl: '/img.png', mediaType: 'IMAGE', permalink: 'https://instagram.example/p/1', instagramId: '1' },
    instagramPost: { permalink: 'https://instagram.example/p/1' },
    user: {
      id: 'u1',
      name: 'Maya Creator',
      instagramHandle: 'maya',
      influencerProfile: { avgViews: 120000, followers: 98000, avgEngagement: 4.2, verified: true },
      record: { placements: 12, keptPercent: 92, responseMinutes: 45 },
    },
    bids: [],
    priceHistory: [],
    ...over,
  }
}

/** The server's tab for a status (marketplace's domain/tabs.py), so a test bid stands where the server puts it. */
function serverTab(status: string, placement?: string | null): Bid['tab'] {
  if (status === 'PINNED') return !placement || placement === 'ACTIVE' ? 'live' : 'past'
  if (status === 'ACTIVE' || status === 'OUTBID' || status === 'OFFERED') return 'active'
  if (['PENDING_INFLUENCER_APPROVAL', 'APPROVED', 'AWAITING_PAYMENT', 'WON'].includes(status)) return 'won'
  return 'past'
}

export function makeBid(over: Partial<Bid> = {}): Bid {
  return {
    tab: serverTab(over.status ?? 'ACTIVE', over.pinnedComment?.status),
    wonAuction: ['PENDING_INFLUENCER_APPROVAL', 'APPROVED', 'AWAITING_PAYMENT', 'WON', 'PINNED'].includes(over.status ?? 'ACTIVE'),
    id: 'bid-1',
    amount: 40,
    maxAutoBid: null,
    autoBidEnabled: false,
    status: 'ACTIVE',
    finalPrice: null,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    comment: 'Great reel',
    commentId: null,
    commentUsername: null,
    approvedComment: 'Ad · @northwind: Great reel',
    commentApprovedAt: '2026-11-20T10:00:00Z',
    duration: 7,
    user: { name: 'Northwind', email: 'brand@example.com' },
    pinSlot: makeSlot(),
    payment: null,
    pinnedComment: null,
    refunded: null,
    disputeOutcome: null,
    ...over,
  }
}

export const buyer = makeUser({ role: 'BUYER', name: 'Riley Brand', instagramHandle: null })
export const creator = makeUser({ role: 'INFLUENCER', instagramConnected: true })

export function signedIn(user: ReturnType<typeof makeUser>, routes: Record<string, (body: unknown, req: Request) => Response>) {
  localStorage.setItem('token', 't')
  return mockApi({ 'GET /auth/me': () => json(200, user), ...routes })
}

export const page = (slots: Slot[], total = slots.length, p = 1, totalPages = 1, totalIsExact = true) =>
  json(200, { slots, total, totalIsExact, totalPages, page: p })

/** A toast saying every one of `texts` at one moment, asked again until it holds: a toast's element can be replaced
 * while it shows, and its title and description are read together, since a toast lives 4 s and, on a machine busy
 * with other suites, one found just before it goes is gone by a second look. */
export const toastWith = (...texts: (string | RegExp)[]) =>
  waitFor(() => {
    for (const text of texts) expect(screen.getByText(text)).toBeInTheDocument()
  })

/** Answers the report in `region` as a creator does: sent empty first (a screenshot is required, nothing is uploaded),
 *  then with `note` and `file`, until "Answer sent" shows and the one upload is made. */
export async function answerReport(region: HTMLElement, uploads: { calls: UploadCall[] }, note: string, file: File) {
  const form = within(region)
  await userEvent.click(form.getByRole('button', { name: 'Send my answer' }))
  expect(await form.findByText('Add a screenshot of the pinned comment on your post.')).toBeInTheDocument()
  expect(uploads.calls).toHaveLength(0)
  await userEvent.type(form.getByLabelText('Your answer'), note)
  await userEvent.upload(form.getByLabelText('A new screenshot of the pinned comment'), file)
  await userEvent.click(form.getByRole('button', { name: 'Send my answer' }))
  await toastWith('Answer sent')
  expect(uploads.calls).toHaveLength(1)
}

/** A notification as the list and the stream carry it. */
export const makeNotice = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  title: `Notice ${id}`,
  message: `About ${id}`,
  kind: 'payment.requested',
  link: '/my-bids',
  createdAt: '2026-11-20T10:00:00Z',
  read: false,
  ...over,
})

const CLOSED = { open: false, until: null }

/** A trust view's `actions` as the server sends them: each closed unless given (accept with its deadline, report,
 *  answer with its deadline and what it answers). */
export function trustActions(open: { accept?: string | null; report?: boolean; answer?: { until: string; kind: 'ANSWER' | 'RECHECK' } } = {}): Schemas['PlacementActionsOut'] {
  return {
    accept: open.accept !== undefined ? { open: true, until: open.accept } : CLOSED,
    report: open.report ? { open: true, until: null } : CLOSED,
    answer: open.answer ? { open: true, ...open.answer } : { ...CLOSED, kind: null },
  }
}
