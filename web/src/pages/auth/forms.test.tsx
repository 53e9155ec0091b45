import { describe, expect, it } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, makeUser, mockApi, renderApp } from '@/test/utils'

const location = () => screen.getByTestId('location').textContent
const click = (name: string | RegExp) => userEvent.click(screen.getByRole('button', { name }))
/** The form shows each of these messages. */
const expectMessages = (...messages: string[]) => messages.forEach((m) => expect(screen.getByText(m)).toBeInTheDocument())

/** Types each value into the field with its label, in order; the first is awaited, as the page loads lazily. */
async function fill(fields: Record<string, string>) {
  const [[firstLabel, firstValue], ...rest] = Object.entries(fields)
  await userEvent.type(await screen.findByLabelText(firstLabel), firstValue)
  for (const [label, value] of rest) await userEvent.type(screen.getByLabelText(label), value)
}

/** Opens the page (seeing its `heading` first, when given) and submits its form untouched; the API answers nothing,
 *  so the test can see it was not called. */
async function submitEmpty(path: string, button: string, heading?: string) {
  const api = mockApi({})
  renderApp(path)
  if (heading) expect(await screen.findByRole('heading', { name: heading })).toBeInTheDocument()
  await userEvent.click(await screen.findByRole('button', { name: button }))
  return api
}

/** Opens the page, fills its form and submits it. */
async function submit(path: string, fields: Record<string, string>, button: string) {
  renderApp(path)
  await fill(fields)
  await click(button)
}

const maya = { 'Full Name': 'Maya Rivers', Email: 'maya@example.com', 'Instagram Handle': 'maya', Password: 'long-enough' }

describe('login form', () => {
  it('an empty form shows both messages and sends nothing', async () => {
    const api = await submitEmpty('/login', 'Log In')
    expectMessages('Email is required.', 'Password is required.')
    expect(api.fn).not.toHaveBeenCalled()
  })

  it('an invalid email is refused without a call', async () => {
    const api = mockApi({})
    await submit('/login', { Email: 'not-an-email', Password: 'whatever1' }, 'Log In')
    expect(screen.getByText('Please enter a valid email address.')).toBeInTheDocument()
    expect(api.fn).not.toHaveBeenCalled()
  })

  it('shows "Logging in..." while busy and the spec message on failure', async () => {
    let release: (r: Response) => void = () => {}
    mockApi({ 'POST /auth/login': () => new Promise<Response>((r) => (release = r)) as unknown as Response })
    await submit('/login', { Email: 'maya@example.com', Password: 'wrong-password' }, 'Log In')
    expect(await screen.findByRole('button', { name: /Logging in\.\.\./ })).toBeDisabled()
    release(json(403, { detail: 'Invalid email or password.', code: 'login_failed' }))
    expect(await screen.findByText('Login failed. Please check your credentials and try again.')).toBeInTheDocument()
    expect(location()).toBe('/login')
  })

  it('links to both signups and to /reset-password', async () => {
    mockApi({})
    renderApp('/login')
    expect(await screen.findByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/reset-password')
    expect(screen.getByRole('link', { name: 'Join as a creator' })).toHaveAttribute('href', '/signup/influencer')
    expect(screen.getByRole('link', { name: 'join as a brand' })).toHaveAttribute('href', '/signup/buyer')
  })
})

describe('influencer signup form', () => {
  it('an empty form shows every message and sends nothing', async () => {
    const api = await submitEmpty('/signup/influencer', 'Create Creator Account')
    expectMessages('Full name is required.', 'Email is required.', 'Instagram handle is required.', 'Password is required.')
    expect(api.fn).not.toHaveBeenCalled()
  })

  it('refuses an invalid email, handle and short password', async () => {
    const api = mockApi({})
    await submit('/signup/influencer', { 'Full Name': 'Maya', Email: 'maya@', 'Instagram Handle': 'bad handle!', Password: 'short' }, 'Create Creator Account')
    expectMessages('Please enter a valid email address.', 'Use letters, numbers, periods and underscores only.', 'Password must be at least 8 characters long.')
    expect(api.fn).not.toHaveBeenCalled()
  })

  it('sends the influencer payload (handle without @), shows the busy label, lands on /dashboard', async () => {
    let release: (r: Response) => void = () => {}
    const api = mockApi({ 'POST /auth/register': () => new Promise<Response>((r) => (release = r)) as unknown as Response })
    await submit('/signup/influencer', { 'Full Name': 'Maya Rivers', Email: 'maya@example.com', 'Instagram Handle': '@maya.moves', Password: 'long-enough' }, 'Create Creator Account')
    expect(await screen.findByRole('button', { name: /Creating Account\.\.\./ })).toBeDisabled()
    release(json(201, { token: 't1', user: makeUser() }))
    await waitFor(() => expect(location()).toBe('/dashboard'))
    expect(api.calls[0].body).toEqual({ name: 'Maya Rivers', email: 'maya@example.com', password: 'long-enough', role: 'INFLUENCER', instagramHandle: 'maya.moves' })
  })

  it('shows the signup failure message with the conflict reason', async () => {
    mockApi({ 'POST /auth/register': () => json(409, { detail: 'An account with this email already exists.', code: 'email_taken' }) })
    await submit('/signup/influencer', maya, 'Create Creator Account')
    expect(await screen.findByText('Signup failed. Please check your details and try again.')).toBeInTheDocument()
    expect(screen.getByText('An account with this email already exists.')).toBeInTheDocument()
  })
})

describe("the server's 422 errors[]", () => {
  it('shows each message on the field it names', async () => {
    mockApi({
      'POST /auth/register': () =>
        json(422, { detail: 'instagramHandle: This handle is taken.', code: 'validation_error', errors: [{ field: 'instagramHandle', message: 'This handle is taken.' }] }),
    })
    await submit('/signup/influencer', maya, 'Create Creator Account')
    const message = await screen.findByText('This handle is taken.')
    expect(screen.getByLabelText('Instagram Handle')).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByLabelText('Instagram Handle').getAttribute('aria-describedby')).toContain(message.id)
    expect(screen.getByText('Signup failed. Please check your details and try again.')).toBeInTheDocument()
  })
})

