import { describe, expect, it } from 'vitest'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, renderApp } from '@/test/utils'
import { buyer, makeBid, signedIn, toastWith } from '@/test/fixtures'

const RESULTS = {
  link: null,
  clicks: 0,
  likes: 0,
  replies: 0,
  status: 'AWAITING_PIN',
  clicksByHour: [],
  figures: [],
}

describe('placement page', () => {
  it('makes the short link, then shows it with its promo code; no figures yet says so', async () => {
    let saved: unknown = null
    const api = signedIn(buyer, {
      'GET /instagram/placements/bid-1/results': () =>
        json(200, saved ? { ...RESULTS, link: { code: 'AbC1234', shortUrl: 'http://pinbid.test/go/AbC1234', destination: 'https://northwind.coffee/x', promoCode: 'SUMMER-25' } } : RESULTS),
      'PUT /instagram/placements/bid-1/link': (body) => {
        saved = body
        return json(200, { code: 'AbC1234', shortUrl: 'http://pinbid.test/go/AbC1234', destination: 'https://northwind.coffee/x', promoCode: 'SUMMER-25' })
      },
    })
    renderApp('/my-bids/bid-1')
    expect(await screen.findByText(/No figures yet/)).toBeInTheDocument()
    const url = screen.getByLabelText('Your page')
    await userEvent.clear(url)
    await userEvent.type(url, 'https://northwind.coffee/x')
    await userEvent.type(screen.getByLabelText('Promo code (optional)'), 'SUMMER-25')
    await userEvent.click(screen.getByRole('button', { name: 'Make my short link' }))
    await toastWith('Short link saved')
    expect(saved).toEqual({ url: 'https://northwind.coffee/x', promoCode: 'SUMMER-25' })
    expect(await screen.findByText('http://pinbid.test/go/AbC1234')).toBeInTheDocument()
    expect(screen.getByText('SUMMER-25')).toBeInTheDocument()
    expect(api.called('PUT', '/instagram/placements/bid-1/link')).toBe(true)
  })

  it('a refused page says why; a placement that is not yours is a clear empty state', async () => {
    signedIn(buyer, {
      'GET /instagram/placements/bid-1/results': () => json(200, RESULTS),
      'PUT /instagram/placements/bid-1/link': () =>
        json(422, { detail: 'The link must be an https:// address of your page.', code: 'validation_error', errors: [{ field: 'url', message: 'x' }] }),
      'GET /instagram/placements/bid-2/results': () => json(404, { detail: 'This placement does not exist.', code: 'not_found' }),
    })
    const { unmount } = renderApp('/my-bids/bid-1')
    const url = await screen.findByLabelText('Your page')
    await userEvent.clear(url)
    await userEvent.type(url, 'http://northwind.coffee')
    await userEvent.click(screen.getByRole('button', { name: 'Make my short link' }))
    // the form's line says why, and the field the server named shows its message
    expect(await screen.findByText('The link must be an https:// address of your page.')).toHaveAttribute('role', 'alert')
    expect(screen.getByText('x')).toHaveAttribute('role', 'alert')
    expect(screen.getByLabelText('Your page')).toHaveAttribute('aria-invalid', 'true')
    unmount()
    renderApp('/my-bids/bid-2')
    expect(await screen.findByText('This placement does not exist, or it is not yours.')).toBeInTheDocument()
  })

  it('after the end, the page says so: no link form, and the chart says why it has no figures', async () => {
    const refunded = makeBid({
      id: 'bid-3', status: 'PINNED', finalPrice: 12.5, refunded: 12.5, disputeOutcome: 'REFUND_ALL',
      payment: { status: 'REFUNDED', expiresAt: null, paidAt: '2026-11-20T10:00:00Z' },
      pinnedComment: { commentText: 'Ad · @northwind: Great reel', likes: 0, replies: 0, clicks: 0, status: 'ENDED', pinnedAt: '2026-11-20T11:00:00Z' },
    })
    signedIn(buyer, {
      'GET /buyer/bids': () => json(200, [refunded]),
      'GET /instagram/placements/bid-3/results': () => json(200, { ...RESULTS, status: 'ENDED', link: { code: 'AbC1234', shortUrl: 'http://pinbid.test/go/AbC1234', destination: 'https://northwind.coffee/x', promoCode: null } }),
    })
    renderApp('/my-bids/bid-3')
    expect(await screen.findByText('No figures were read before the placement ended.')).toBeInTheDocument()
    expect(screen.getByText(/Refunded: the short link and promo code can no longer change/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Make my short link' })).not.toBeInTheDocument()
  })
})
