// Browser journeys against a running Pinbid (gateway + services + built web app).
// PINBID_BASE_URL (default http://localhost:8000), PINBID_MAIL_DIR (default /work/main/var/mail).
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { BASE_URL, launchForSuite, signUpBrand, snap, uniqueEmail, waitForResetToken } from './helpers.mjs'

const buyer = { name: 'Jordan Blake', email: uniqueEmail('buyer'), password: 'first-Password-1', business: 'Trailpack Ltd' }
const NEW_PASSWORD = 'second-Password-2'

describe(`Pinbid in a browser at ${BASE_URL}`, { concurrency: false }, () => {
  const ctx = launchForSuite()

  it('renders the landing page', async () => {
    const { page } = ctx
    await page.goto('/')
    await page.getByRole('heading', { level: 1, name: /Auction it/ }).waitFor()
    await page.getByRole('link', { name: /Start Earning/ }).first().waitFor()
    await page.getByRole('link', { name: 'Browse Opportunities' }).first().waitFor()
    for (const title of ['Smart Auctions', 'Quality Control', 'Premium Placement', 'For Creators', 'For Brands', 'General Information']) {
      await page.getByRole('heading', { name: title }).first().waitFor()
    }
    // the demo: place a bid that wins
    await page.getByLabel('Your maximum bid (USD)').fill('80')
    await page.getByRole('button', { name: 'Place Bid' }).click()
    await page.getByRole('button', { name: 'End auction now' }).click()
    await page.getByText('You won the pinned comment!').waitFor()
    await snap(page, '01-landing')
    assert.deepEqual(ctx.errors, [])
  })

  it('signs up a buyer and lands on the dashboard shell', async () => {
    const { page } = ctx
    await signUpBrand(page, buyer)
    // a brand-new account is greeted, not welcomed back; signing in later is a return
    await page.getByRole('heading', { name: `Welcome, ${buyer.name}` }).waitFor()
    await page.getByText('Brand Tools').first().waitFor()
    await page.getByRole('link', { name: 'Marketplace' }).first().waitFor()
    await snap(page, '02-buyer-dashboard')
    await page.goto('/settings')
    await page.getByText('Profile Information').waitFor()
    await page.getByText('Notification Preferences').waitFor()
    await snap(page, '03-buyer-settings')
  })

  it('signs out', async () => {
    const { page } = ctx
    await page.goto('/dashboard')
    await page.getByRole('button', { name: 'Sign Out' }).click()
    await page.waitForURL(`${BASE_URL}/`)
    await page.getByRole('heading', { level: 1, name: /Auction it/ }).waitFor()
    assert.equal(await page.evaluate(() => localStorage.getItem('token')), null)
    await page.goto('/dashboard')
    await page.waitForURL('**/login')
    await snap(page, '04-signed-out-login')
  })

  it('signs in', async () => {
    const { page } = ctx
    await page.goto('/login')
    await page.getByLabel('Email').fill(buyer.email)
    await page.getByLabel('Password').fill('wrong-password-x')
    await page.getByRole('button', { name: 'Log In' }).click()
    await page.getByText('Login failed. Please check your credentials and try again.').waitFor()
    await page.getByLabel('Password').fill(buyer.password)
    await page.getByRole('button', { name: 'Log In' }).click()
    await page.waitForURL('**/dashboard')
    await page.getByRole('heading', { name: `Welcome back, ${buyer.name}` }).waitFor()
    await snap(page, '05-signed-in')
    await page.getByRole('button', { name: 'Sign Out' }).click()
    await page.waitForURL(`${BASE_URL}/`)
  })

  it('resets a password through the mailed link', async () => {
    const { page } = ctx
    const since = Date.now()
    await page.goto('/reset-password')
    await page.getByRole('heading', { name: 'Forgot Your Password?' }).waitFor()
    await page.getByLabel('Email Address').fill(buyer.email)
    await page.getByRole('button', { name: 'Request Reset Link' }).click()
    await page.getByText('Password Reset Email Sent').waitFor()
    await snap(page, '06-reset-requested')

    const token = await waitForResetToken(buyer.email, since)
    await page.goto(`/reset-password/${token}`)
    await page.getByRole('heading', { name: 'Reset Your Password' }).waitFor()
    await page.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD)
    await page.getByLabel('Confirm New Password').fill(NEW_PASSWORD)
    await snap(page, '07-reset-form')
    await page.getByRole('button', { name: 'Reset Password' }).click()
    await page.waitForURL('**/login')
    await page.getByText('Password Reset Successful').waitFor()

    await page.getByLabel('Email').fill(buyer.email)
    await page.getByLabel('Password').fill(NEW_PASSWORD)
    await page.getByRole('button', { name: 'Log In' }).click()
    await page.waitForURL('**/dashboard')
    await page.getByRole('button', { name: 'Sign Out' }).click()
    await page.waitForURL(`${BASE_URL}/`)
  })

  it('renders the blog list and one post', async () => {
    const { page } = ctx
    await page.goto('/blog')
    await page.getByRole('heading', { level: 1, name: 'The Pinbid Blog' }).waitFor()
    await page.getByPlaceholder('Search articles, topics, or tags...').waitFor()
    await page.getByText(/^Showing \d+ of \d+ articles$/).waitFor()
    await snap(page, '08-blog')
    const first = page.locator('a[href^="/blog/"]').first()
    const title = (await first.textContent())?.trim()
    assert.ok(title, 'the blog lists at least one article')
    await first.click()
    await page.getByRole('link', { name: 'Back to Blog' }).waitFor()
    await page.getByRole('heading', { level: 1, name: title }).waitFor()
    await page.getByText('Ready to Monetize Your Social Media?').waitFor()
    await snap(page, '09-blog-post')
    assert.deepEqual(ctx.errors, [])
  })

  it('opens a post by its address from the HTML the gateway wrote, which the app hydrates, not renders again', async () => {
    const { slug, title } = (await (await fetch(`${BASE_URL}/api/blog/articles`)).json()).articles[0]
    const html = await (await fetch(`${BASE_URL}/blog/${slug}`)).text()
    assert.match(html, /<h1[^>]*>[^<]+<\/h1>/, 'the title is in the page as sent')
    const page = await ctx.context.newPage()
    const errors = []
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    await page.addInitScript(() => {
      window.headingsRemoved = 0 // a fresh render would replace the page's heading
      new MutationObserver((records) => {
        for (const node of records.flatMap((r) => [...r.removedNodes])) {
          if (node.nodeType === 1 && (node.matches('h1') || node.querySelector('h1'))) window.headingsRemoved++
        }
      }).observe(document, { childList: true, subtree: true })
    })
    try {
      await page.goto(`/blog/${slug}`)
      await page.getByRole('heading', { level: 1, name: title }).waitFor()
      await page.getByRole('list', { name: 'Tags' }).waitFor() // rendered once hydrated
      await page.getByRole('button', { name: 'Save' }).click()
      await page.getByRole('button', { name: 'Saved' }).waitFor()
      assert.equal(await page.evaluate(() => window.headingsRemoved), 0)
      assert.deepEqual(errors, [])
    } finally {
      await page.close()
    }
  })
})
