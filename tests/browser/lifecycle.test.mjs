// The whole life of a pin slot through the UI (creator and a new buyer, two browser contexts):
// create a slot, bid with a new comment, end the auction, approve, pay on the sandbox checkout page,
// pin the comment (sandbox Instagram login if asked), and see it live on the buyer's My Bids.
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { BASE_URL, browserForSuite, DEMO_CREATOR as CREATOR, logIn, openPage, payWonBid, reloadUntilVisible, signUpBrand, snap, uniqueEmail } from './helpers.mjs'

const buyer = { name: 'Riley Brand', email: uniqueEmail('lifecycle'), password: 'lifecycle-Password-1', business: 'Northwind Outdoor' }
const SLOT_TITLE = `Pinned comment ${Date.now().toString(36)}`
const COMMENT = 'Loving this! Our trail mix goes with every hike #ad'

async function toast(page, text) {
  await page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor()
}

describe(`the life of a pin slot at ${BASE_URL}`, { concurrency: false }, () => {
  let creator, brand

  browserForSuite(async (browser) => {
    creator = await openPage(browser)
    brand = await openPage(browser)
  })

  it('the creator opens a pin slot on a post', async () => {
    const { page } = creator
    await logIn(page, CREATOR)
    await page.goto('/post-manager')
    const connect = page.getByRole('button', { name: 'Connect Instagram' }).first()
    const manager = page.getByRole('heading', { name: 'Post & Pin-Slot Manager' })
    await Promise.race([connect.waitFor(), manager.waitFor()])
    if (await connect.isVisible()) {
      await connect.click()
      await page.getByRole('button', { name: 'Allow' }).click()
      await page.waitForURL('**/post-manager**')
      await toast(page, 'Instagram Connected')
    }
    await manager.waitFor()
    // a post holds at most 3 pinned comments (the sandbox enforces it): on a reused database pick any free post
    const free = page.getByRole('button', { name: 'Create Pin Slot' })
    await free.first().waitFor()
    await free.nth(Math.floor(Math.random() * (await free.count()))).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Title').fill(SLOT_TITLE)
    await dialog.getByLabel('Category').selectOption('fitness')
    await dialog.getByLabel('Minimum bid (USD)').fill('25')
    await dialog.getByLabel('Auction ends in').selectOption('24')
    await snap(page, '10-create-slot-dialog')
    await dialog.getByRole('button', { name: 'Create Pin Slot' }).click()
    await toast(page, 'Pin slot created successfully!')
    await page.getByText(SLOT_TITLE).first().waitFor()
    await snap(page, '11-post-manager')
    await page.goto('/dashboard')
    await page.getByText(SLOT_TITLE).first().waitFor()
    await snap(page, '12-creator-dashboard')
  })

  it('a new brand signs up and bids with a new comment', async () => {
    const { page } = brand
    await signUpBrand(page, buyer)
    await page.getByText(/\d+ opportunit(y|ies) found/).waitFor()
    await snap(page, '13-buyer-dashboard')

    await page.goto('/marketplace')
    await page.getByRole('heading', { name: 'Pin Slot Marketplace' }).waitFor()
    await page.getByText(/Showing \d+ of \d+ pin slots/).waitFor()
    await page.getByRole('button', { name: 'Advanced Filters' }).click()
    await page.getByRole('button', { name: 'Fitness', exact: true }).click()
    await page.getByText('Active', { exact: true }).waitFor()
    await page.getByLabel('Search pin slots').fill(SLOT_TITLE)
    await page.getByText('Showing 1 of 1 pin slots').waitFor()
    await snap(page, '14-marketplace')
    await page.getByRole('button', { name: 'Clear All' }).click()
    await page.getByLabel('Search pin slots').fill('no-such-slot-anywhere-xyz')
    await page.getByText('No pin slots found matching your criteria.').waitFor()
    await page.getByLabel('Search pin slots').fill(SLOT_TITLE)
    await page.getByText('Showing 1 of 1 pin slots').waitFor()

    await page.getByRole('button', { name: `View Details & Bid: ${SLOT_TITLE}` }).click()
    const sheet = page.getByRole('dialog')
    await sheet.getByText('Place a Bid').waitFor()
    // not connected to Instagram: the Connect prompt replaces the previous-comment choice
    await sheet.getByText('Connect Instagram to use one of your comments').waitFor()
    assert.equal(await sheet.getByLabel('Bid amount (USD)').inputValue(), '25.00')
    await sheet.getByLabel('Bid amount (USD)').fill('10')
    await sheet.getByRole('button', { name: /^Place Bid: / }).click()
    await toast(page, 'Invalid Bid Amount')
    await sheet.getByLabel('Bid amount (USD)').fill('40')
    await sheet.getByLabel('Write a new comment').check()
    await sheet.getByRole('button', { name: 'Place Bid: $40.00' }).click()
    await toast(page, 'Comment is Empty')
    await sheet.getByRole('textbox', { name: 'New comment' }).fill(COMMENT)
    await snap(page, '15-place-bid-sheet')
    await sheet.getByRole('button', { name: 'Place Bid: $40.00' }).click()
    await toast(page, 'Bid Placed Successfully!')

    await page.goto('/my-bids')
    await page.getByRole('tab', { name: /Active/ }).waitFor()
    await page.getByText(SLOT_TITLE).waitFor()
    await page.getByText(/left$/).first().waitFor()
    await snap(page, '16-my-bids-active')
  })

  it('the creator ends the auction and approves the winner', async () => {
    const { page } = creator
    await page.goto('/dashboard')
    const row = page.locator('div.rounded-lg.border').filter({ hasText: SLOT_TITLE })
    await row.getByRole('button', { name: /View Bidders \(1\)/ }).click()
    // the marketplace names a brand by its business name when it has one
    await page.getByRole('dialog').getByText(buyer.business).waitFor()
    await page.getByRole('dialog').getByText('$40.00').first().waitFor()
    await snap(page, '17-bid-history')
    await page.keyboard.press('Escape')
    await row.getByRole('button', { name: 'End Auction' }).click()
    await page.getByRole('alertdialog', { name: 'End this auction now?' }).getByRole('button', { name: 'End Auction' }).click()
    await toast(page, 'Auction Ended')

    await page.goto('/approvals')
    const card = page.locator('article').filter({ hasText: SLOT_TITLE })
    await card.getByText(COMMENT).waitFor()
    // second price: a single bid pays the minimum bid
    await card.getByText('$25.00').waitFor()
    await snap(page, '18-approvals-pending')
    await card.getByRole('button', { name: 'Approve' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Approve' }).click()
    await toast(page, 'Approval Successful')
    await card.getByText('Waiting on the brand to pay...').waitFor()
  })

  it('the brand pays on the sandbox checkout page', async () => {
    const { page } = brand
    await payWonBid(page, SLOT_TITLE, { onCard: () => snap(page, '19-my-bids-won') })
    await toast(page, 'Payment Successful')
    await page.getByRole('tab', { name: /Won/ }).click()
    await page.getByText('Waiting for the creator to pin the comment').waitFor({ timeout: 30_000 })
  })

  it('the creator pins the comment', async () => {
    const { page } = creator
    await page.goto('/approvals')
    const card = page.locator('article').filter({ hasText: SLOT_TITLE })
    const pin = card.getByRole('button', { name: 'Pin Comment' })
    await reloadUntilVisible(page, pin)
    await pin.click()
    const login = page.getByRole('dialog', { name: 'Secure Instagram Login' })
    const pinned = page.locator('[data-sonner-toast]').filter({ hasText: 'Comment Pinned' }).first()
    await Promise.race([login.waitFor(), pinned.waitFor()])
    if (await login.isVisible()) {
      await snap(page, '20-instagram-login')
      await login.getByLabel('Instagram password').fill('sandbox')
      await login.getByRole('button', { name: /Log In/ }).click()
    }
    await pinned.waitFor()
    await snap(page, '21-approvals-pinned')
    await page.goto('/earnings')
    await page.getByRole('heading', { name: 'Earnings & Payouts' }).waitFor()
    await page.getByText('Payout Settings', { exact: true }).waitFor()
    await snap(page, '22-earnings')
  })

  it("the brand's My Bids shows the comment live", async () => {
    const { page } = brand
    await page.goto('/my-bids')
    const live = page.getByRole('tab', { name: /Live/ })
    await live.click()
    const panel = page.getByRole('tabpanel')
    await reloadUntilVisible(page, panel.getByText(SLOT_TITLE),
      { beforeCheck: () => page.getByRole('tab', { name: /Live/ }).click() })
    await snap(page, '23-my-bids-live')
    assert.deepEqual(brand.errors, [])
    assert.deepEqual(creator.errors, [])
  })
})
