import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, makeUser, mockApi, renderApp } from '@/test/utils'
import { recoveryCodesText } from './components/RecoveryCodes'
import { groupedSecret } from './components/TotpSection'
import { ASSERTION_JSON, CREATION_OPTIONS, fakeAuthenticator, REGISTRATION_JSON, REQUEST_OPTIONS } from '@/test/webauthn'

const PREFS = { newBids: true, approvals: true, payouts: true, marketing: false }
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
const URI = `otpauth://totp/Pinbid:maya%40example.com?secret=${SECRET}&issuer=Pinbid`
const CODES = Array.from({ length: 10 }, (_, i) => `code${i}-abcd${i}`)
const PASSKEY = { id: 'pk-1', name: 'Work laptop', createdAt: '2026-11-02T10:00:00Z', lastUsedAt: '2026-11-20T10:00:00Z' }

function factors(over: Record<string, unknown> = {}) {
  return { totpEnabled: false, totpPending: false, recoveryCodesLeft: 0, passkeys: [], stepUpUntil: null, stepUpRequired: false, ...over }
}

const STEP_UP = { detail: "Confirm it's you: enter a code from your authenticator app, or use a passkey.", code: 'step_up_required' }

function signedIn(extra: Record<string, (body: unknown, req: Request) => Response> = {}, state = factors()) {
  localStorage.setItem('token', 'old-token')
  return mockApi({
    'GET /auth/me': () => json(200, makeUser()),
    'GET /notifications/preferences': () => json(200, PREFS),
    'GET /auth/second-factor': () => json(200, state),
    ...extra,
  })
}

const security = async () => within(await screen.findByRole('region', { name: /Two-Factor Authentication/ }))
const passkeys = async () => within(await screen.findByRole('region', { name: 'Passkeys' }))

let authenticator: ReturnType<typeof fakeAuthenticator>
beforeEach(() => {
  authenticator = fakeAuthenticator()
})
afterEach(() => authenticator.restore())

