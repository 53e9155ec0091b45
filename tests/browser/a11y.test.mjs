// Accessibility and stillness (issue 23, items 5 and 6): axe-core finds no serious or critical violation on any
// public page or on any page of either role (signed in once per role, the context reused), and the public pages
// do not shift while their content arrives (the layout-shift entries after load, summed, stay under 0.1 at phone
// and desktop widths). Prints the violations per page, so a failure says where and what.
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { BASE_URL, browserForSuite, DEMO_BRAND as BRAND, DEMO_CREATOR as CREATOR, graveViolations, logIn, openPage as open } from './helpers.mjs'

const PUBLIC = ['/', '/blog', '/blog/:first', '/blog/no-such-post', '/login', '/signup/influencer', '/signup/buyer',
  '/privacy', '/terms', '/reset-password', '/no-such-page']
const ROUTES = {
  creator: ['/dashboard', '/post-manager', '/approvals', '/earnings', '/settings', '/notifications'],
  brand: ['/dashboard', '/marketplace', '/marketplace#bid-panel', '/my-bids', '/my-bids/:first', '/campaigns', '/campaigns/new', '/settings', '/notifications'],
}
const CLS_LIMIT = 0.1

/** The page has its heading and nothing is loading any more (no skeleton, no "Loading …" status). */
async function settled(page) {
  await page.waitForLoadState('load')
  await page.waitForFunction(() => {
    if (!document.querySelector('h1, main h2, main h3')) return false
    if (document.querySelector('[data-slot="skeleton"], [aria-label="Loading page"]')) return false
    return ![...document.querySelectorAll('[role="status"]')].some((e) => /loading/i.test(e.textContent ?? ''))
  }, null, { timeout: 15_000 }).catch(() => console.log(`${page.url()}: no heading, or still loading, after 15 s; checked as it is`))
  await page.waitForTimeout(300)
}

/** Go to a route; ':first' stands for the first blog post or the first bid of My Bids, '#bid-panel' opens it. */
async function visit(page, route) {
  if (route === '/blog/:first') {
    await page.goto('/blog')
    await settled(page)
    route = await page.locator('main a[href^="/blog/"]').first().getAttribute('href')
  } else if (route === '/my-bids/:first') {
    await page.goto('/my-bids')
    await settled(page)
    const link = page.locator('main a[href^="/my-bids/"]').first()
    for (const tab of await page.getByRole('tab').all()) {
      await tab.click()
      if (await link.isVisible()) break
    }
    route = await link.getAttribute('href')
  }
  await page.goto(route.replace('#bid-panel', ''))
  await settled(page)
  if (route.endsWith('#bid-panel')) {
    await page.locator('main article button:not([disabled])').first().click()
    await page.getByRole('dialog').waitFor()
    await page.waitForTimeout(400)
  }
  return route
}

async function checkPages(page, routes) {
  const found = {}
  for (const route of routes) {
    const shown = await visit(page, route)
    const grave = await graveViolations(page)
    console.log(`axe ${shown}: ${grave.length} serious or critical rule(s)${grave.map((g) => '\n  ' + g).join('')}`)
    if (grave.length) found[shown] = grave
  }
  assert.deepEqual(found, {}, 'serious or critical axe-core violations')
}

/** Sum of the layout shifts (not caused by input) from the start of a cold load until the content is in and has sat still. */
async function layoutShift(browser, route, width) {
  const { context, page } = await open(browser, width)
  await page.addInitScript(() => {
    window.__shifts = []
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (!e.hadRecentInput) window.__shifts.push({ value: e.value, nodes: e.sources?.map((s) => s.node?.nodeName + '.' + (s.node?.className?.toString?.() ?? '').slice(0, 60)) })
      }
    }).observe({ type: 'layout-shift', buffered: true })
  })
  await page.goto(route)
  await settled(page)
  await page.waitForTimeout(1000)
  const shifts = await page.evaluate(() => window.__shifts)
  await context.close()
  return { total: shifts.reduce((s, e) => s + e.value, 0), shifts }
}

describe(`accessibility and layout shift at ${BASE_URL}`, { concurrency: false }, () => {
  let firstPost

  const suite = browserForSuite(async (browser) => {
    const articles = await (await fetch(`${BASE_URL}/api/blog/articles`)).json()
    firstPost = `/blog/${articles.articles[0].slug}`
  })

  it('no public page has a serious or critical axe-core violation', async () => {
    const { context, page } = await open(suite.browser)
    await checkPages(page, PUBLIC)
    await context.close()
  })

  for (const [role, account] of [['creator', CREATOR], ['brand', BRAND]]) {
    it(`no ${role} page has a serious or critical axe-core violation`, async () => {
      const { context, page } = await open(suite.browser)
      await logIn(page, account)
      await checkPages(page, ROUTES[role])
      if (role === 'creator') {
        // the chart keeps keyboard focus (arrow keys walk its tooltip): a named image with a ring that is not clipped
        await page.goto('/earnings')
        const chart = page.getByRole('img', { name: /^Earnings by month: bar chart/ })
        await chart.focus()
        await page.keyboard.press('ArrowRight')
        const ring = await chart.evaluate((e) => {
          const s = getComputedStyle(e)
          return { visible: e.matches(':focus-visible'), style: s.outlineStyle, width: s.outlineWidth, offset: s.outlineOffset }
        })
        assert.deepEqual(ring, { visible: true, style: 'solid', width: '2px', offset: '-2px' })
      }
      await context.close()
    })
  }

  it(`the public pages shift less than ${CLS_LIMIT} while they load, on a phone and on a desktop`, async () => {
    const over = []
    for (const route of ['/', '/blog', firstPost, '/login']) {
      for (const width of [390, 1280]) {
        const { total, shifts } = await layoutShift(suite.browser, route, width)
        console.log(`layout shift ${route} at ${width} px: ${total.toFixed(3)}`)
        if (total >= CLS_LIMIT) over.push(`${route} at ${width} px: ${total.toFixed(3)} ${JSON.stringify(shifts)}`)
      }
    }
    assert.deepEqual(over, [], 'pages that shift while loading')
  })
})
