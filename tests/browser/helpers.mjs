import { existsSync } from 'node:fs'
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import { mkdir, readdir, readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { AxeBuilder } from '@axe-core/playwright'
import * as OTPAuth from 'otpauth'
import { chromium } from 'playwright-core'

export const BASE_URL = (process.env.PINBID_BASE_URL ?? 'http://localhost:8000').replace(/\/+$/, '')
/** The 30-second step the clock is in now, and the code an authenticator app shows at a step (RFC 6238's defaults:
 *  SHA-1, 6 digits, 30 seconds). */
export const currentStep = () => Math.floor(Date.now() / 30_000)
export const totp = (secret, step) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: step * 30_000 })

export const MAIL_DIR = process.env.PINBID_MAIL_DIR ?? '/work/main/var/mail'
// Debian's chromium-headless-shell (the old headless mode, what Playwright itself runs headless) when it is there:
// the same Blink and V8 as /usr/bin/chromium without the browser around them, and a quarter less CPU for the suite
export const CHROMIUM = process.env.PINBID_CHROMIUM ??
  (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium')
const here = path.dirname(fileURLToPath(import.meta.url))
const ARTIFACTS = path.join(here, 'artifacts')

/** Debian's Chromium, headless, as every spec runs it. */
export const launchChromium = () =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  })

/** A browser of its own with one page (openPage), for a spec that needs no second context. */
export async function launch() {
  const browser = await launchChromium()
  const opened = await openPage(browser)
  opened.context.setDefaultTimeout(15_000)
  return { browser, ...opened }
}

/** A full-page screenshot into artifacts/ (made when missing). */
export async function screenshot(page, name) {
  await mkdir(ARTIFACTS, { recursive: true })
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true })
}

// Screenshots are for a person to look at: off where nobody can (CI keeps only the log), since a full-page PNG costs
// Chromium about a second of CPU and the journeys take 37 pairs of them
const SCREENSHOTS = (process.env.PINBID_SCREENSHOTS ?? (process.env.CI ? 'off' : 'on')) !== 'off'

/** Screenshots at 1280 px and 390 px wide into artifacts/ (none with PINBID_SCREENSHOTS=off, the default under CI). */
export async function snap(page, name) {
  if (!SCREENSHOTS) return
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await page.waitForTimeout(150)
    await screenshot(page, `${name}-${width}`)
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

export async function serverIsUp() {
  try {
    const res = await fetch(`${BASE_URL}/api/health`, { signal: AbortSignal.timeout(3000) })
    return res.ok
  } catch {
    return false
  }
}

export function uniqueEmail(prefix) {
  return `${prefix}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`
}

/** Decode the quoted-printable soft breaks and escapes that mail bodies may carry. */
function decodeQuotedPrintable(text) {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16)))
}

/** The mails written since `since` (ms), each decoded (quoted-printable and base64 bodies) with its headers; none
 * while the folder is not there yet (it is made with the first mail). */
async function mailsSince(since) {
  let names = []
  try {
    names = (await readdir(MAIL_DIR)).filter((n) => n.endsWith('.eml'))
  } catch {
    return []
  }
  const mails = []
  for (const name of names) {
    const file = path.join(MAIL_DIR, name)
    if ((await stat(file)).mtimeMs < since - 1000) continue
    const raw = await readFile(file, 'utf8')
    let text = decodeQuotedPrintable(raw)
    for (const block of raw.match(/(?:^[A-Za-z0-9+/=]{40,}\r?\n)+/gm) ?? []) {
      text += '\n' + Buffer.from(block.replace(/\s+/g, ''), 'base64').toString('utf8')
    }
    mails.push(text)
  }
  return mails
}

/** Wait for a mail written after `since` whose decoded text `matches`, and return that text (null if none came). */
export async function waitForMail(matches, { since = 0, timeoutMs = 20_000 } = {}) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const found = (await mailsSince(since)).find(matches)
    if (found) return found
    await new Promise((r) => setTimeout(r, 250))
  }
  return null
}

/** Wait for a mail to `to` written after `since` and return the reset token from its link. */
export async function waitForResetToken(to, since, timeoutMs = 20_000) {
  const link = /\/reset-password\/([A-Za-z0-9._~-]+)/
  const mail = await waitForMail((text) => text.toLowerCase().includes(to.toLowerCase()) && link.test(text),
    { since, timeoutMs })
  if (!mail) throw new Error(`no reset mail for ${to} in ${MAIL_DIR}`)
  return mail.match(link)[1]
}

