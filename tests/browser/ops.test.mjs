// The operator's desk: an operator (created by run.sh with `python -m pinbid_identity.operators create`, its
// password and TOTP secret passed as env) signs in with its second factor (a wrong code and a replayed one are
// refused), brands and creators are kept out of /ops, an operator suspends a demo brand with a reason (the brand's
// sign-in is then refused with it) and restores it, the audit log shows both; axe-core finds no serious or
// critical violation on any /ops page and none is wider than a 390 px phone. Run it last: it suspends a brand.
import { before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { BASE_URL, browserForSuite, DEMO_BRAND as BRAND, DEMO_CREATOR as CREATOR, graveViolations, logIn, openPage as open, reloadUntilVisible, screenshot, snap, submitPassword, currentStep, totp } from './helpers.mjs'

const OPERATOR = {
  email: process.env.PINBID_OPERATOR_EMAIL,
  password: process.env.PINBID_OPERATOR_PASSWORD,
  secret: process.env.PINBID_OPERATOR_TOTP_SECRET,
}
// a demo brand none of the other specs signs in as (suspending it withdraws its open bids)
const SUSPENDED_BRAND = { email: 'glow@demo.pinbid.app', password: 'pinbid-demo', search: 'glow@demo' }
const OPS_ROUTES = ['/ops', '/ops/flags', '/ops/users', '/ops/links', '/ops/audit', '/ops/passkeys']

/** A code the server refuses: none of the steps it accepts (the current one and one either side) gives it. */
function wrongCode(secret) {
  const step = currentStep()
  const valid = new Set([-2, -1, 0, 1, 2].map((d) => totp(secret, step + d)))
  for (let n = 0; ; n++) {
    const code = String((123456 + n * 7919) % 1_000_000).padStart(6, '0')
    if (!valid.has(code)) return code
  }
}

/** The page has its heading and nothing is loading any more. */
async function settled(page) {
  await page.waitForLoadState('load')
  await page.waitForFunction(() => {
    if (!document.querySelector('h1')) return false
    if (document.querySelector('[data-slot="skeleton"], [aria-label="Loading page"]')) return false
    return ![...document.querySelectorAll('[role="status"]')].some((e) => /loading|searching/i.test(e.textContent ?? ''))
  }, null, { timeout: 15_000 })
  await page.waitForTimeout(300)
}

/** An /ops page as it has loaded; on Users, with a search's results listed. */
async function visitDesk(page, route) {
  await page.goto(route)
  await settled(page)
  if (route === '/ops/users') {
    await page.getByLabel('Email or name').fill('demo')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('list', { name: 'Users' }).waitFor()
    await page.waitForTimeout(200)
  }
}

/** The status of an /ops API call made with the page's own session. */
async function opsApiStatus(page, path) {
  return page.evaluate(async (p) => {
    const token = localStorage.getItem('token')
    const res = await fetch(`/api${p}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} })
    return res.status
  }, path)
}

describe(`the operator desk at ${BASE_URL}`, { concurrency: false }, () => {
  let ops // the operator's signed-in context and page, kept for the steps after sign-in
  let disputePath // the dispute decided above, if the demo data allowed one

  before(() => {
    assert.ok(OPERATOR.email && OPERATOR.password && OPERATOR.secret,
      'PINBID_OPERATOR_EMAIL, PINBID_OPERATOR_PASSWORD and PINBID_OPERATOR_TOTP_SECRET must be set (run.sh creates an operator)')
  })
  const suite = browserForSuite()

  it('the operator signs in with its code: a wrong one is refused, the right one opens /ops, the same again is refused', async () => {
    assert.equal(totp('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 1), '287082', 'RFC 6238 test vector (T = 59 s)')
    ops = await open(suite.browser)
    const { page } = ops
    await submitPassword(page, OPERATOR)
    const code = page.getByLabel('Authentication code')
    await code.waitFor()
    assert.match(page.url(), /\/login$/)

    await code.fill(wrongCode(OPERATOR.secret))
    await page.getByRole('button', { name: 'Log In' }).click()
    await page.getByText('That code is not valid or was already used').waitFor()
    assert.match(page.url(), /\/login$/)
    assert.equal(await code.inputValue(), '', 'the refused code is cleared')

    const used = totp(OPERATOR.secret, currentStep())
    await code.fill(used)
    await page.getByRole('button', { name: 'Log In' }).click()
    await page.waitForURL((url) => url.pathname === '/ops')
    await page.getByRole('navigation', { name: 'Operator desk' }).waitFor()
    await page.getByRole('heading', { level: 1 }).waitFor()
    await snap(page, 'ops-disputes')

    const replay = await open(suite.browser)
    await submitPassword(replay.page, OPERATOR)
    await replay.page.getByLabel('Authentication code').fill(used)
    await replay.page.getByRole('button', { name: 'Log In' }).click()
    await replay.page.getByText('That code is not valid or was already used').waitFor()
    assert.match(replay.page.url(), /\/login$/)
    await replay.context.close()
  })

  for (const [role, account] of [['brand', BRAND], ['creator', CREATOR]]) {
    it(`the demo ${role} cannot open /ops`, async () => {
      const { context, page } = await open(suite.browser)
      await logIn(page, account)
      await page.goto('/ops/users')
      await page.waitForURL('**/dashboard')
      assert.equal(await page.getByRole('navigation', { name: 'Operator desk' }).count(), 0)
      assert.equal(await opsApiStatus(page, '/ops/users?q=demo'), 403, 'the ops API refuses it too')
      await context.close()
    })
  }

  it('suspends a demo brand with a reason, the brand is refused with it, restores it; the audit log shows both', async () => {
    assert.ok(ops, 'the operator signed in')
    const { page } = ops
    const stamp = Date.now()
    const suspendReason = `Browser test ${stamp}: fake product claims in three comments`
    const restoreReason = `Browser test ${stamp}: claims corrected by the brand`

    await page.getByRole('link', { name: 'Users' }).click()
    await page.waitForURL('**/ops/users')
    await page.getByLabel('Email or name').fill(SUSPENDED_BRAND.search)
    await page.getByRole('button', { name: 'Search' }).click()
    const card = page.getByRole('list', { name: 'Users' }).getByRole('listitem').filter({ hasText: SUSPENDED_BRAND.email })
    await card.waitFor()
    assert.equal(await page.getByRole('list', { name: 'Users' }).getByRole('listitem').count(), 1, 'one user matches')
    await card.getByText('Active', { exact: true }).waitFor()

    await card.getByRole('button', { name: 'Suspend' }).click()
    let dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Suspend account' }).click()
    await dialog.getByText('Give the reason').waitFor() // no reason, no suspension
    await dialog.getByLabel('Reason').fill(suspendReason)
    await dialog.getByRole('button', { name: 'Suspend account' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await card.getByText('Suspended', { exact: true }).waitFor()
    await card.getByText(`Suspended: ${suspendReason}`).waitFor()
    await snap(page, 'ops-users-suspended')

    const brand = await open(suite.browser)
    await submitPassword(brand.page, SUSPENDED_BRAND)
    await brand.page.getByText(`This account is suspended: ${suspendReason}`).waitFor()
    assert.match(brand.page.url(), /\/login$/)
    await brand.context.close()

    await card.getByRole('button', { name: 'Restore' }).click()
    dialog = page.getByRole('dialog')
    await dialog.getByLabel('Reason').fill(restoreReason)
    await dialog.getByRole('button', { name: 'Restore account' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await card.getByText('Active', { exact: true }).waitFor()
    assert.equal(await card.getByText(/^Suspended:/).count(), 0)

    const back = await open(suite.browser)
    await logIn(back.page, SUSPENDED_BRAND)
    await back.context.close()

    await page.getByRole('link', { name: 'Audit log' }).click()
    await page.waitForURL('**/ops/audit')
    await page.getByLabel('Object', { exact: true }).selectOption('user')
    await page.getByRole('button', { name: 'Filter' }).click()
    const entries = page.getByRole('list', { name: 'Audit entries' }).getByRole('listitem')
    const suspended = entries.filter({ hasText: suspendReason })
    const restored = entries.filter({ hasText: restoreReason })
    await suspended.waitFor()
    await restored.waitFor()
    for (const entry of [suspended, restored]) assert.match(await entry.innerText(), new RegExp(`${OPERATOR.email}[\\s\\S]*on user`))
    assert.match(await suspended.innerText(), /user\.suspend on user/)
    assert.match(await restored.innerText(), /user\.restore on user/)
    await snap(page, 'ops-audit')
  })

  it("the trust round on screens: the brand reports, the creator answers from the notice, the operator decides once both have spoken, and each sees the outcome", async (t) => {
    assert.ok(ops, 'the operator signed in')
    const brand = await open(suite.browser)
    await logIn(brand.page, BRAND)
    const creator = await open(suite.browser)
    await logIn(creator.page, CREATOR)
    // the harness's only API reads: which running placement of the demo creator's the demo brand can report
    const mine = await creator.page.evaluate(async () => {
      const res = await fetch('/api/influencer/bids', { headers: { Authorization: `Bearer ${localStorage.getItem('token')}` } })
      return (await res.json()).map((b) => b.id)
    })
    const bidId = await brand.page.evaluate(async (creatorBids) => {
      const headers = { Authorization: `Bearer ${localStorage.getItem('token')}` }
      const bids = await (await fetch('/api/buyer/bids', { headers })).json()
      for (const bid of bids.filter((b) => b.status === 'PINNED' && b.tab === 'live' && creatorBids.includes(b.id))) {
        const res = await fetch(`/api/instagram/placements/${bid.id}/trust`, { headers })
        const trust = res.ok ? await res.json() : null
        if (trust && !trust.ended && trust.dispute?.status !== 'OPEN' && trust.acceptance.status !== 'AWAITING') return bid.id
      }
      return null
    }, mine)
    if (!bidId) {
      await brand.context.close()
      await creator.context.close()
      t.skip('the demo data has no running placement of the demo creator the demo brand can report')
      return
    }
    const stamp = Date.now()
    const report = `Browser test ${stamp}: the comment is no longer pinned`
    const note = `Browser test ${stamp}: it is still pinned, here is the post now`
    const decision = `Browser test ${stamp}: the creator's screenshot shows it pinned`
    const timings = {}
    const timed = async (name, step) => {
      const started = performance.now()
      await step()
      timings[name] = (performance.now() - started) / 1000
      console.log(`step ${name}: ${timings[name].toFixed(2)} s`)
    }

    // 1. the brand reports
    await brand.page.goto(`/my-bids/${bidId}`)
    await brand.page.getByRole('button', { name: 'Report: no longer pinned' }).click()
    const reportDialog = brand.page.getByRole('dialog')
    await reportDialog.getByLabel('What is wrong?').fill(report)
    await timed('report (brand: Report it → the report on the page)', async () => {
      await reportDialog.getByRole('button', { name: 'Report it' }).click()
      await reportDialog.waitFor({ state: 'hidden' })
      await brand.page.getByRole('button', { name: 'Report: no longer pinned' }).waitFor({ state: 'detached' })
    })

    // 2. the operator cannot decide yet: the creator may still answer
    const { page } = ops
    await page.getByRole('link', { name: 'Disputes' }).click()
    await page.waitForURL((url) => url.pathname === '/ops')
    const item = page.getByRole('list', { name: 'Open disputes' }).getByRole('listitem').filter({ hasText: report })
    await item.waitFor()
    await item.getByRole('link').click()
    await page.waitForURL('**/ops/disputes/*')
    disputePath = new URL(page.url()).pathname
    await page.getByText(report).waitFor()
    const decide = page.getByRole('form', { name: 'Decide the dispute' })
    await decide.getByText(/The creator has not answered yet and may until/).waitFor()
    assert.ok(await decide.getByRole('button', { name: 'Decide' }).isDisabled(), 'no decision while the creator may answer')
    const amounts = decide.getByRole('radio', { name: /Refund all/ })
    await page.getByRole('region', { name: 'The payment' }).waitFor()
    assert.match(await amounts.evaluate((e) => e.closest('label').innerText), /To the brand\s*\$[\d,.]+[\s\S]*From the creator\s*\$[\d,.]+[\s\S]*to be recovered\s*\$[\d,.]+/)
    await snap(page, 'round-ops-waiting')
    const axe = {}
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width < 500 ? 844 : 900 })
      axe[`ops dispute, waiting, ${width} px`] = await graveViolations(page)
    }
    await page.setViewportSize({ width: 1280, height: 900 })

    // 3. the creator answers from the notice
    await creator.page.goto('/notifications')
    const notice = creator.page.getByRole('button', { name: 'Open: A placement is under review' }).first()
    await reloadUntilVisible(creator.page, notice)
    await timed('open the notice (creator: Open → the placement under review)', async () => {
      await notice.click()
      await creator.page.waitForURL(`**/placements/${bidId}`)
      await creator.page.getByRole('region', { name: 'Report to answer' }).getByText(report, { exact: false }).waitFor()
    })
    const answer = creator.page.getByRole('region', { name: 'Report to answer' })
    await snap(creator.page, 'round-creator-report')
    for (const width of [1280, 390]) {
      await creator.page.setViewportSize({ width, height: width < 500 ? 844 : 900 })
      axe[`creator placement, answer form, ${width} px`] = await graveViolations(creator.page)
      const wide = await creator.page.evaluate(() => document.scrollingElement.scrollWidth > window.innerWidth)
      assert.equal(wide, false, `the creator's placement page fits ${width} px`)
    }
    await creator.page.setViewportSize({ width: 1280, height: 900 })
    // the same checks as "I pinned it": nothing is sent without a screenshot
    await answer.getByRole('button', { name: 'Send my answer' }).click()
    await answer.getByText('Add a screenshot of the pinned comment on your post.').waitFor()
    await answer.getByLabel('Your answer').fill(note)
    const shot = await creator.page.screenshot({ type: 'png' })
    await answer.getByLabel('A new screenshot of the pinned comment').setInputFiles({ name: 'pinned-now.png', mimeType: 'image/png', buffer: shot })
    await timed('answer (creator: Send my answer → the answer on the page)', async () => {
      await answer.getByRole('button', { name: 'Send my answer' }).click()
      await creator.page.getByRole('region', { name: 'Dispute' }).getByText(`“${note}”`).waitFor()
    })
    assert.equal(await creator.page.getByRole('region', { name: 'Report to answer' }).count(), 0, 'answered: the form is gone')
    await snap(creator.page, 'round-creator-answered')

    // the brand sees the answer
    await timed('the answer reaches the brand (reload → the note on its page)', async () => {
      await brand.page.reload()
      await brand.page.getByRole('region', { name: 'Dispute' }).getByText(`“${note}”`).waitFor()
    })

    // 4. the operator decides, now that the creator has spoken
    await page.reload()
    await page.getByText(note, { exact: true }).waitFor()
    assert.equal(await decide.getByText(/has not answered yet/).count(), 0)
    await decide.getByRole('button', { name: 'Decide' }).click()
    await decide.getByText('Choose an outcome.').waitFor() // nothing is sent without an outcome
    await decide.getByRole('radio', { name: /Keep going/ }).check()
    await decide.getByLabel('Reason').fill(decision)
    await decide.getByRole('button', { name: 'Decide' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Keep going?' })
    await timed('decide (operator: Confirm decision → decided on the desk)', async () => {
      await confirm.getByRole('button', { name: 'Confirm decision' }).click()
      await confirm.waitFor({ state: 'hidden' })
      await page.getByText(decision, { exact: true }).waitFor()
    })
    await page.getByText('Decided', { exact: true }).waitFor()
    assert.equal(await decide.count(), 0, 'a decided dispute offers no decision')
    const history = page.getByRole('list', { name: 'History' })
    await history.getByText(`Decided “Keep going”: ${decision}`).waitFor()
    assert.match(await history.innerText(), /the brand[\s\S]*the creator[\s\S]*an operator/)
    await snap(page, 'round-ops-decided')

    // 5. what each of the three sees after
    await timed('the decision reaches the brand (reload → the outcome on its page)', async () => {
      await brand.page.reload()
      await brand.page.getByRole('region', { name: 'Dispute' }).getByText('The placement continues').waitFor()
    })
    assert.ok((await brand.page.getByRole('region', { name: 'Dispute' }).innerText()).includes(`Reason: ${decision}`), 'the brand sees the reason')
    await snap(brand.page, 'round-brand-after')
    await creator.page.reload()
    const seen = creator.page.getByRole('region', { name: 'Dispute' })
    await seen.getByText('The placement continues').waitFor()
    const seenText = await seen.innerText()
    assert.ok(seenText.indexOf(`“${note}”`) >= 0 && seenText.indexOf(`Reason: ${decision}`) > seenText.indexOf(`“${note}”`), 'the creator sees their answer, then the decision and its reason')
    await snap(creator.page, 'round-creator-after')
    for (const width of [1280, 390]) {
      await creator.page.setViewportSize({ width, height: width < 500 ? 844 : 900 })
      axe[`creator placement, decided, ${width} px`] = await graveViolations(creator.page)
    }
    // a second answer is not offered, and the server would refuse it (nothing waits for the creator)
    assert.equal(await creator.page.getByRole('button', { name: 'Send my answer' }).count(), 0)
    await brand.context.close()
    await creator.context.close()

    await page.goto('/ops/audit')
    await page.getByRole('list', { name: 'Audit entries' }).getByRole('listitem').filter({ hasText: decision }).waitFor()
    for (const [where, grave] of Object.entries(axe)) console.log(`axe ${where}: ${grave.length} serious or critical${grave.map((g) => '\n  ' + g).join('')}`)
    assert.deepEqual(Object.fromEntries(Object.entries(axe).filter(([, g]) => g.length)), {}, 'serious or critical axe-core violations')
    console.log(`round timings: ${JSON.stringify(Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Number(v.toFixed(2))])))}`)
  })

  it('no /ops page has a serious or critical axe-core violation', async () => {
    assert.ok(ops, 'the operator signed in')
    const { page } = ops
    const found = {}
    for (const route of [...OPS_ROUTES, ...(disputePath ? [disputePath] : [])]) {
      await visitDesk(page, route)
      const grave = await graveViolations(page)
      console.log(`axe ${route}: ${grave.length} serious or critical${grave.map((g) => '\n  ' + g).join('')}`)
      if (grave.length) found[route] = grave
    }
    assert.deepEqual(found, {}, 'serious or critical axe-core violations')
  })

  it('no /ops page is wider than a 390 px phone', async () => {
    assert.ok(ops, 'the operator signed in')
    const { page } = ops
    await page.setViewportSize({ width: 390, height: 844 })
    const wide = []
    for (const route of [...OPS_ROUTES, ...(disputePath ? [disputePath] : [])]) {
      await visitDesk(page, route)
      // the page, and the desk's sections (which once scrolled sideways inside their own bar)
      const { scrollWidth, innerWidth, navScroll, navWidth } = await page.evaluate(() => {
        const nav = document.querySelector('nav[aria-label="Operator desk"]')
        return { scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth, navScroll: nav.scrollWidth, navWidth: nav.clientWidth }
      })
      console.log(`${route} at 390 px: ${scrollWidth} px wide, its sections ${navScroll} px in ${navWidth} px`)
      if (scrollWidth > innerWidth || navScroll > navWidth) {
        wide.push(`${route}: ${scrollWidth} px, sections ${navScroll} px`)
        await screenshot(page, `ops-too-wide-${route.replaceAll('/', '_')}`)
      }
    }
    assert.deepEqual(wide, [], '/ops pages wider than the phone')
  })
})
