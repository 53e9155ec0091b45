import { describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, makeUser, mockApi, renderApp } from '@/test/utils'

const PREFS = { newBids: true, approvals: true, payouts: true, marketing: false }

function signedIn(extra: Record<string, (body: unknown) => Response> = {}, user = makeUser()) {
  localStorage.setItem('token', 'old-token')
  return mockApi({ 'GET /auth/me': () => json(200, user), 'GET /notifications/preferences': () => json(200, PREFS), ...extra })
}

const formNamed = async (name: string) => within(await screen.findByRole('form', { name }))
const profileForm = () => formNamed('Profile information')

/** Opens the settings, types each value into its field of the form `name` (emptied first where `clear` says), in
 *  order, and presses `button`; returns the form. */
async function submitSettingsForm(name: string, button: string, fields: Record<string, string> = {}, clear: string[] = []) {
  renderApp('/settings')
  const form = await formNamed(name)
  for (const [label, value] of Object.entries(fields)) {
    if (clear.includes(label)) await userEvent.clear(form.getByLabelText(label))
    await userEvent.type(form.getByLabelText(label), value)
  }
  await userEvent.click(form.getByRole('button', { name: button }))
  return form
}

/** Submits the change-password form, filled with [current, new, confirmation] when given. */
const submitPassword = (passwords?: [string, string, string]) =>
  submitSettingsForm('Change password', 'Update Password', passwords && { 'Current Password': passwords[0], 'New Password': passwords[1], 'Confirm New Password': passwords[2] })

describe('settings: change password', () => {
  it('an empty form shows the messages and sends nothing', async () => {
    const api = signedIn()
    const form = await submitPassword()
    expect(form.getByText('Current password is required.')).toBeInTheDocument()
    expect(form.getByText('New password is required.')).toBeInTheDocument()
    expect(api.called('POST', '/auth/change-password')).toBe(false)
  })

  it.each([
    ['Password Mismatch', 'new-password-1', 'new-password-2', 'Password Mismatch: New password and confirmation do not match.'],
    ['Password Too Short', 'short', 'short', 'Password Too Short: New password must be at least 8 characters long.'],
  ])('%s', async (_name, next, confirmation, message) => {
    const api = signedIn()
    const form = await submitPassword(['old-password', next, confirmation])
    expect(form.getByText(message)).toBeInTheDocument()
    expect(api.called('POST', '/auth/change-password')).toBe(false)
  })

  it('Password Changed: stores the NEW token from the response so the user stays signed in', async () => {
    const api = signedIn({ 'POST /auth/change-password': () => json(200, { token: 'fresh-token' }) })
    await submitPassword(['old-password', 'new-password-1', 'new-password-1'])
    expect(await screen.findByText('Password Changed')).toBeInTheDocument()
    expect(localStorage.getItem('token')).toBe('fresh-token')
    const call = api.calls.find((c) => c.path === '/auth/change-password')!
    expect(call.body).toEqual({ currentPassword: 'old-password', newPassword: 'new-password-1' })
    expect(call.auth).toBe('Bearer old-token')
  })

  it('a wrong current password (422) shows the server message and keeps the session', async () => {
    signedIn({ 'POST /auth/change-password': () => json(422, { detail: 'Your current password is incorrect.', code: 'invalid', errors: [] }) })
    await submitPassword(['wrong-password', 'new-password-1', 'new-password-1'])
    expect(await screen.findByText('Your current password is incorrect.')).toBeInTheDocument()
    expect(localStorage.getItem('token')).toBe('old-token')
  })
})

/** Saves the profile with a new email and the current password. */
const submitNewEmail = (email: string, currentPassword: string) =>
  submitSettingsForm('Profile information', 'Save Changes', { 'Email Address': email, 'Current Password': currentPassword }, ['Email Address'])

