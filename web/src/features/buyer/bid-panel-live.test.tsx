import { describe, expect, it } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, renderApp } from '@/test/utils'
import { mockStream } from '@/test/sse'
import { buyer, makeSlot, page, signedIn, toastWith } from '@/test/fixtures'
import { tooLowWarning } from './place-bid'

const end = () => new Date(Date.now() + 86_400_000).toISOString()

async function openPanel(stream: ReturnType<typeof mockStream>, extra = {}) {
  const api = signedIn(buyer, {
    'GET /marketplace/categories': () => json(200, []),
    'GET /marketplace/slots': () => page([makeSlot()]),
    'GET /instagram/comments/slot-1': () => json(401, { detail: 'Connect Instagram.', code: 'instagram_not_connected' }),
    'GET /buyer/bids': () => json(200, []),
    'GET /events/stream': stream.route,
    ...extra,
  })
  renderApp('/marketplace')
  await userEvent.click(await screen.findByRole('button', { name: 'View Details & Bid: Sunrise yoga reel' }, { timeout: 15_000 }))
  await waitFor(() => expect(stream.urls().some((u) => u.searchParams.get('slots') === 'slot-1')).toBe(true))
  return { api, sheet: within(await screen.findByRole('dialog')) }
}

describe('the Place a Bid panel, live', () => {
  it('follows the current bid, and says a typed amount is now too low before the brand submits', async () => {
    const stream = mockStream()
    const { sheet } = await openPanel(stream)
    const amount = sheet.getByLabelText('Bid amount (USD)')
    expect(amount).toHaveValue('41.00')
    expect(sheet.getByTestId('panel-minimum-next')).toHaveTextContent('$40.01')

    // untouched, the suggested amount moves with the auction
    stream.send('slot', { id: 'slot-1', currentBid: 45, bidCount: 2, auctionEnd: end(), status: 'ACTIVE' })
    await waitFor(() => expect(sheet.getByTestId('panel-current-bid')).toHaveTextContent('$45.00'))
    expect(amount).toHaveValue('46.00')
    expect(sheet.getByTestId('bid-amount-reading')).toHaveTextContent('Reads as $46.00')

    await userEvent.clear(amount)
    await userEvent.type(amount, '47')
    stream.send('slot', { id: 'slot-1', currentBid: 50, bidCount: 3, auctionEnd: end(), status: 'ACTIVE' })
    await waitFor(() => expect(sheet.getByTestId('bid-amount-reading')).toHaveTextContent('Too low: the current bid is now $50.00. Bid at least $50.01.'))
    expect(amount).toHaveValue('47') // what the brand typed is never changed under them
    expect(amount).toHaveAttribute('aria-invalid', 'true')
    expect(sheet.getByTestId('panel-minimum-next')).toHaveTextContent('$50.01')
  })

  it('a too-low refusal carrying currentBid updates the panel', async () => {
    const stream = mockStream()
    const { sheet } = await openPanel(stream, {
      'POST /buyer/bids': () => json(422, { detail: 'Your bid must be higher than the current bid.', code: 'bid_too_low', errors: [{ field: 'amount', message: 'too low' }], currentBid: 60 }),
    })
    await userEvent.type(sheet.getByLabelText('New comment'), 'Hello #ad')
    await userEvent.click(sheet.getByRole('button', { name: 'Place Bid: $41.00' }))
    await toastWith('Bid Failed')
    await waitFor(() => expect(sheet.getByTestId('panel-current-bid')).toHaveTextContent('$60.00'))
    expect(sheet.getByLabelText('Bid amount (USD)')).toHaveValue('61.00')
  })

  it('words the warning by whether the bid moved since the panel opened', () => {
    const slot = { currentBid: 40, minBid: 25 }
    expect(tooLowWarning('41', slot, 40)).toBeNull()
    expect(tooLowWarning('', slot, 40)).toBeNull()
    expect(tooLowWarning('40', slot, 40)).toBe('Too low. Bid at least $40.01.')
    expect(tooLowWarning('20', { currentBid: null, minBid: 25 }, null)).toBe('Too low. Bid at least $25.00.')
  })

  it('does not call an amount it cannot read too low', () => {
    expect(tooLowWarning('12.345', { currentBid: 40, minBid: 25 }, 40)).toBeNull()
  })
})

describe('the Place a Bid panel reads money as people type it', () => {
  const placed = () => json(201, { id: 'bid-1', status: 'ACTIVE', amount: 42.5, maxAutoBid: null, autoBidEnabled: false })

  /** Opens the panel (placing a bid answers `placed`) and types `value` into the amount field. */
  async function openWithAmount(value: string) {
    const { api, sheet } = await openPanel(mockStream(), { 'POST /buyer/bids': placed })
    const amount = sheet.getByLabelText('Bid amount (USD)')
    await userEvent.clear(amount)
    await userEvent.type(amount, value)
    return { api, sheet, amount }
  }
  const placedAmounts = (api: Awaited<ReturnType<typeof openPanel>>['api']) =>
    api.calls.filter((c) => c.method === 'POST' && c.path === '/buyer/bids').map((c) => (c.body as { amount: number }).amount)

  it('reads 42,50 as $42.50, says so under the field, and sends 42.5', async () => {
    const { api, sheet } = await openWithAmount('42,50')
    expect(sheet.getByTestId('bid-amount-reading')).toHaveTextContent('Reads as $42.50')
    await userEvent.type(sheet.getByLabelText('New comment'), 'Hello #ad')
    await userEvent.click(sheet.getByRole('button', { name: 'Place Bid: $42.50' }))
    await toastWith('Bid Placed Successfully!')
    expect(placedAmounts(api)).toEqual([42.5])
  })

  it('refuses 12.345 with what to type instead, and sends nothing', async () => {
    const { api, sheet, amount } = await openWithAmount('12.345')
    expect(sheet.getByTestId('bid-amount-reading')).toHaveTextContent('“12.345” can be read two ways')
    expect(amount).toHaveAttribute('aria-invalid', 'true')
    await userEvent.type(sheet.getByLabelText('New comment'), 'Hello #ad')
    await userEvent.click(sheet.getByRole('button', { name: 'Place Bid: $0.00' }))
    await toastWith('Invalid Bid Amount')
    expect(api.called('POST', '/buyer/bids')).toBe(false)
  })

  it('asks before 1250,00 on a $40.00 slot; "Change amount" sends nothing, confirming sends 1250', async () => {
    const { api, sheet } = await openWithAmount('1250,00')
    await userEvent.type(sheet.getByLabelText('New comment'), 'Hello #ad')
    await userEvent.click(sheet.getByRole('button', { name: 'Place Bid: $1,250.00' }))
    const ask = within(await screen.findByRole('alertdialog'))
    expect(ask.getByText(/Your bid of \$1,250.00 is 31.3 times the current price of \$40.00/)).toBeInTheDocument()
    await userEvent.click(ask.getByRole('button', { name: 'Change amount' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument())
    expect(api.called('POST', '/buyer/bids')).toBe(false)

    await userEvent.click(sheet.getByRole('button', { name: 'Place Bid: $1,250.00' }))
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Bid $1,250.00' }))
    await toastWith('Bid Placed Successfully!')
    expect(placedAmounts(api)).toEqual([1250])
  })
})
