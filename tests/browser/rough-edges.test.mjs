// The paths a browser walk found broken or rough (issue 10): no page scrolls sideways on a phone; a brand who
// connects Instagram from the bid panel comes back to the same panel; raising a bid with "Use a previous comment"
// keeps that comment all the way to the creator's Approvals card; End Auction and Approve ask first and then
// always show their success toast; after paying, My Bids opens on the paid bid.
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { BASE_URL, browserForSuite, DEMO_BRAND as BRAND, DEMO_CREATOR as CREATOR, logIn, openPage as open, payWonBid, signUpBrand, snap, uniqueEmail } from './helpers.mjs'

const ROUTES = {
  creator: ['/dashboard', '/post-manager', '/approvals', '/earnings', '/settings'],
  brand: ['/dashboard', '/marketplace', '/my-bids', '/campaigns', '/campaigns/new', '/settings'],
}
const newBrand = { name: 'Casey Brand', email: uniqueEmail('raise'), password: 'raise-Password-1', business: `Glowline ${Date.now().toString(36)}` }
const SLOT_TITLE = `Raise test ${Date.now().toString(36)}`
const FIRST_COMMENT = 'First words from Glowline #ad'

async function toast(page, text) {
  await page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor()
}

/** Confirm in the AlertDialog a button opened; it must say that the step cannot be undone. */
async function confirm(page, title, button) {
  const dialog = page.getByRole('alertdialog', { name: title })
  await dialog.getByText('This cannot be undone.', { exact: false }).waitFor()
  await dialog.getByRole('button', { name: button, exact: true }).click()
  await dialog.waitFor({ state: 'detached' })
}

