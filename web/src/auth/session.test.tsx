import { describe, expect, it } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, makeUser, mockApi, renderApp } from '@/test/utils'

const location = () => screen.getByTestId('location').textContent

describe('session', () => {
  it('fetches /auth/me at start-up with the stored token and shows the shell', async () => {
    localStorage.setItem('token', 'tok-1')
    const api = mockApi({ 'GET /auth/me': () => json(200, makeUser()) })
    renderApp('/dashboard')
    expect(await screen.findByRole('heading', { name: 'Welcome back, Maya Rivers' })).toBeInTheDocument()
    expect(api.calls[0]).toMatchObject({ method: 'GET', path: '/auth/me', auth: 'Bearer tok-1' })
    expect(screen.getAllByText('Creator Tools').length).toBeGreaterThan(0)
  })

  it('shows a spinner with "Loading..." on a protected route while the profile loads', async () => {
    localStorage.setItem('token', 'tok-1')
    let release: (r: Response) => void = () => {}
    mockApi({ 'GET /auth/me': () => new Promise<Response>((r) => (release = r)) as unknown as Response })
    renderApp('/settings')
    expect(await screen.findByText('Loading...')).toBeInTheDocument()
    release(json(200, makeUser()))
    await waitFor(() => expect(screen.queryByText('Loading...')).not.toBeInTheDocument())
  })

  it('clears the token silently when the start-up profile check fails (no redirect)', async () => {
    localStorage.setItem('token', 'expired')
    mockApi({ 'GET /auth/me': () => json(403, { detail: 'Your session has expired.', code: 'invalid_token' }) })
    renderApp('/')
    expect(await screen.findByRole('heading', { level: 1, name: /Auction it/ })).toBeInTheDocument()
    expect(localStorage.getItem('token')).toBeNull()
    expect(location()).toBe('/')
  })

  it('clears the token silently on a network error at start-up', async () => {
    localStorage.setItem('token', 'tok')
    mockApi({ 'GET /auth/me': () => json(500, { detail: 'boom', code: 'internal' }) })
    renderApp('/blog')
    await waitFor(() => expect(localStorage.getItem('token')).toBeNull())
    expect(location()).toBe('/blog')
  })

  it('any 403 from any call removes the token and sends the browser to /login', async () => {
    localStorage.setItem('token', 'tok-1')
    mockApi({
      'GET /auth/me': () => json(200, makeUser()),
      'GET /notifications/preferences': () => json(403, { detail: 'Your session has expired.', code: 'invalid_token' }),
    })
    renderApp('/settings')
    await waitFor(() => expect(location()).toBe('/login'))
    expect(localStorage.getItem('token')).toBeNull()
    expect(await screen.findByRole('button', { name: 'Log In' })).toBeInTheDocument()
  })

  it('sends signed-out visitors of protected routes to /login', async () => {
    mockApi({})
    renderApp('/my-bids')
    await waitFor(() => expect(location()).toBe('/login'))
  })

  it.each(['/', '/login', '/signup/influencer', '/signup/buyer'])('bounces a signed-in user from %s to /dashboard', async (path) => {
    localStorage.setItem('token', 'tok-1')
    mockApi({ 'GET /auth/me': () => json(200, makeUser({ role: 'BUYER', name: 'Jordan Blake' })) })
    renderApp(path)
    await waitFor(() => expect(location()).toBe('/dashboard'))
    expect((await screen.findAllByText('Brand Tools')).length).toBeGreaterThan(0)
  })

  it('redirects a user with an unknown role from /dashboard to /login', async () => {
    localStorage.setItem('token', 'tok-1')
    mockApi({ 'GET /auth/me': () => json(200, makeUser({ role: 'ADMIN' as never })) })
    renderApp('/dashboard')
    await waitFor(() => expect(location()).toBe('/login'))
    expect(await screen.findByRole('button', { name: 'Log In' })).toBeInTheDocument()
    await new Promise((r) => setTimeout(r, 100))
    expect(location()).toBe('/login')
  })

  it('logs in, stores the token and lands on /dashboard', async () => {
    const api = mockApi({ 'POST /auth/login': () => json(200, { token: 'new-token', user: makeUser() }) })
    renderApp('/login')
    await userEvent.type(await screen.findByLabelText('Email'), 'maya@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'secret-pass')
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }))
    await waitFor(() => expect(location()).toBe('/dashboard'))
    expect(localStorage.getItem('token')).toBe('new-token')
    expect(api.calls[0].body).toEqual({ email: 'maya@example.com', password: 'secret-pass' })
  })

  it('Sign Out clears the session and goes to /', async () => {
    localStorage.setItem('token', 'tok-1')
    mockApi({ 'GET /auth/me': () => json(200, makeUser()) })
    renderApp('/dashboard')
    await userEvent.click(await screen.findByRole('button', { name: 'Sign Out' }))
    await waitFor(() => expect(location()).toBe('/'))
    expect(localStorage.getItem('token')).toBeNull()
    expect(await screen.findByRole('heading', { level: 1, name: /Auction it/ })).toBeInTheDocument()
  })
})