describe('settings: profile', () => {
  it('a name change asks for no password and sends none', async () => {
    const api = signedIn({ 'PUT /auth/profile': (body) => json(200, { ...makeUser(body as object), token: null }) })
    renderApp('/settings')
    const form = await profileForm()
    await userEvent.type(form.getByLabelText('Full Name'), ' Jr')
    expect(form.queryByLabelText('Current Password')).not.toBeInTheDocument()
    await userEvent.click(form.getByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByText('Your profile information has been saved.')).toBeInTheDocument()
    expect(api.calls.find((c) => c.path === '/auth/profile')?.body).toEqual({ name: 'Maya Rivers Jr', email: 'maya@example.com' })
    expect(localStorage.getItem('token')).toBe('old-token')
  })

  it('a new email asks for the current password, only while the email differs', async () => {
    const api = signedIn()
    renderApp('/settings')
    const form = await profileForm()
    const email = form.getByLabelText('Email Address')
    await userEvent.clear(email)
    await userEvent.type(email, 'maya.new@example.com')
    expect(form.getByLabelText('Current Password')).toHaveValue('')
    await userEvent.click(form.getByRole('button', { name: 'Save Changes' }))
    expect(form.getByText('Enter your current password to change your email address.')).toBeInTheDocument()
    expect(api.called('PUT', '/auth/profile')).toBe(false)
    await userEvent.clear(email)
    await userEvent.type(email, 'MAYA@example.com')
    expect(form.queryByLabelText('Current Password')).not.toBeInTheDocument()
  })

  it('a new email with the password stores the NEW token from the answer', async () => {
    const api = signedIn({
      'PUT /auth/profile': (body) => json(200, { ...makeUser({ email: (body as { email: string }).email }), token: 'fresh-token' }),
    })
    const form = await submitNewEmail('maya.new@example.com', 'my-password')
    expect(await screen.findByText('Your email address has been changed. Other devices have been signed out.')).toBeInTheDocument()
    expect(localStorage.getItem('token')).toBe('fresh-token')
    const call = api.calls.find((c) => c.path === '/auth/profile')!
    expect(call.body).toEqual({ name: 'Maya Rivers', email: 'maya.new@example.com', currentPassword: 'my-password' })
    expect(call.auth).toBe('Bearer old-token')
    // the user now holds the new email, so the password field is gone
    await waitFor(() => expect(form.queryByLabelText('Current Password')).not.toBeInTheDocument())
    expect(form.getByLabelText('Email Address')).toHaveValue('maya.new@example.com')
  })

  it('a wrong password (422) shows under the password field and keeps the session', async () => {
    signedIn({
      'PUT /auth/profile': () =>
        json(422, {
          detail: 'Your current password is incorrect.',
          code: 'wrong_password',
          errors: [{ field: 'currentPassword', message: 'Your current password is incorrect.' }],
        }),
    })
    const form = await submitNewEmail('maya.new@example.com', 'not-it')
    expect(await form.findByText('Your current password is incorrect.')).toBeInTheDocument()
    expect(form.getByLabelText('Current Password')).toHaveAttribute('aria-invalid', 'true')
    expect(localStorage.getItem('token')).toBe('old-token')
  })
})

