import { describe, expect, it } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import { KEYS } from '@/api/keys'
import { applyNotificationEvent } from '@/api/live/cache'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, renderApp } from '@/test/utils'
import { buyer, creator, makeBid, makeSlot, signedIn, toastWith } from '@/test/fixtures'
import { fmtDateTime } from '@/components/common'

const UNTIL = '2026-11-29T20:00:00Z'
const slot = makeSlot({ id: 'slot-1', title: 'Leg day', status: 'CLOSED' })
const offered = makeBid({ id: 'bid-2', status: 'OFFERED', amount: 150, maxAutoBid: 200, autoBidEnabled: true, amountOffered: 200, offerExpiresAt: UNTIL, pinSlot: slot })

describe("the brand's second-chance offer on My Bids", () => {
  it('shows the price and the deadline, and Accept sends the answer and shows the approved bid', async () => {
    let answered = false
    const api = signedIn(buyer, {
      'GET /buyer/bids': () => json(200, [answered ? { ...offered, status: 'APPROVED', tab: 'won', finalPrice: 200 } : offered]),
      'GET /buyer/dashboard-figures': () => json(200, { activeBids: 1, wonAuctions: 0 }),
      'POST /buyer/bids/bid-2/accept-offer': () => {
        answered = true
        return json(200, { ...offered, status: 'APPROVED', tab: 'won', finalPrice: 200 })
      },
    })
    renderApp('/my-bids')
    const panel = await screen.findByRole('region', { name: 'Second-chance offer' }, { timeout: 15_000 })
    expect(panel).toHaveTextContent('offers you this slot at your maximum, $200.00.')
    expect(panel).toHaveTextContent(`Answer by ${fmtDateTime(UNTIL)}.`)
    expect(screen.getByText('Offered to you')).toBeInTheDocument()
    await userEvent.click(within(panel).getByRole('button', { name: 'Accept for $200.00' }))
    await toastWith('Offer accepted', '“Leg day” is yours at $200.00. Pay for it here when asked.')
    expect(api.called('POST', '/buyer/bids/bid-2/accept-offer')).toBe(true)
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Second-chance offer' })).not.toBeInTheDocument())
  })

  it("Decline sends the answer; the server's refusal (a lapsed offer) is shown and the offer stays", async () => {
    const api = signedIn(buyer, {
      'GET /buyer/bids': () => json(200, [offered]),
      'GET /buyer/dashboard-figures': () => json(200, { activeBids: 1, wonAuctions: 0 }),
      'POST /buyer/bids/bid-2/decline-offer': () => json(409, { detail: 'This offer has lapsed.', code: 'offer_lapsed' }),
    })
    renderApp('/my-bids')
    const panel = await screen.findByRole('region', { name: 'Second-chance offer' }, { timeout: 15_000 })
    await userEvent.click(within(panel).getByRole('button', { name: 'Decline' }))
    await toastWith('Could not answer the offer', 'This offer has lapsed.')
    expect(api.called('POST', '/buyer/bids/bid-2/decline-offer')).toBe(true)
    expect(screen.getByRole('region', { name: 'Second-chance offer' })).toBeInTheDocument()
  })
})

const fallen = makeBid({ id: 'bid-1', status: 'REJECTED', finalPrice: 210, user: { name: 'Northwind', email: null }, pinSlot: slot })
const runnerUp = makeBid({ id: 'bid-2', status: 'EXPIRED', amount: 150, maxAutoBid: 200, autoBidEnabled: true, user: { name: 'Acme Gear', email: null }, pinSlot: slot })