describe('settings: authenticator app', () => {
  it('"Coming soon" is gone: the card offers the set-up', async () => {
    signedIn()
    renderApp('/settings')
    const totp = await security()
    expect(totp.getByText('Off')).toBeInTheDocument()
    expect(totp.getByRole('button', { name: 'Set up authenticator app' })).toBeInTheDocument()
    expect(screen.queryByText('Coming soon')).not.toBeInTheDocument()
  })

  it('enrols: QR code and key, a typed code, then the ten recovery codes once, with download', async () => {
    let confirmed = 0
    const api = signedIn({
      'POST /auth/totp': () => json(201, { secret: SECRET, otpauthUri: URI }),
      'POST /auth/totp/confirm': (body) => {
        if ((body as { code: string }).code !== '654321')
          return json(422, { detail: 'That code is not valid or was already used.', code: 'invalid_second_factor', errors: [{ field: 'code', message: 'That code is not valid or was already used.' }] })
        confirmed++
        return json(200, { recoveryCodes: CODES, token: 'totp-token', user: { ...makeUser(), totpEnabled: true } })
      },
    })
    renderApp('/settings')
    const totp = await security()
    await userEvent.click(totp.getByRole('button', { name: 'Set up authenticator app' }))

    const qr = await totp.findByRole('img', { name: 'QR code for your authenticator app' })
    expect(qr.tagName.toLowerCase()).toBe('svg')
    expect(qr.querySelectorAll('path').length).toBeGreaterThan(0)
    expect(totp.getByTestId('totp-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')

    const code = totp.getByLabelText('Enter the 6-digit code the app shows')
    await userEvent.type(code, '12345')
    await userEvent.click(totp.getByRole('button', { name: 'Turn on' }))
    expect(await totp.findByText('Enter the 6 digits your authenticator app shows.')).toBeInTheDocument()
    expect(api.called('POST', '/auth/totp/confirm')).toBe(false)

    await userEvent.clear(code)
    await userEvent.type(code, '111111')
    await userEvent.click(totp.getByRole('button', { name: 'Turn on' }))
    expect(await totp.findByText('That code is not valid or was already used.')).toBeInTheDocument()
    expect(code).toHaveValue('')
    expect(code).toHaveFocus()

    await userEvent.type(code, '654 321')
    await userEvent.click(totp.getByRole('button', { name: 'Turn on' }))
    const list = await totp.findByRole('list', { name: 'Recovery codes' })
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(CODES)
    expect(confirmed).toBe(1)
    expect(localStorage.getItem('token')).toBe('totp-token')
    expect(totp.getByRole('heading', { name: 'Save your recovery codes' })).toHaveFocus()

    const made: Blob[] = []
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => (made.push(blob as Blob), 'blob:codes'))
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
    await userEvent.click(totp.getByRole('button', { name: /Download/ }))
    expect(click).toHaveBeenCalled()
    expect(await made[0].text()).toBe(recoveryCodesText(CODES, 'maya@example.com'))

    await userEvent.click(totp.getByRole('button', { name: 'I have saved them' }))
    expect(totp.queryByRole('list', { name: 'Recovery codes' })).not.toBeInTheDocument()
  })

  it('an enrolment that another tab replaced or confirmed starts again with a new QR code', async () => {
    let started = 0
    signedIn({
      'POST /auth/totp': () => (started++, json(201, { secret: started === 1 ? SECRET : 'KRSXG5CTMVRXEZLU', otpauthUri: URI })),
      'POST /auth/totp/confirm': () => json(409, { detail: 'Start the set-up again.', code: 'no_pending_enrolment' }),
    })
    renderApp('/settings')
    const totp = await security()
    await userEvent.click(totp.getByRole('button', { name: 'Set up authenticator app' }))
    await userEvent.type(await totp.findByLabelText('Enter the 6-digit code the app shows'), '123456')
    await userEvent.click(totp.getByRole('button', { name: 'Turn on' }))
    await waitFor(() => expect(totp.getByTestId('totp-secret')).toHaveTextContent('KRSX G5CT MVRX EZLU'))
    expect(started).toBe(2)
  })

  it('turns off with the password and a recovery code; a wrong code says so on its field', async () => {
    let tries = 0
    const api = signedIn(
      {
        'POST /auth/totp/disable': () =>
          ++tries === 1
            ? json(401, { detail: 'That code is not valid or was already used.', code: 'invalid_second_factor' })
            : json(200, { token: 'off-token', user: { ...makeUser(), totpEnabled: false } }),
      },
      factors({ totpEnabled: true, recoveryCodesLeft: 9, stepUpRequired: true }),
    )
    renderApp('/settings')
    const totp = await security()
    expect(totp.getByText('On')).toBeInTheDocument()
    expect(totp.getByText('9 recovery codes left.')).toBeInTheDocument()
    await userEvent.click(totp.getByRole('button', { name: 'Turn off' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Turn off two-factor authentication' }))
    await userEvent.click(dialog.getByRole('button', { name: 'Turn off' }))
    expect(dialog.getByText('Current password is required.')).toBeInTheDocument()
    expect(api.called('POST', '/auth/totp/disable')).toBe(false)

    await userEvent.type(dialog.getByLabelText('Current Password'), 'my-password')
    await userEvent.type(dialog.getByLabelText('Authentication code'), '000000')
    await userEvent.click(dialog.getByRole('button', { name: 'Turn off' }))
    expect(await dialog.findByText('That code is not valid or was already used.')).toBeInTheDocument()

    await userEvent.type(dialog.getByLabelText('Authentication code'), 'ABCDE FGHIJ')
    await userEvent.click(dialog.getByRole('button', { name: 'Turn off' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(api.calls.filter((c) => c.path === '/auth/totp/disable').map((c) => c.body)).toEqual([
      { password: 'my-password', code: '000000' },
      { password: 'my-password', recoveryCode: 'abcde-fghij' },
    ])
    expect(localStorage.getItem('token')).toBe('off-token')
    expect(await screen.findByText('Two-factor authentication is off')).toBeInTheDocument()
  })
})

describe('settings: passkeys', () => {
  it('lists each passkey with when it was added and last used, and removes one after asking', async () => {
    const api = signedIn({ 'DELETE /auth/passkeys/pk-1': () => new Response(null, { status: 204 }) }, factors({ passkeys: [PASSKEY, { ...PASSKEY, id: 'pk-2', name: 'Phone', lastUsedAt: null }] }))
    renderApp('/settings')
    const section = await passkeys()
    const rows = within(section.getByRole('list', { name: 'Your passkeys' })).getAllByRole('listitem')
    expect(rows[0]).toHaveTextContent('Work laptop')
    expect(rows[0]).toHaveTextContent('Added Nov 2, 2026 · Last used Nov 20, 2026')
    expect(rows[1]).toHaveTextContent('Never used')
    // without the authenticator app, the password alone still signs in: the card says so
    expect(section.getByText(/Your password alone still signs you in too/)).toBeInTheDocument()

    await userEvent.click(section.getByRole('button', { name: 'Remove passkey Work laptop' }))
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Remove this passkey?' }))
    await userEvent.click(confirm.getByRole('button', { name: 'Cancel' }))
    expect(api.called('DELETE', '/auth/passkeys/pk-1')).toBe(false)

    await userEvent.click(section.getByRole('button', { name: 'Remove passkey Work laptop' }))
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }))
    expect(await screen.findByText('Passkey removed')).toBeInTheDocument()
    expect(api.called('DELETE', '/auth/passkeys/pk-1')).toBe(true)
  })

  it('adds a named passkey through the browser ceremony', async () => {
    const api = signedIn({
      'POST /auth/passkeys/register/options': () => json(200, { options: CREATION_OPTIONS }),
      'POST /auth/passkeys/register': (body) => json(201, { id: 'pk-9', name: (body as { name: string }).name, createdAt: '2026-11-27T10:00:00Z', lastUsedAt: null }),
    })
    renderApp('/settings')
    const section = await passkeys()
    expect(section.getByText('No passkeys yet.')).toBeInTheDocument()
    await userEvent.click(section.getByRole('button', { name: 'Add a passkey' }))
    expect(await section.findByText('Give the passkey a name, such as the device it is on.')).toBeInTheDocument()
    expect(api.called('POST', '/auth/passkeys/register/options')).toBe(false)

    await userEvent.type(section.getByLabelText('Passkey name'), '  Phone  ')
    await userEvent.click(section.getByRole('button', { name: 'Add a passkey' }))
    expect(await screen.findByText('Passkey added')).toBeInTheDocument()
    expect(authenticator.create).toHaveBeenCalledTimes(1)
    expect(new TextDecoder().decode(authenticator.create.mock.calls[0][0].publicKey!.challenge as ArrayBuffer)).toBe('register-challenge')
    expect(api.calls.find((c) => c.path === '/auth/passkeys/register')?.body).toEqual({ name: 'Phone', credential: REGISTRATION_JSON })
    expect(section.getByLabelText('Passkey name')).toHaveValue('')
  })

  it('a closed browser prompt adds nothing and says nothing; a refused credential is told', async () => {
    authenticator.answer('closed', 'ok')
    const api = signedIn({
      'POST /auth/passkeys/register/options': () => json(200, { options: CREATION_OPTIONS }),
      'POST /auth/passkeys/register': () => json(422, { detail: 'This passkey was made for another site.', code: 'invalid_passkey', errors: [{ field: 'credential', message: 'This passkey was made for another site.' }] }),
    })
    renderApp('/settings')
    const section = await passkeys()
    await userEvent.type(section.getByLabelText('Passkey name'), 'Phone')
    await userEvent.click(section.getByRole('button', { name: 'Add a passkey' }))
    await waitFor(() => expect(section.getByRole('button', { name: 'Add a passkey' })).toBeEnabled())
    expect(api.called('POST', '/auth/passkeys/register')).toBe(false)
    expect(screen.queryByText('Could not add the passkey')).not.toBeInTheDocument()

    await userEvent.click(section.getByRole('button', { name: 'Add a passkey' }))
    expect(await screen.findByText('This passkey was made for another site.')).toBeInTheDocument()
  })
})

describe('step-up: a sensitive change asks for a fresh second factor, then is sent again', () => {
  async function changePassword() {
    const form = within(await screen.findByRole('form', { name: 'Change password' }))
    await userEvent.type(form.getByLabelText('Current Password'), 'old-password')
    await userEvent.type(form.getByLabelText('New Password'), 'new-password-1')
    await userEvent.type(form.getByLabelText('Confirm New Password'), 'new-password-1')
    await userEvent.click(form.getByRole('button', { name: 'Update Password' }))
  }

  it('with a code: the dialog confirms, the change is retried with the refreshed token', async () => {
    const api = signedIn({
      'POST /auth/change-password': (_body, req) =>
        req.headers.get('Authorization') === 'Bearer fresh-token' ? json(200, { token: 'changed-token' }) : json(401, STEP_UP),
      'POST /auth/step-up': (body) =>
        (body as { code?: string }).code === '246810'
          ? json(200, { token: 'fresh-token', stepUpUntil: '2026-11-27T14:05:00Z' })
          : json(401, { detail: 'That code is not valid or was already used.', code: 'invalid_second_factor' }),
    }, factors({ totpEnabled: true, stepUpRequired: true }))
    renderApp('/settings')
    await changePassword()

    const dialog = within(await screen.findByRole('dialog', { name: "Confirm it's you" }))
    expect(dialog.getByText(STEP_UP.detail)).toBeInTheDocument()
    expect(dialog.queryByRole('button', { name: 'Use a passkey' })).not.toBeInTheDocument()
    const code = dialog.getByLabelText('Authentication code')
    await waitFor(() => expect(code).toHaveFocus())
    await userEvent.type(code, '111111')
    await userEvent.click(dialog.getByRole('button', { name: 'Confirm' }))
    expect(await dialog.findByText('That code is not valid or was already used.')).toBeInTheDocument()

    await userEvent.type(code, '246810')
    await userEvent.click(dialog.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByText('Password Changed')).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(localStorage.getItem('token')).toBe('changed-token')
    const sent = api.calls.filter((c) => c.path === '/auth/change-password')
    expect(sent.map((c) => c.auth)).toEqual(['Bearer old-token', 'Bearer fresh-token'])
    expect(sent[1].body).toEqual(sent[0].body)
  })

  it('with a passkey, when the account has one', async () => {
    const api = signedIn({
      'PUT /auth/profile': (body, req) =>
        req.headers.get('Authorization') === 'Bearer fresh-token' ? json(200, { ...makeUser(body as object), token: 'mail-token' }) : json(401, STEP_UP),
      'POST /auth/step-up/options': () => json(200, { options: { ...REQUEST_OPTIONS, allowCredentials: [{ id: ASSERTION_JSON.rawId, type: 'public-key' }] } }),
      'POST /auth/step-up': () => json(200, { token: 'fresh-token', stepUpUntil: '2026-11-27T14:05:00Z' }),
    }, factors({ totpEnabled: true, stepUpRequired: true, passkeys: [PASSKEY] }))
    renderApp('/settings')
    const form = within(await screen.findByRole('form', { name: 'Profile information' }))
    await userEvent.clear(form.getByLabelText('Email Address'))
    await userEvent.type(form.getByLabelText('Email Address'), 'maya.new@example.com')
    await userEvent.type(form.getByLabelText('Current Password'), 'my-password')
    await userEvent.click(form.getByRole('button', { name: 'Save Changes' }))

    const dialog = within(await screen.findByRole('dialog', { name: "Confirm it's you" }))
    await userEvent.click(await dialog.findByRole('button', { name: 'Use a passkey' }))
    expect(await screen.findByText('Your email address has been changed. Other devices have been signed out.')).toBeInTheDocument()
    expect(api.calls.find((c) => c.path === '/auth/step-up')?.body).toEqual({ credential: ASSERTION_JSON })
    expect(localStorage.getItem('token')).toBe('mail-token')
  })

  it('cancelled: nothing is sent again and no error is shown', async () => {
    const api = signedIn({ 'POST /auth/change-password': () => json(401, STEP_UP) }, factors({ totpEnabled: true, stepUpRequired: true }))
    renderApp('/settings')
    await changePassword()
    const dialog = within(await screen.findByRole('dialog', { name: "Confirm it's you" }))
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(api.calls.filter((c) => c.path === '/auth/change-password')).toHaveLength(1)
    expect(screen.queryByText('Failed to change password')).not.toBeInTheDocument()
    expect(localStorage.getItem('token')).toBe('old-token')
    expect(screen.getByRole('button', { name: 'Update Password' })).toBeEnabled()
  })
})

describe('the operator desk: passkeys', () => {
  it("an operator removes a passkey after confirming with the desk's code", async () => {
    localStorage.setItem('token', 'old-token')
    const api = mockApi({
      'GET /auth/me': () => json(200, makeUser({ role: 'OPERATOR', email: 'desk@example.com', instagramHandle: null, totpEnabled: true })),
      'GET /auth/second-factor': () => json(200, factors({ totpEnabled: true, stepUpRequired: true, passkeys: [PASSKEY] })),
      'DELETE /auth/passkeys/pk-1': (_body, req) => (req.headers.get('Authorization') === 'Bearer fresh-token' ? new Response(null, { status: 204 }) : json(401, STEP_UP)),
      'POST /auth/step-up': () => json(200, { token: 'fresh-token', stepUpUntil: '2026-11-27T14:05:00Z' }),
    })
    renderApp('/ops/passkeys')
    expect(await screen.findByRole('heading', { level: 1, name: 'Passkeys' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /Passkeys/ })).toHaveAttribute('aria-current', 'page')
    const section = await passkeys()
    await userEvent.click(section.getByRole('button', { name: 'Remove passkey Work laptop' }))
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }))
    const dialog = within(await screen.findByRole('dialog', { name: "Confirm it's you" }))
    await userEvent.type(dialog.getByLabelText('Authentication code'), '135790')
    await userEvent.click(dialog.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByText('Passkey removed')).toBeInTheDocument()
    expect(api.calls.filter((c) => c.path === '/auth/passkeys/pk-1').map((c) => c.auth)).toEqual(['Bearer old-token', 'Bearer fresh-token'])
    expect(api.calls.find((c) => c.path === '/auth/step-up')?.body).toEqual({ code: '135790' })
  })
})

describe('helpers', () => {
  it('groups the key by four and writes the codes file', () => {
    expect(groupedSecret('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP')
    expect(groupedSecret('ABCDEF')).toBe('ABCD EF')
    expect(recoveryCodesText(['a1b2c-d3e4f', 'g5h6i-j7k8l'], 'me@x.com').split('\n')).toEqual([
      'Pinbid recovery codes for me@x.com',
      'Each code signs you in once when your authenticator app is not at hand. Keep them somewhere safe.',
      '',
      'a1b2c-d3e4f',
      'g5h6i-j7k8l',
      '',
    ])
  })
})