describe('settings: the rest', () => {
  it('shows "Loading settings..." then the cards; profile save says Profile Updated', async () => {
    const api = signedIn({ 'PUT /auth/profile': (body) => json(200, makeUser(body as object)) })
    renderApp('/settings')
    expect(await screen.findByText('Loading settings...')).toBeInTheDocument()
    const name = await screen.findByLabelText('Full Name')
    await userEvent.clear(name)
    await userEvent.type(name, 'Maya R.')
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByText('Profile Updated')).toBeInTheDocument()
    expect(api.calls.find((c) => c.path === '/auth/profile')?.body).toEqual({ name: 'Maya R.', email: 'maya@example.com' })
  })

  it('shows the red load error when preferences fail', async () => {
    localStorage.setItem('token', 't')
    mockApi({ 'GET /auth/me': () => json(200, makeUser()), 'GET /notifications/preferences': () => json(500, { detail: 'x', code: 'internal' }) })
    renderApp('/settings')
    expect(await screen.findByText('Failed to load settings. Please try again later.')).toHaveClass('text-destructive')
  })

  it('saves notification preferences', async () => {
    const api = signedIn({ 'POST /notifications/preferences': (body) => json(200, body) })
    renderApp('/settings')
    await userEvent.click(await screen.findByRole('switch', { name: 'Product news' }))
    expect(screen.getByRole('switch', { name: 'Auto-post approved comments' })).toBeChecked()
    expect(screen.getByRole('switch', { name: 'Auto-pin paid comments' })).toBeChecked()
    await userEvent.click(screen.getByRole('button', { name: 'Save Preferences' }))
    expect(await screen.findByText('Notification Preferences Updated')).toBeInTheDocument()
    expect(api.calls.find((c) => c.method === 'POST' && c.path === '/notifications/preferences')?.body).toEqual({ ...PREFS, marketing: true })
  })

  it("a brand sees only the preferences that apply to brands, and the save sends the four switches alone", async () => {
    const brand = makeUser({ role: 'BUYER', instagramHandle: null })
    const saved = { ...PREFS, applies: ['newBids', 'approvals', 'marketing'] }
    const api = signedIn({ 'GET /notifications/preferences': () => json(200, saved), 'POST /notifications/preferences': (body) => json(200, { ...(body as object), applies: saved.applies }) }, brand)
    renderApp('/settings')
    expect(await screen.findByRole('switch', { name: 'Outbid alerts' })).toBeChecked()
    expect(screen.queryByRole('switch', { name: 'Payments' })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('switch', { name: 'Product news' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save Preferences' }))
    expect(await screen.findByText('Notification Preferences Updated')).toBeInTheDocument()
    expect(api.calls.find((c) => c.method === 'POST' && c.path === '/notifications/preferences')?.body).toEqual({ ...PREFS, marketing: true })
  })

  it('Instagram: Not Connected + Connect redirects to the returned url; a 503 shows the detail', async () => {
    const assign = vi.fn()
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign } as Location)
    let answer = json(503, { detail: 'Instagram connection is not available yet.', code: 'service_unavailable' })
    signedIn({ 'GET /instagram/connect': () => answer })
    renderApp('/settings')
    expect(await screen.findByText('Not Connected')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }))
    expect(await screen.findByText('Instagram connection is not available yet.')).toBeInTheDocument()
    answer = json(200, { url: 'https://example.test/authorize?state=abc' })
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://example.test/authorize?state=abc'))
  })

  it('Instagram: connected shows @handle and Reconnect; buyers have no Instagram card', async () => {
    signedIn({}, makeUser({ instagramConnected: true, instagramId: '1789' }))
    const { unmount } = renderApp('/settings')
    expect(await screen.findByText('@maya.moves')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Reconnect' })).toBeInTheDocument()
    unmount()
    signedIn({}, makeUser({ role: 'BUYER' }))
    renderApp('/settings')
    expect(await screen.findByText('Profile Information')).toBeInTheDocument()
    expect(screen.queryByText('Instagram Integration')).not.toBeInTheDocument()
  })

  it('its headings go down one level at a time: the cards are h2 under the page\'s h1', async () => {
    signedIn({}, makeUser({ instagramConnected: true, instagramId: '1789' }))
    renderApp('/settings')
    await screen.findByText('@maya.moves')
    expect(screen.getByRole('heading', { level: 2, name: 'Profile Information' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 2, name: 'Security & Privacy' })).toBeInTheDocument()
    const levels = screen.getAllByRole('heading').map((h) => Number(h.tagName.slice(1)))
    expect(levels[0]).toBe(1)
    levels.forEach((level, i) => i > 0 && expect(level - levels[i - 1]).toBeLessThanOrEqual(1))
  })

  it('Instagram: a creator chooses how comments are pinned', async () => {
    const api = signedIn(
      {
        'GET /instagram/connection': () => json(200, { connected: true, pinMethod: 'SESSION' }),
        'PUT /instagram/pin-method': (body) => json(200, body),
      },
      makeUser({ instagramConnected: true, instagramId: '1789' }),
    )
    renderApp('/settings')
    const session = await screen.findByRole('radio', { name: /Pinbid pins for me/ })
    expect(session).toBeChecked()
    await userEvent.click(screen.getByRole('radio', { name: /I pin in the Instagram app/ }))
    expect(await screen.findByText('Pin method saved')).toBeInTheDocument()
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ pinMethod: 'MANUAL' })
    expect(screen.getByRole('radio', { name: /I pin in the Instagram app/ })).toBeChecked()
  })
})