describe('buyer signup form', () => {
  it('an empty form shows the required messages (business name optional) and sends nothing', async () => {
    const api = await submitEmpty('/signup/buyer', 'Create Brand Account')
    expectMessages('Full name is required.', 'Email is required.', 'Password is required.')
    expect(screen.queryByText('Instagram handle is required.')).not.toBeInTheDocument()
    expect(api.fn).not.toHaveBeenCalled()
  })

  it('sends role BUYER without a business name when it is blank', async () => {
    const api = mockApi({ 'POST /auth/register': () => json(201, { token: 't1', user: makeUser({ role: 'BUYER' }) }) })
    await submit('/signup/buyer', { 'Full Name': 'Jordan Blake', Email: 'jordan@example.com', Password: 'long-enough' }, 'Create Brand Account')
    await waitFor(() => expect(location()).toBe('/dashboard'))
    expect(api.calls[0].body).toEqual({ name: 'Jordan Blake', email: 'jordan@example.com', password: 'long-enough', role: 'BUYER' })
  })
})

describe('forgot-password form', () => {
  it('reads "Forgot Your Password?" and refuses an empty or invalid email without a call', async () => {
    const api = await submitEmpty('/reset-password', 'Request Reset Link', 'Forgot Your Password?')
    expect(screen.getByText('Email is required.')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Email Address'), 'nope')
    await click('Request Reset Link')
    expect(screen.getByText('Please enter a valid email address.')).toBeInTheDocument()
    expect(api.fn).not.toHaveBeenCalled()
  })

  it('requests the link and confirms', async () => {
    const api = mockApi({ 'POST /auth/forgot-password': () => json(202, { detail: 'If an account with that email exists, you will receive a password reset link.' }) })
    await submit('/reset-password', { 'Email Address': 'maya@example.com' }, 'Request Reset Link')
    expect(await screen.findByText('Password Reset Email Sent')).toBeInTheDocument()
    expect(api.calls[0].body).toEqual({ email: 'maya@example.com' })
  })

  it('shows the server message in an "Error" toast on failure', async () => {
    mockApi({ 'POST /auth/forgot-password': () => json(429, { detail: 'Too many requests. Try again later.', code: 'rate_limited' }) })
    await submit('/reset-password', { 'Email Address': 'maya@example.com' }, 'Request Reset Link')
    expect(await screen.findByText('Too many requests. Try again later.')).toBeInTheDocument()
    expect(screen.getByText('Error')).toBeInTheDocument()
  })
})

describe('reset-password form', () => {
  it('reads "Reset Your Password"; an empty form sends nothing', async () => {
    const api = await submitEmpty('/reset-password/tok123', 'Reset Password', 'Reset Your Password')
    expectMessages('New password is required.', 'Please confirm your new password.')
    expect(api.fn).not.toHaveBeenCalled()
  })

  it.each([
    ['Password Mismatch', 'abcdefgh', 'abcdefgX', 'Password Mismatch: New password and confirmation do not match.'],
    ['Password Too Short', 'abc', 'abc', 'Password Too Short: New password must be at least 8 characters long.'],
  ])('%s', async (_name, password, confirmation, message) => {
    const api = mockApi({})
    await submit('/reset-password/tok123', { 'New Password': password, 'Confirm New Password': confirmation }, 'Reset Password')
    expect(screen.getByText(message)).toBeInTheDocument()
    expect(api.fn).not.toHaveBeenCalled()
  })

  it('resets and goes to /login', async () => {
    const api = mockApi({ 'POST /auth/reset-password': () => json(200, { detail: 'Your password has been reset.' }) })
    await submit('/reset-password/tok123', { 'New Password': 'brand-new-pass', 'Confirm New Password': 'brand-new-pass' }, 'Reset Password')
    await waitFor(() => expect(location()).toBe('/login'))
    expect(api.calls[0].body).toEqual({ token: 'tok123', newPassword: 'brand-new-pass' })
    expect(await screen.findByText('Password Reset Successful')).toBeInTheDocument()
  })

  it('shows "Error Resetting Password" with the server message', async () => {
    mockApi({ 'POST /auth/reset-password': () => json(422, { detail: 'This reset link is invalid or has expired. Please request a new one.', code: 'invalid_reset_token' }) })
    await submit('/reset-password/tok123', { 'New Password': 'brand-new-pass', 'Confirm New Password': 'brand-new-pass' }, 'Reset Password')
    expect(await screen.findByText('Error Resetting Password')).toBeInTheDocument()
    expect(screen.getByText('This reset link is invalid or has expired. Please request a new one.')).toBeInTheDocument()
  })
})