describe("the creator's offer to the runner-up on Approvals", () => {
  it("names the runner-up and its maximum, and the offer turns the card into the offer's deadline", async () => {
    let made = false
    const api = signedIn(creator, {
      'GET /influencer/approvals': () => json(200, []),
      'GET /influencer/bids/second-chances': () =>
        json(200, [made ? { fallen, runnerUp: null, runnerUpPrice: null, openOffer: { ...runnerUp, status: 'OFFERED', amountOffered: 200, offerExpiresAt: UNTIL } } : { fallen, runnerUp, runnerUpPrice: 200, openOffer: null }]),
      'POST /influencer/bids/bid-1/second-chance': () => {
        made = true
        return json(200, { ...runnerUp, status: 'OFFERED', amountOffered: 200, offerExpiresAt: UNTIL })
      },
    })
    renderApp('/approvals')
    const card = await screen.findByRole('article', { name: 'Second chance for Leg day' }, { timeout: 15_000 })
    expect(card).toHaveTextContent('Sold to Northwind at $210.00, but you rejected the winning bid.')
    expect(card).toHaveTextContent('Runner-up: Acme Gear, whose maximum was $200.00')
    await userEvent.click(within(card).getByRole('button', { name: 'Offer to the runner-up' }))
    await toastWith('Offer sent', `Acme Gear has until ${fmtDateTime(UNTIL)} to answer.`)
    expect(api.called('POST', '/influencer/bids/bid-1/second-chance')).toBe(true)
    await waitFor(() => expect(card).toHaveTextContent(`Offered to Acme Gear at $200.00, waiting for their answer until ${fmtDateTime(UNTIL)}.`))
    expect(within(card).queryByRole('button', { name: 'Offer to the runner-up' })).not.toBeInTheDocument()
  })

  it('says when nobody is left and shows the server refusing a second offer', async () => {
    signedIn(creator, {
      'GET /influencer/approvals': () => json(200, []),
      'GET /influencer/bids/second-chances': () =>
        json(200, [{ fallen: { ...fallen, id: 'bid-9', status: 'EXPIRED', payment: { status: 'EXPIRED', expiresAt: null, paidAt: null } }, runnerUp: null, runnerUpPrice: null, openOffer: null },
                   { fallen, runnerUp, runnerUpPrice: 200, openOffer: null }]),
      'POST /influencer/bids/bid-1/second-chance': () => json(409, { detail: 'This slot is already offered to a runner-up: wait for their answer.', code: 'offer_open' }),
    })
    renderApp('/approvals')
    const [empty, open] = await screen.findAllByRole('article', { name: 'Second chance for Leg day' }, { timeout: 15_000 })
    expect(empty).toHaveTextContent('the winner did not pay in time.')
    expect(empty).toHaveTextContent('Nobody is left to offer it to. You can list the post again.')
    await userEvent.click(within(open!).getByRole('button', { name: 'Offer to the runner-up' }))
    await toastWith('Could not make the offer', 'This slot is already offered to a runner-up: wait for their answer.')
  })

  it('shows nothing when no winner fell through, and the approvals stay when the list cannot be read', async () => {
    signedIn(creator, { 'GET /influencer/approvals': () => json(200, []) }) // the second-chances read answers 404
    renderApp('/approvals')
    expect(await screen.findByText('All caught up!', {}, { timeout: 15_000 })).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Second chances' })).not.toBeInTheDocument()
  })
})

describe('the second chance live', () => {
  it("an offer's notice makes the brand's bids stale, its answer's notice the creator's second chances", () => {
    const notice = (kind: string) => ({ notification: { id: kind, title: 't', message: 'm', createdAt: '2026-11-27T20:00:00Z', kind, read: false, link: '/my-bids' }, unreadCount: 1 })
    const brand = new QueryClient()
    brand.setQueryData(KEYS.buyerBids, [offered])
    applyNotificationEvent(brand, notice('offer.made'), 'BUYER')
    expect(brand.getQueryState(KEYS.buyerBids)!.isInvalidated).toBe(true)
    const maker = new QueryClient()
    maker.setQueryData(KEYS.secondChances, [])
    applyNotificationEvent(maker, notice('offer.accepted'), 'INFLUENCER')
    expect(maker.getQueryState(KEYS.secondChances)!.isInvalidated).toBe(true)
  })
})
