import { afterEach, describe, expect, it } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, makeUser, mockApi, renderApp } from '@/test/utils'
import { logIn, sendCode } from '@/test/login'
import { readSecondFactor } from '@/auth/second-factor'
import { ASSERTION_JSON, fakeAuthenticator, REQUEST_OPTIONS as OPTIONS } from '@/test/webauthn'

const location = () => screen.getByTestId('location').textContent
const signedInAs = () => ({ 'GET /auth/me': () => json(200, makeUser()), 'GET /notifications/preferences': () => json(200, {}) })

let authenticator: ReturnType<typeof fakeAuthenticator> | null = null
const browserWithPasskeys = (options: { autofill?: boolean } = {}) => (authenticator = fakeAuthenticator(options))
afterEach(() => {
  authenticator?.restore()
  authenticator = null
})

describe('login: passkeys', () => {
  it('"Sign in with a passkey" signs in with no email and no password', async () => {
    const { get } = browserWithPasskeys()
    const api = mockApi({
      'POST /auth/passkeys/login/options': () => json(200, { options: OPTIONS }),
      'POST /auth/passkeys/login': () => json(200, { token: 'passkey-token', user: makeUser() }),
      ...signedInAs(),
    })
    renderApp('/login')
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }))
    await waitFor(() => expect(location()).toBe('/dashboard'))
    expect(api.calls.find((c) => c.path === '/auth/passkeys/login/options')?.body).toEqual({})
    expect(get).toHaveBeenCalledTimes(1)
    expect(get.mock.calls[0][0].mediation).toBeUndefined()
    expect(api.calls.find((c) => c.path === '/auth/passkeys/login')?.body).toEqual({ credential: ASSERTION_JSON })
    expect(localStorage.getItem('token')).toBe('passkey-token')
  })

  it("a refused passkey is told in the server's words; a closed prompt says nothing", async () => {
    browserWithPasskeys().answer('closed')
    mockApi({
      'POST /auth/passkeys/login/options': () => json(200, { options: OPTIONS }),
      'POST /auth/passkeys/login': () => json(403, { detail: 'This passkey was removed from its account.', code: 'passkey_login_failed' }),
    })
    renderApp('/login')
    const button = await screen.findByRole('button', { name: 'Sign in with a passkey' })
    await userEvent.click(button)
    await waitFor(() => expect(button).toBeEnabled())
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()

    await userEvent.click(button)
    expect(await screen.findByText('This passkey was removed from its account.')).toBeInTheDocument()
    expect(location()).toBe('/login')
    expect(localStorage.getItem('token')).toBeNull()
  })

  it("offers the browser's autofill of passkeys on the email field (conditional mediation)", async () => {
    const { get } = browserWithPasskeys({ autofill: true })
    mockApi({
      'POST /auth/passkeys/login/options': () => json(200, { options: OPTIONS }),
      'POST /auth/passkeys/login': () => json(200, { token: 'autofill-token', user: makeUser() }),
      ...signedInAs(),
    })
    renderApp('/login')
    expect(await screen.findByLabelText('Email')).toHaveAttribute('autocomplete', 'username webauthn')
    await waitFor(() => expect(location()).toBe('/dashboard'))
    expect(get.mock.calls[0][0].mediation).toBe('conditional')
    expect(localStorage.getItem('token')).toBe('autofill-token')
  })

  it('no passkey button where the browser has no WebAuthn', async () => {
    mockApi({})
    renderApp('/login')
    await screen.findByRole('button', { name: 'Log In' })
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).not.toBeInTheDocument())
  })
})

describe('login: a brand or creator with two-step sign-in on', () => {
  it('asks for a code when the server wants one and accepts a recovery code', async () => {
    browserWithPasskeys()
    const api = mockApi({
      'POST /auth/login': (body) => {
        const sent = body as { code?: string; recoveryCode?: string }
        if (!sent.code && !sent.recoveryCode) return json(401, { detail: 'Enter a code.', code: 'second_factor_required', factors: ['totp'] })
        if (sent.recoveryCode !== 'abcde-12345') return json(401, { detail: 'That recovery code is not valid or was already used.', code: 'invalid_second_factor' })
        return json(200, { token: 'two-step-token', user: makeUser() })
      },
      ...signedInAs(),
    })
    renderApp('/login')
    await logIn('maya@example.com', 'my-password')
    const code = await screen.findByLabelText('Authentication code')
    expect(code).toHaveFocus()
    // the account has no passkey: the login page offers none at this step
    expect(screen.queryByRole('button', { name: 'Use a passkey instead' })).not.toBeInTheDocument()

    await sendCode('abc')
    expect(await screen.findByText(/Enter the 6 digits from your authenticator app, or a recovery code/)).toBeInTheDocument()

    await sendCode('zzzzz-zzzzz', { clear: true })
    expect(await screen.findByText('That recovery code is not valid or was already used.')).toBeInTheDocument()

    await sendCode('ABCDE12345')
    await waitFor(() => expect(location()).toBe('/dashboard'))
    expect(api.calls.filter((c) => c.path === '/auth/login').at(-1)?.body).toEqual({ email: 'maya@example.com', password: 'my-password', recoveryCode: 'abcde-12345' })
  })

  it('offers "Use a passkey instead" when the account has one, narrowed to that email', async () => {
    browserWithPasskeys()
    const api = mockApi({
      'POST /auth/login': () => json(401, { detail: 'Enter a code.', code: 'second_factor_required', factors: ['totp', 'passkey'] }),
      'POST /auth/passkeys/login/options': () => json(200, { options: OPTIONS }),
      'POST /auth/passkeys/login': () => json(200, { token: 'passkey-token', user: makeUser() }),
      ...signedInAs(),
    })
    renderApp('/login')
    await logIn('maya@example.com', 'my-password')
    await userEvent.click(await screen.findByRole('button', { name: 'Use a passkey instead' }))
    await waitFor(() => expect(location()).toBe('/dashboard'))
    expect(api.calls.find((c) => c.path === '/auth/passkeys/login/options')?.body).toEqual({ email: 'maya@example.com' })
  })
})

describe('readSecondFactor', () => {
  it('reads a TOTP code or a recovery code, and nothing else', () => {
    expect(readSecondFactor('123 456')).toEqual({ code: '123456' })
    expect(readSecondFactor(' abcde-fghij ')).toEqual({ recoveryCode: 'abcde-fghij' })
    expect(readSecondFactor('ABCDEFGHIJ')).toEqual({ recoveryCode: 'abcde-fghij' })
    expect(readSecondFactor('abcde fghij')).toEqual({ recoveryCode: 'abcde-fghij' })
    for (const bad of ['', '12345', '1234567', 'abcd-efghij', 'abcde--fghij', 'abcde-fghi', 'abcdé-fghij', '12345-6789!']) expect(readSecondFactor(bad)).toBeNull()
  })
})