describe(`rough edges at ${BASE_URL}`, { concurrency: false }, () => {
  let creator, brand

  const suite = browserForSuite()

  for (const [role, account] of [['creator', CREATOR], ['brand', BRAND]]) {
    it(`no ${role} page scrolls sideways on a 390 px phone`, async () => {
      const { context, page, errors } = await open(suite.browser, 390)
      await logIn(page, account)
      const wide = []
      for (const route of ROUTES[role]) {
        await page.goto(route)
        // not 'networkidle': the live event stream keeps one request open for as long as the page is
        await page.waitForLoadState('load')
        await page.locator('main h2, main h3, main [role="alert"]').first().waitFor()
        await page.locator('main [role="status"]').first().waitFor({ state: 'detached' }).catch(() => {})
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth }))
        if (scrollWidth > innerWidth) wide.push(`${route}: ${scrollWidth} px`)
      }
      assert.deepEqual(wide, [], `pages wider than the 390 px screen: ${wide.join(', ')}`)
      assert.deepEqual(errors, [])
      await context.close()
    })
  }

  it('the creator opens a slot to bid on', async () => {
    creator = await open(suite.browser)
    const { page } = creator
    await logIn(page, CREATOR)
    await page.goto('/post-manager')
    await page.getByRole('heading', { name: 'Post & Pin-Slot Manager' }).waitFor()
    const free = page.getByRole('button', { name: 'Create Pin Slot' })
    await free.first().waitFor()
    await free.nth(Math.floor(Math.random() * (await free.count()))).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Create Pin Slot' }).click()
    await dialog.getByText('Give the slot a title, a category and a minimum bid.').waitFor()
    await dialog.getByLabel('Title').fill(SLOT_TITLE)
    await dialog.getByLabel('Category').selectOption('tech')
    await dialog.getByLabel('Minimum bid (USD)').fill('20')
    // the message goes as soon as the fields are right
    await dialog.getByText('Give the slot a title, a category and a minimum bid.').waitFor({ state: 'detached' })
    await dialog.getByRole('button', { name: 'Create Pin Slot' }).click()
    await toast(page, 'Pin slot created successfully!')
  })

  it('a brand connects Instagram from the bid panel and comes back to the same panel', async () => {
    brand = await open(suite.browser)
    const { page } = brand
    await signUpBrand(page, newBrand)
    await page.goto('/marketplace')
    await page.getByLabel('Search pin slots').fill(SLOT_TITLE)
    await page.getByText('Showing 1 of 1 pin slots').waitFor()
    const openPanel = page.getByRole('button', { name: `View Details & Bid: ${SLOT_TITLE}` })
    await openPanel.click()
    let sheet = page.getByRole('dialog')
    await sheet.getByText('Connect Instagram to use one of your comments').waitFor()
    // with no bid yet the message speaks of the minimum bid only
    await sheet.getByLabel('Bid amount (USD)').fill('5')
    await sheet.getByRole('button', { name: /^Place Bid: / }).click()
    await page.locator('[data-sonner-toast]').filter({ hasText: 'Your bid must be at least the minimum bid ($20.00).' }).first().waitFor()
    // closing the panel gives focus back to the button that opened it
    await page.keyboard.press('Escape')
    await sheet.waitFor({ state: 'detached' })
    assert.equal(await openPanel.evaluate((el) => el === document.activeElement), true)

    await openPanel.click()
    await sheet.getByRole('button', { name: 'Connect Instagram' }).click()
    await page.getByRole('button', { name: 'Allow' }).click()
    await page.waitForURL('**/marketplace**')
    await toast(page, 'Instagram Connected')
    sheet = page.getByRole('dialog')
    await sheet.getByText('Place a Bid').waitFor()
    await sheet.getByText(SLOT_TITLE, { exact: true }).first().waitFor()
    await snap(page, '30-panel-after-connect')
  })

  it('raising with "Use a previous comment" keeps that comment on My Bids and the Approvals card', async () => {
    const { page } = brand
    let sheet = page.getByRole('dialog')
    await sheet.getByLabel('Write a new comment').check()
    await sheet.getByRole('textbox', { name: 'New comment' }).fill(FIRST_COMMENT)
    await sheet.getByRole('button', { name: 'Place Bid: $20.00' }).click()
    await toast(page, 'Bid Placed Successfully!')
    await sheet.waitFor({ state: 'detached' })

    await page.getByRole('button', { name: `View Details & Bid: ${SLOT_TITLE}` }).click()
    sheet = page.getByRole('dialog')
    // the brand leads: the panel shows the visible bid and the maximum, and offers to keep the comment
    await sheet.getByText('Your maximum', { exact: true }).waitFor()
    await sheet.getByText(`Keep my comment: “${FIRST_COMMENT}”`).waitFor()
    await sheet.getByLabel('Use a previous comment').check()
    const choice = sheet.locator('input[name="comment-id"]').first()
    await choice.check()
    const chosen = (await choice.locator('xpath=..').innerText()).replace(/^@\S+\s+/, '').trim()
    assert.ok(chosen.length > 0)
    await sheet.getByLabel('Bid amount (USD)').fill('35')
    await snap(page, '31-raise-with-previous-comment')
    await sheet.getByRole('button', { name: 'Place Bid: $35.00' }).click()
    await toast(page, 'Your maximum is now $35.00')

    await page.goto('/my-bids')
    const row = page.locator('article').filter({ hasText: SLOT_TITLE })
    await row.getByText(chosen, { exact: false }).waitFor()
    await row.getByText('Your maximum', { exact: true }).waitFor()
    await snap(page, '32-my-bids-raised')

    const { page: cp } = creator
    await cp.goto('/dashboard')
    const slotRow = cp.locator('[data-slot-row]').filter({ hasText: SLOT_TITLE })
    // one bidder, however many times they raised
    await slotRow.getByRole('button', { name: 'View Bidders (1)' }).waitFor()
    await slotRow.getByRole('button', { name: 'End Auction' }).click()
    await confirm(cp, 'End this auction now?', 'End Auction')
    await toast(cp, 'Auction Ended')

    await cp.goto('/approvals')
    const card = cp.locator('article').filter({ hasText: SLOT_TITLE })
    await card.getByText(chosen, { exact: false }).waitFor()
    assert.equal(await card.getByText('The brand has not chosen a comment yet.').count(), 0)
    await card.getByRole('button', { name: 'Approve' }).click()
    await snap(cp, '33-approve-confirmation')
    await confirm(cp, /^Approve .*'s bid\?$/, 'Approve')
    await toast(cp, 'Approval Successful')
    // the result of a step that cannot be undone stays long enough to be read (sonner's default was 4 s)
    await cp.waitForTimeout(5000)
    assert.equal(await cp.locator('[data-sonner-toast]').filter({ hasText: 'Approval Successful' }).isVisible(), true)
    await card.getByText('Waiting on the brand to pay...').waitFor()
  })

  it('after paying, My Bids opens on the paid bid', async () => {
    const { page } = brand
    await payWonBid(page, SLOT_TITLE)
    await toast(page, 'Payment Successful')
    await page.getByRole('tab', { name: /Won/, selected: true }).waitFor()
    await page.locator('article[aria-current="true"]').filter({ hasText: SLOT_TITLE }).waitFor()
    await snap(page, '34-my-bids-after-paying')
    assert.deepEqual(brand.errors, [])
    assert.deepEqual(creator.errors, [])
  })
})
