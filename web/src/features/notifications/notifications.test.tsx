import { describe, expect, it } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, renderApp } from '@/test/utils'
import { mockStream } from '@/test/sse'
import { buyer, creator, makeNotice as notice, signedIn, toastWith } from '@/test/fixtures'

describe('notifications', () => {
  it('a brand has the bell: its unread count follows the stream, and a new notice is told', async () => {
    const stream = mockStream()
    signedIn(buyer, {
      'GET /notifications/unread-count': () => json(200, { unreadCount: 2 }),
      'GET /buyer/bids': () => json(200, []),
      'GET /events/stream': stream.route,
    })
    renderApp('/my-bids')
    expect(await screen.findByRole('link', { name: 'Notifications, 2 unread' }, { timeout: 15_000 })).toBeInTheDocument()
    await waitFor(() => expect(stream.urls().length).toBeGreaterThan(0))
    stream.send('notification', { notification: notice('n3', { title: 'Your bid was approved', message: 'Pay $45.00 by Nov 24, 10:00 UTC.' }), unreadCount: 3 })
    expect(await screen.findByRole('link', { name: 'Notifications, 3 unread' })).toBeInTheDocument()
    expect(screen.getByTestId('unread-count')).toHaveTextContent('3')
    await toastWith('Your bid was approved')
  })

  it('a creator reads the list, marks one and then all read', async () => {
    const stream = mockStream()
    const api = signedIn(creator, {
      'GET /notifications/unread-count': () => json(200, { unreadCount: 2 }),
      'GET /notifications': () => json(200, [notice('11111111-1111-4111-8111-111111111111'), notice('22222222-2222-4222-8222-222222222222'), notice('33333333-3333-4333-8333-333333333333', { read: true })]),
      'POST /notifications/read': (body) => json(200, { unreadCount: 'all' in (body as object) ? 0 : 1 }),
      'GET /events/stream': stream.route,
    })
    renderApp('/dashboard')
    await userEvent.click(await screen.findByRole('link', { name: 'Notifications, 2 unread' }, { timeout: 15_000 }))
    const list = within(await screen.findByRole('list', { name: 'Notifications' }))
    expect(list.getAllByTestId('notification')).toHaveLength(3)
    await userEvent.click(list.getByRole('button', { name: 'Mark as read: Notice 11111111-1111-4111-8111-111111111111' }))
    await waitFor(() => expect(api.calls.find((c) => c.path === '/notifications/read')?.body).toEqual({ ids: ['11111111-1111-4111-8111-111111111111'] }))
    expect(await screen.findByRole('link', { name: 'Notifications, 1 unread' })).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: /Mark all as read/ }))
    await waitFor(() => expect(api.calls.filter((c) => c.path === '/notifications/read').at(-1)?.body).toEqual({ all: true }))
    expect(await screen.findByRole('link', { name: 'Notifications, none unread' })).toBeInTheDocument()
    expect(list.getAllByTestId('notification').every((n) => n.dataset.read === 'true')).toBe(true)
    expect(screen.getByRole('button', { name: /Mark all as read/ })).toBeDisabled()
  })
})
