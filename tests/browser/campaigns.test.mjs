// A brand's campaign (issue 36) against the running product: a new brand finds Campaigns beside My Bids, saves a
// marketplace search as a campaign, is told what the form refuses, creates it, lowers its budget,
// and ends it after a confirmation; axe-core finds nothing serious on the pages, none wider than a phone.
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { BASE_URL, browserForSuite, graveViolations, openPage, signUpBrand, snap, uniqueEmail } from './helpers.mjs'

const brand = { name: 'Dana Campaign', email: uniqueEmail('campaign'), password: 'campaign-Password-1', business: `Stride ${Date.now().toString(36)}` }
const NAME = `Fitness push ${Date.now().toString(36)}`

/** What datetime-local holds for a moment `days` from now, in the browser's zone. */
const localInput = (days) => {
  const d = new Date(Date.now() + days * 86_400_000)
  const pad = (n) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

async function toast(page, text) {
  await page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor()
  // axe reads colours as drawn: a toast still fading in blends its text into its background
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'))
}

async function notWiderThanPhone(page) {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.waitForTimeout(200)
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  await page.setViewportSize({ width: 1280, height: 900 })
  return wide
}

describe(`campaigns at ${BASE_URL}`, { concurrency: false }, () => {
  const suite = browserForSuite()

  it('save a search as a campaign, create, edit and end it', async () => {
    const { context, page, errors } = await openPage(suite.browser)
    try {
      await signUpBrand(page, brand)
      await page.getByRole('link', { name: 'Campaigns', exact: true }).click()
      await page.getByText('No campaigns yet. A campaign bids for you', { exact: false }).waitFor()
      assert.deepEqual(await graveViolations(page), [])

      // the marketplace's filters go into the form
      await page.goto('/marketplace')
      await page.getByRole('button', { name: /Advanced Filters/ }).click()
      await page.getByRole('group', { name: 'Category' }).getByRole('button', { name: 'Fitness' }).click()
      await page.getByRole('link', { name: /Save this search as a campaign/ }).click()
      await page.getByRole('heading', { name: 'New campaign' }).waitFor()
      assert.equal(await page.getByRole('group', { name: 'Category' }).getByRole('button', { name: 'Fitness' }).getAttribute('aria-pressed'), 'true')
      await page.getByTestId('campaign-reach').filter({ hasText: /match|matches now/ }).waitFor()

      // what the form refuses is said on the fields, and nothing is sent
      await page.getByLabel('Total budget (USD)').fill('50')
      await page.getByLabel('Most per comment (USD)').fill('80')
      await page.getByRole('button', { name: 'Create campaign' }).click()
      await page.getByText('Give the campaign a name.').waitFor()
      await page.getByText('The most per comment ($80.00) cannot be above the budget ($50.00).').waitFor()
      assert.deepEqual(await graveViolations(page), [])
      assert.ok((await notWiderThanPhone(page)) <= 0, 'the form scrolls sideways on a phone')
      await snap(page, 'campaign-form-refused')

      await page.getByLabel('Campaign name').fill(NAME)
      await page.getByLabel('Total budget (USD)').fill('1.500,00')
      await page.getByLabel('Comment to pin').fill('Stride with us: 15% off with STRIDE15')
      await page.getByLabel('Ends').fill(localInput(10))
      await page.getByRole('button', { name: 'Create campaign' }).click()
      await toast(page, 'Campaign created')
      await page.getByRole('heading', { name: NAME }).waitFor()
      await page.getByText('Fund the budget to start bidding.').waitFor()
      const bar = page.getByRole('img', { name: /spent and .* committed to bids, of a \$1,500\.00 budget/ })
      await bar.waitFor()
      assert.deepEqual(await graveViolations(page), [])
      assert.ok((await notWiderThanPhone(page)) <= 0, "the campaign's page scrolls sideways on a phone")
      await snap(page, 'campaign-page')

      // an edit sends what changed: the budget
      await page.getByRole('link', { name: 'Edit' }).click()
      await page.getByLabel('Total budget (USD)').fill('1200')
      // (what is sent is the vitest suite's to check: a fetch of a Request streams its body, which the browser's
      // request log does not keep)
      const patch = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('/api/buyer/campaigns/'))
      await page.getByRole('button', { name: 'Save changes' }).click()
      const saved = await (await patch).json()
      assert.equal(saved.budget, 1200)
      assert.equal(saved.name, NAME)
      await toast(page, 'Campaign saved')
      await page.getByRole('img', { name: /of a \$1,200\.00 budget/ }).waitFor()

      // the list shows it; End asks first
      await page.goto('/campaigns')
      await page.getByRole('link', { name: NAME }).click()
      await page.getByRole('button', { name: 'End' }).click()
      const dialog = page.getByRole('alertdialog', { name: 'End this campaign?' })
      await dialog.getByText('This cannot be undone.', { exact: false }).waitFor()
      await dialog.getByRole('button', { name: 'End campaign' }).click()
      await toast(page, 'Campaign ended')
      await page.getByTestId('campaign-state').filter({ hasText: 'You ended it.' }).waitFor()
      assert.equal(await page.getByRole('button', { name: 'Pause' }).count(), 0)
      assert.deepEqual(errors, [])
    } finally {
      await context.close()
    }
  })
})
