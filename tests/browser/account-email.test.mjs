// Changing the account's email in Settings: the form asks for the current password only for a new email,
// the old session's token stops working, and the browser stays signed in with the token the answer carries.
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { BASE_URL, MAIL_DIR, launchForSuite, signUpBrand, snap, uniqueEmail, waitForMail } from './helpers.mjs'

const buyer = { name: 'Rowan Ellery', email: uniqueEmail('mover'), password: 'mover-Password-1', business: 'Ellery Goods' }
const NEW_EMAIL = uniqueEmail('moved')

async function me(token) {
  return fetch(`${BASE_URL}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } })
}

describe(`changing the email at ${BASE_URL}`, { concurrency: false }, () => {
  const ctx = launchForSuite()

  it('asks for the password, keeps this session, signs the old token out and tells the old address', async () => {
    const { page } = ctx
    await signUpBrand(page, buyer)
    const oldToken = await page.evaluate(() => localStorage.getItem('token'))

    await page.goto('/settings')
    const form = page.getByRole('form', { name: 'Profile information' })
    await form.getByLabel('Email Address').fill(NEW_EMAIL)
    const password = form.getByLabel('Current Password')
    await password.waitFor()
    await form.getByRole('button', { name: 'Save Changes' }).click()
    await form.getByText('Enter your current password to change your email address.').waitFor()
    await password.fill('not-my-password')
    await form.getByRole('button', { name: 'Save Changes' }).click()
    await form.getByText('Your current password is incorrect.').waitFor()
    assert.equal((await (await me(oldToken)).json()).email, buyer.email)

    await password.fill(buyer.password)
    await form.getByRole('button', { name: 'Save Changes' }).click()
    await page.getByText('Your email address has been changed. Other devices have been signed out.').waitFor()
    await password.waitFor({ state: 'detached' })
    await snap(page, '40-email-changed')

    const newToken = await page.evaluate(() => localStorage.getItem('token'))
    assert.notEqual(newToken, oldToken)
    assert.equal((await me(oldToken)).status, 403)
    await page.reload()
    assert.equal(await page.getByRole('form', { name: 'Profile information' }).getByLabel('Email Address').inputValue(), NEW_EMAIL)
    assert.equal(new URL(page.url()).pathname, '/settings')

    const login = await fetch(`${BASE_URL}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: NEW_EMAIL, password: buyer.password }),
    })
    assert.equal(login.status, 200)
    const notice = await waitForMail(
      (text) => text.includes(`To: ${buyer.email}`) && text.includes('Your Pinbid email address was changed'),
      { timeoutMs: 10_000 },
    )
    assert.ok(notice, `no notice to ${buyer.email} in ${MAIL_DIR}`)
    assert.ok(!notice.includes(NEW_EMAIL), 'the notice names the new address only masked')
    assert.deepEqual(ctx.errors, [])
  })
})
