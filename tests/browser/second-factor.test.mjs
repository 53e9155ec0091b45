// A second factor for brands and creators (issue 33), as people use it: a brand registers a passkey in Settings
// through Chromium's virtual authenticator (the DevTools WebAuthn domain) and signs in with it alone, from the email
// field's autofill and from the button, then removes it and is refused with it; another brand turns on two-step
// sign-in by typing a code computed here from the key the page shows, saves its recovery codes, signs in with a code
// and confirms a password change with a recovery code in the step-up dialog. axe-core finds nothing serious on the
// Security card, the dialog and the login page at 1280 and 390 px, and none is wider than the phone.
// Passkeys need a host name, not an IP address, as relying party: everything here runs at http://localhost:<port>
// (the embedded product's public URL), whatever address PINBID_BASE_URL names.
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { BASE_URL, browserForSuite, graveViolations, snap, submitPassword, uniqueEmail, currentStep, totp } from './helpers.mjs'

const ORIGIN = BASE_URL.replace('://127.0.0.1', '://localhost')
const PASSWORD = 'second-factor-1'

/** A brand made through the API (the signup form has its own journey), signed in through the login page. */
async function newBrand(prefix) {
  const brand = { name: 'Avery Stone', email: uniqueEmail(prefix), password: PASSWORD }
  const res = await fetch(`${ORIGIN}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ role: 'BUYER', ...brand }),
  })
  assert.equal(res.status, 201, await res.text())
  return brand
}

async function open(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: ORIGIN })
  context.setDefaultTimeout(20_000)
  const page = await context.newPage()
  const errors = []
  page.on('pageerror', (e) => errors.push(e.message))
  return { context, page, errors }
}

/** Chromium's virtual platform authenticator, with resident keys and user verification, for this page. */
async function virtualAuthenticator(page) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  })
  return { credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials }
}

/** The page at both widths: axe finds nothing serious, nothing is wider than the phone; screenshots of each. */
async function checkedAtBothWidths(page, name) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await page.waitForTimeout(200)
    assert.deepEqual(await graveViolations(page), [], `${name} at ${width} px`)
    const wide = await page.evaluate(() => document.documentElement.scrollWidth)
    assert.ok(wide <= width, `${name} is ${wide} px wide at ${width} px`)
  }
  await page.setViewportSize({ width: 1280, height: 900 })
  await snap(page, name)
}

const signOut = async (page) => {
  await page.evaluate(() => localStorage.removeItem('token'))
  await page.goto('/login')
}

describe(`second factor at ${ORIGIN}`, { concurrency: false }, () => {
  const suite = browserForSuite()

  it('registers a passkey in Settings and signs in with it alone, then removes it', async () => {
    const brand = await newBrand('passkey')
    const { page, errors } = await open(suite.browser)
    const authenticator = await virtualAuthenticator(page)

    await submitPassword(page, brand)
    await page.waitForURL('**/dashboard')
    await page.goto('/settings')
    const passkeys = page.getByRole('region', { name: 'Passkeys' })
    await passkeys.getByText('No passkeys yet.').waitFor()
    await passkeys.getByLabel('Passkey name').fill('Chromium virtual key')
    await passkeys.getByRole('button', { name: 'Add a passkey' }).click()
    await page.getByText('Passkey added').waitFor()
    const row = passkeys.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem')
    await row.filter({ hasText: 'Chromium virtual key' }).waitFor()
    await row.getByText('Never used').waitFor()
    assert.equal((await authenticator.credentials()).length, 1)
    await checkedAtBothWidths(page, 'second-factor-01-passkey-added')

    // the email field's autofill (conditional mediation): Chromium's virtual authenticator picks the passkey at once
    let started = Date.now()
    await signOut(page)
    await page.waitForURL('**/dashboard')
    console.log(`  the login page's autofill to the dashboard: ${Date.now() - started} ms`)
    await page.getByRole('heading', { name: `Welcome back, ${brand.name}` }).waitFor()

    // a browser without that autofill: the button
    await page.addInitScript(() => {
      if (window.PublicKeyCredential) window.PublicKeyCredential.isConditionalMediationAvailable = async () => false
    })
    await signOut(page)
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor()
    await checkedAtBothWidths(page, 'second-factor-02-login')
    assert.equal(new URL(page.url()).pathname, '/login')
    started = Date.now()
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
    await page.waitForURL('**/dashboard')
    console.log(`  passkey button to the dashboard: ${Date.now() - started} ms`)
    await page.getByRole('heading', { name: `Welcome back, ${brand.name}` }).waitFor()

    await page.goto('/settings')
    await passkeys.getByText(/Last used/).waitFor()
    await passkeys.getByRole('button', { name: 'Remove passkey Chromium virtual key' }).click()
    await page.getByRole('alertdialog', { name: 'Remove this passkey?' }).getByRole('button', { name: 'Remove' }).click()
    await page.getByText('Passkey removed').waitFor()
    await passkeys.getByText('No passkeys yet.').waitFor()

    // the authenticator still holds the key; the server no longer accepts it, and says so
    await signOut(page)
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
    const refusal = await page.getByRole('alert').textContent()
    console.log(`  a removed passkey: "${refusal}"`)
    assert.match(refusal, /passkey/i)
    assert.equal(new URL(page.url()).pathname, '/login')
    assert.equal(await page.evaluate(() => localStorage.getItem('token')), null)
    assert.deepEqual(errors, [])
  })

  it('turns on two-step sign-in with a code from the key on the page, signs in with a code, steps up with a recovery code', async () => {
    const brand = await newBrand('totp')
    const { page, errors } = await open(suite.browser)
    await submitPassword(page, brand)
    await page.waitForURL('**/dashboard')
    await page.goto('/settings')

    const totpCard = page.getByRole('region', { name: 'Two-Factor Authentication' })
    await totpCard.getByRole('button', { name: 'Set up authenticator app' }).click()
    await totpCard.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor()
    await checkedAtBothWidths(page, 'second-factor-03-totp-qr')
    const secret = (await totpCard.getByTestId('totp-secret').textContent()).replace(/\s/g, '')
    const enrolStep = currentStep()
    await totpCard.getByLabel('Enter the 6-digit code the app shows').fill(totp(secret, enrolStep))
    await totpCard.getByRole('button', { name: 'Turn on' }).click()
    const codes = totpCard.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')
    await codes.first().waitFor()
    assert.equal(await codes.count(), 10)
    await totpCard.getByText('On', { exact: true }).waitFor()
    await checkedAtBothWidths(page, 'second-factor-04-recovery-codes')
    const recoveryCode = (await codes.first().textContent()).trim()
    await totpCard.getByRole('button', { name: 'I have saved them' }).click()
    await totpCard.getByText('10 recovery codes left.').waitFor()

    await signOut(page)
    await submitPassword(page, brand)
    const code = page.getByLabel('Authentication code')
    await code.waitFor()
    await checkedAtBothWidths(page, 'second-factor-05-login-code')
    // the enrolment's code was spent: the next step's code (the server accepts one step either side)
    await code.fill(totp(secret, Math.max(currentStep(), enrolStep + 1)))
    const started = Date.now()
    await page.getByRole('button', { name: 'Log In' }).click()
    await page.waitForURL('**/dashboard')
    console.log(`  password and code, Log In to the dashboard: ${Date.now() - started} ms`)

    // step-up: a session stays freshly confirmed 5 minutes after its sign-in, so the server's first refusal of the
    // password change is played here (401 step_up_required, as identity answers it); the dialog's recovery code
    // goes to the real POST /auth/step-up and the change is sent again, to the real server, with its new token
    let refusals = 0
    await page.route('**/api/auth/change-password', (route) => {
      if (refusals++ > 0) return route.continue()
      return route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ detail: "Confirm it's you: enter a code from your authenticator app, or use a passkey.", code: 'step_up_required' }) })
    })
    await page.goto('/settings')
    const passwordForm = page.getByRole('form', { name: 'Change password' })
    await passwordForm.getByLabel('Current Password').fill(PASSWORD)
    await passwordForm.getByLabel('New Password', { exact: true }).fill('second-factor-2')
    await passwordForm.getByLabel('Confirm New Password').fill('second-factor-2')
    await passwordForm.getByRole('button', { name: 'Update Password' }).click()
    const dialog = page.getByRole('dialog', { name: "Confirm it's you" })
    await dialog.getByLabel('Authentication code').waitFor()
    await checkedAtBothWidths(page, 'second-factor-06-step-up')
    await dialog.getByLabel('Authentication code').fill(recoveryCode)
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await page.getByText('Password Changed').waitFor()
    assert.equal(refusals, 2)
    await page.getByRole('region', { name: 'Two-Factor Authentication' }).getByText('9 recovery codes left.').waitFor()
    assert.deepEqual(errors, [])
  })
})
