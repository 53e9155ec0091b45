import { describe, expect, it } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import { QueryClient } from '@tanstack/react-query'
import { json, renderApp } from '@/test/utils'
import { mockStream } from '@/test/sse'
import { buyer, makeBid, makeSlot, signedIn, trustActions } from '@/test/fixtures'
import { KEYS } from '@/api/keys'
import type { PlacementTrust } from '@/api/trust'
import { applyBidEvent, applyNotificationEvent, applyPlacementEvent } from './cache'
import { parseLiveEvent } from './events'

const notice = { id: 'n-1', title: 'Check your placement', message: 'm', createdAt: '2026-11-26T10:00:00Z', kind: 'placement.check', read: false, link: '/my-bids/bid-1' }

describe('live placement changes', () => {
  it('a placement message is read; a malformed one is dropped', () => {
    expect(parseLiveEvent('placement', '{"id":"bid-1","change":"DISPUTED"}')).toEqual({ type: 'placement', data: { bidId: 'bid-1', change: 'DISPUTED' } })
    expect(parseLiveEvent('placement', '{"bid":"bid-1"}')).toBeNull()
  })

  it('a notice, a bid event and a placement message each mark the proof of the pin stale', () => {
    for (const apply of [
      (c: QueryClient) => applyNotificationEvent(c, { notification: notice, unreadCount: 1 }, 'BUYER'),
      (c: QueryClient) => applyBidEvent(c, { id: 'bid-1', slotId: 'slot-1', status: 'PINNED', amount: null }),
      (c: QueryClient) => applyPlacementEvent(c, { bidId: 'bid-1', change: 'ACCEPTED' }, 'INFLUENCER'),
    ]) {
      const client = new QueryClient()
      client.setQueryData(KEYS.placementTrust('bid-1'), { ended: false })
      client.setQueryData(KEYS.placementTrust('bid-2'), { ended: false })
      apply(client)
      expect(client.getQueryState(KEYS.placementTrust('bid-1'))!.isInvalidated).toBe(true)
    }
    const client = new QueryClient()
    client.setQueryData(KEYS.placementTrust('bid-2'), { ended: false })
    applyPlacementEvent(client, { bidId: 'bid-1', change: 'DECIDED' }, 'BUYER')
    expect(client.getQueryState(KEYS.placementTrust('bid-2'))!.isInvalidated).toBe(false)
  })

  it("the brand's page asks again when the stream says the placement changed", async () => {
    const stream = mockStream()
    let reported = false
    const trust = (): PlacementTrust => ({
      method: 'SESSION',
      acceptance: { status: 'NOT_NEEDED', acceptBy: null, acceptedAt: null, acceptedBy: null },
      evidence: [],
      recheck: null,
      dispute: reported
        ? { id: 'd', status: 'DECIDED', reason: 'gone', reporter: 'BRAND', reportedAt: '2026-11-26T10:00:00Z', creatorNote: null, answerBy: '2026-11-28T10:00:00Z', answeredAt: null, outcome: 'CONTINUE', decisionReason: 'It is pinned.', decidedAt: '2026-11-28T11:00:00Z' }
        : null,
      ended: false,
      endReason: null,
      actions: trustActions({ report: true }),
    })
    signedIn(buyer, {
      'GET /events/stream': stream.route,
      'GET /buyer/bids': () => json(200, [makeBid({ id: 'bid-1', status: 'PINNED', pinSlot: makeSlot() })]),
      'GET /instagram/placements/bid-1/results': () => json(200, { link: null, clicks: 0, likes: 0, replies: 0, status: 'PINNED', clicksByHour: [], figures: [] }),
      'GET /instagram/placements/bid-1/trust': () => json(200, trust()),
    })
    renderApp('/my-bids/bid-1')
    expect(await screen.findByText(/Pinbid checks this pin itself/)).toBeInTheDocument()
    await waitFor(() => expect(stream.urls().length).toBeGreaterThan(0))
    reported = true
    stream.send('placement', { id: 'bid-1', change: 'DECIDED' })
    expect(await screen.findByText('Reason: It is pinned.')).toBeInTheDocument()
  })
})