/** Reload until `locator` shows (what another service does reaches this page a moment later): each load gets
 * `perLoadMs` to show it, then the page is loaded again, `tries` times in all. */
export async function reloadUntilVisible(page, locator, { tries = 20, perLoadMs = 1500, beforeCheck } = {}) {
  for (let i = 0; i < tries; i++) {
    if (beforeCheck) await beforeCheck()
    if (await locator.waitFor({ timeout: perLoadMs }).then(() => true, () => false)) return
    await page.reload()
  }
  await locator.waitFor({ timeout: perLoadMs })
}

export const DEMO_CREATOR = { email: 'creator@demo.pinbid.app', password: 'pinbid-demo' }
export const DEMO_BRAND = { email: 'brand@demo.pinbid.app', password: 'pinbid-demo' }

/** A fresh context at `width` (a phone's height below 500 px) with one page, and the page's uncaught errors. */
export async function openPage(browser, width = 1280) {
  const context = await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 }, baseURL: BASE_URL })
  context.setDefaultTimeout(20_000)
  const page = await context.newPage()
  const errors = []
  page.on('pageerror', (e) => errors.push(e.message))
  return { context, page, errors }
}

/** Fills and sends the login form (where it leads is the caller's to check). */
export async function submitPassword(page, { email, password }) {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log In' }).click()
}

export async function logIn(page, account) {
  await submitPassword(page, account)
  await page.waitForURL('**/dashboard')
}

const GRAVE = new Set(['serious', 'critical'])

/** axe-core's serious and critical violations on the page, each with a few of its elements and axe's explanation;
 *  the milder ones are logged, not returned. */
export async function graveViolations(page) {
  // A page without frames is checked in one pass over its document (legacy mode); the default mode's pass per
  // frame, then a blank page to merge them, took twice the time for the same violations on such a page.
  const axe = new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).setLegacyMode(page.frames().length === 1)
  const { violations } = await axe.analyze()
  const milder = violations.filter((v) => !GRAVE.has(v.impact)).map((v) => `${v.impact} ${v.id}`)
  if (milder.length) console.log(`  (not failing: ${milder.join(', ')})`)
  return violations.filter((v) => GRAVE.has(v.impact))
    .map((v) => `${v.impact} ${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 4).map((n) => `${n.html.slice(0, 120)} ${n.failureSummary.split('\n').slice(1, 2).join('').trim()}`).join('\n    ')}`)
}

/** A spec's own browser (launchChromium), launched once the server answers and closed after: `suite.browser` is there
 *  from the first test. `ready(browser)` then does what else the spec needs before its tests. */
export function browserForSuite(ready = async () => {}) {
  const suite = {}
  before(async () => {
    assert.ok(await serverIsUp(), `Pinbid is not answering at ${BASE_URL}/api/health (start it with: make run)`)
    suite.browser = await launchChromium()
    await ready(suite.browser)
  })
  after(async () => {
    await suite.browser?.close()
  })
  return suite
}

/** A spec's one browser with one page (launch): the object it answers is filled in before the first test
 *  (`const { page, errors } = ctx` inside a test). */
export function launchForSuite() {
  const ctx = browserForSuite(async (browser) => {
    const opened = await openPage(browser)
    opened.context.setDefaultTimeout(15_000)
    Object.assign(ctx, opened)
  })
  return ctx
}

/** A new brand through the signup form, landed on its dashboard. */
export async function signUpBrand(page, { name, email, password, business }) {
  await page.goto('/signup/buyer')
  await page.getByLabel('Full Name').fill(name)
  await page.getByLabel('Email').fill(email)
  if (business) await page.getByLabel('Business Name (optional)').fill(business)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Create Brand Account' }).click()
  await page.waitForURL('**/dashboard')
}

/** The brand pays its won bid for `title` on the sandbox's checkout page and is back on My Bids; `onCard` runs
 *  while the card shows Pay Now. */
export async function payWonBid(page, title, { onCard } = {}) {
  await page.goto('/my-bids')
  await page.getByRole('tab', { name: /Won/ }).click()
  const card = page.locator('article').filter({ hasText: title })
  await card.getByRole('button', { name: 'Pay Now' }).waitFor()
  await onCard?.(card)
  await card.getByRole('button', { name: 'Pay Now' }).click()
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  await page.waitForURL('**/my-bids**')
}
