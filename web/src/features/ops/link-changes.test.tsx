import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, makeUser, renderApp } from '@/test/utils'
import { signedIn } from '@/test/fixtures'
import type { LinkChange } from './api/types'

const operator = makeUser({ id: '0b5e0000-0000-4000-8000-0000000000aa', role: 'OPERATOR', name: 'Desk', email: 'desk@example.com', instagramHandle: null })
const BID = '7d3a9c10-1111-4000-8000-000000000001'

const change = (over: Partial<LinkChange> = {}): LinkChange => ({
  id: 'a0000000-0000-4000-8000-000000000001',
  bidId: BID,
  code: 'k3x9q2',
  buyerId: 'b0000000-0000-4000-8000-000000000001',
  buyerName: 'Riley Brand',
  creatorId: 'c0000000-0000-4000-8000-000000000001',
  creatorName: 'Maya Creator',
  fromUrl: 'https://riley.example/spring',
  toUrl: 'https://elsewhere.example/casino',
  pinnedAt: '2026-11-20T09:00:00Z',
  changedAt: '2026-11-21T15:30:00Z',
  ...over,
})

const bidQuery = (req: Request) => new URL(req.url).searchParams.get('bidId')

afterEach(() => vi.unstubAllGlobals())

describe('link changes', () => {
  it('is reached from the desk navigation and lists each change: bid, old and new target, when, by whom', async () => {
    const api = signedIn(operator, {
      'GET /ops/disputes': () => json(200, []),
      'GET /ops/links/changes': () => json(200, [change(), change({ id: 'a2', bidId: 'e9f00000-2222-4000-8000-000000000002', buyerName: null, creatorName: null })]),
    })
    renderApp('/ops')
    const nav = within(await screen.findByRole('navigation', { name: 'Operator desk' }))
    await userEvent.click(nav.getByRole('link', { name: 'Link changes' }))
    expect(await screen.findByRole('heading', { name: 'Link changes' })).toBeInTheDocument()

    const table = within(await screen.findByRole('table', { name: 'Link changes' }))
    expect(table.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Bid', 'Old target', 'New target', 'Changed at', 'By'])
    const [first, second] = table.getAllByRole('row').slice(1)
    const cells = within(first).getAllByRole('cell')
    expect(cells[0]).toHaveTextContent('7d3a9c10')
    expect(cells[0]).toHaveTextContent('/go/k3x9q2 · Maya Creator')
    expect(cells[1]).toHaveTextContent('https://riley.example/spring')
    expect(cells[2]).toHaveTextContent('https://elsewhere.example/casino')
    expect(within(cells[3]).getByText(/2026/)).toHaveAttribute('datetime', '2026-11-21T15:30:00Z')
    expect(cells[4]).toHaveTextContent('Riley Brand')
    // the targets are text, not links an operator could open by mistake
    expect(within(first).queryByRole('link')).toBeNull()
    // a name the service does not know is said so, not printed as "null"
    expect(within(second).getAllByRole('cell')[4]).toHaveTextContent('Unknown brand')
    expect(second).not.toHaveTextContent('null')
    expect(api.calls.find((c) => c.path === '/ops/links/changes')?.auth).toBe('Bearer t')
  })

  it('filters by bid id, and refuses a malformed one without asking the server', async () => {
    const api = signedIn(operator, { 'GET /ops/links/changes': (_b, req) => json(200, bidQuery(req) === BID ? [change()] : []) })
    renderApp('/ops/links')
    expect(await screen.findByText('No link target changed after a pin.')).toBeInTheDocument()
    const asked = () =>
      api.fn.mock.calls
        .map((call) => call[0] as Request)
        .filter((req) => new URL(req.url).pathname.endsWith('/ops/links/changes'))
        .map(bidQuery)

    await userEvent.type(screen.getByLabelText('Bid id'), 'not-a-bid')
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('A bid id looks like')
    expect(screen.getByLabelText('Bid id')).toHaveAttribute('aria-invalid', 'true')
    expect(asked()).toEqual([null])

    await userEvent.clear(screen.getByLabelText('Bid id'))
    await userEvent.type(screen.getByLabelText('Bid id'), ` ${BID} `)
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }))
    expect(await screen.findByRole('table', { name: 'Link changes' })).toBeInTheDocument()
    expect(asked()).toEqual([null, BID])
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('says when the filtered bid has no change', async () => {
    signedIn(operator, { 'GET /ops/links/changes': (_b, req) => json(200, bidQuery(req) ? [] : [change()]) })
    renderApp('/ops/links')
    await screen.findByRole('table', { name: 'Link changes' })
    await userEvent.type(screen.getByLabelText('Bid id'), BID)
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }))
    expect(await screen.findByText('No target change on this bid’s link.')).toBeInTheDocument()
  })

  it('shows the server’s error with a retry', async () => {
    let fail = true
    signedIn(operator, {
      'GET /ops/links/changes': () => (fail ? json(503, { detail: 'The social service cannot be reached.', code: 'service_unavailable' }) : json(200, [change()])),
    })
    renderApp('/ops/links')
    expect(await screen.findByText('The social service cannot be reached.')).toBeInTheDocument()
    fail = false
    await userEvent.click(screen.getByRole('button', { name: /Try again/ }))
    expect(await screen.findByRole('table', { name: 'Link changes' })).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByText('The social service cannot be reached.')).toBeNull())
  })

  it('shows a loading state while the list is on its way', async () => {
    let answer: (r: Response) => void = () => {}
    signedIn(operator, { 'GET /ops/links/changes': () => new Promise<Response>((resolve) => (answer = resolve)) as unknown as Response })
    renderApp('/ops/links')
    expect(await screen.findByText('Loading link changes...')).toBeInTheDocument()
    answer(json(200, []))
    expect(await screen.findByText('No link target changed after a pin.')).toBeInTheDocument()
  })
})
