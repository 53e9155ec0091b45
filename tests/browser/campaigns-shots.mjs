// Screenshots of the brand's Campaigns screens at 1280 and 390 px, against the web app (`npm run dev`, or any server
// of the built app) with the API answered here: the figures are the test's, the screens are the app's.
//   cd web && npx vite --port 5199 &   then   PINBID_WEB_URL=http://localhost:5199 node tests/browser/campaigns-shots.mjs
// Writes artifacts/campaigns-*.png and fails when a page scrolls sideways on the phone.
import assert from 'node:assert/strict'
import { launch, screenshot } from './helpers.mjs'

const WEB = (process.env.PINBID_WEB_URL ?? 'http://localhost:5199').replace(/\/+$/, '')
const DAY = 86_400_000
const iso = (ms) => new Date(ms).toISOString()
const now = Date.now()

const buyer = {
  id: '3f1c2b8e-0000-4000-8000-000000000002', name: 'Riley Brand', email: 'riley@example.com', role: 'BUYER', businessName: 'Northwind',
  instagramHandle: 'northwind', instagramId: null, instagramConnected: false, influencerProfile: null, createdAt: iso(now - 90 * DAY), totpEnabled: false,
}

const campaign = (over = {}) => ({
  id: 'c0ffee00-0000-4000-8000-000000000001', name: 'Fitness creators, December', status: 'ACTIVE', reason: null,
  filters: { category: 'fitness', maxPrice: 100, minViews: 10000, verified: true }, ask: null, budget: 2000, maxPerSlot: 80, funded: 2000,
  committed: 450.1, spent: 120.05, available: 1549.9, commentText: 'Train with us this winter: 20% off your first month with FIT20 at northwind.example',
  startsAt: iso(now - 20 * DAY), endsAt: iso(now + 34 * DAY), createdAt: iso(now - 20 * DAY), updatedAt: iso(now - DAY), version: 12,
  counts: { bidding: 4, leading: 3, outbid: 1, won: 2, pinned: 1 }, ...over,
})

const campaigns = [
  campaign(),
  campaign({ id: 'c0ffee00-0000-4000-8000-000000000002', name: 'Tech launch: phones under $50', status: 'DRAFT', funded: 0, committed: 0, spent: 0, available: 0, filters: { category: 'tech', maxPrice: 50 }, ask: 'phone reviews under $50', counts: { bidding: 0, leading: 0, outbid: 0, won: 0, pinned: 0 } }),
  campaign({ id: 'c0ffee00-0000-4000-8000-000000000003', name: 'Food week', status: 'OUT_OF_BUDGET', reason: 'budget', budget: 300, committed: 290, spent: 210, available: 10, maxPerSlot: 40, filters: { category: 'food' }, counts: { bidding: 2, leading: 2, outbid: 0, won: 6, pinned: 5 } }),
]

const bid = (id, title, creator, status, amount, over = {}) => ({ id, slotId: `s-${id}`, slotTitle: title, creatorName: creator, status, amount, maxAutoBid: 80, finalPrice: null, clicks: 0, costPerClick: null, updatedAt: iso(now - 3600_000), ...over })
const detail = {
  ...campaign(),
  bids: [
    bid('b1', 'Sunrise yoga flow — pinned comment', 'Maya Rivers', 'ACTIVE', 41),
    bid('b2', 'Leg day with no equipment', 'Jonas Berg', 'OUTBID', 80),
    bid('b3', 'Protein pancakes, three ways', 'Leo Park', 'PINNED', 60, { finalPrice: 60, clicks: 240, costPerClick: 0.25 }),
    bid('b4', 'Marathon week 12 recap', 'Ana Silva', 'PENDING_INFLUENCER_APPROVAL', 60.05, { finalPrice: 60.05 }),
  ],
  skipped: [{ slotId: 's9', slotTitle: 'Gym bag essentials', reason: 'OWN_BID', at: iso(now - 2 * DAY) }],
  spendOverTime: [0, 3, 6, 9, 12, 15, 18].map((d, i) => ({ at: iso(now - (18 - d) * DAY), spent: [0, 0, 0, 60, 60, 120.05, 120.05][i], committed: [80, 160, 240, 300, 380, 420, 450.1][i] })),
}

const slot = { id: 'slot-1', title: 'Sunrise yoga flow — pinned comment', description: 'x', category: 'fitness', minBid: 25, currentBid: 41, buyNowPrice: null,
  auctionEnd: iso(now + DAY), duration: 7, status: 'ACTIVE', outcome: null, bidCount: 3, bidderCount: 2, createdAt: iso(now - DAY),
  post: { imageUrl: '/favicon.svg', mediaType: 'IMAGE', permalink: 'https://instagram.example/p/1', instagramId: '1' }, instagramPost: { permalink: 'https://instagram.example/p/1' },
  user: { id: 'u1', name: 'Maya Rivers', instagramHandle: 'maya.moves', influencerProfile: { avgViews: 120000, followers: 98000, avgEngagement: 4.2, verified: true }, record: { placements: 12, keptPercent: 92, responseMinutes: 45 } },
  bids: [], priceHistory: [] }
const myBid = { tab: 'active', wonAuction: false, id: 'b1', amount: 41, maxAutoBid: 80, autoBidEnabled: true, status: 'ACTIVE', finalPrice: null, createdAt: iso(now - DAY), updatedAt: iso(now - 3600_000),
  comment: detail.commentText, commentId: null, commentUsername: null, approvedComment: null, commentApprovedAt: null, duration: 7, user: { name: 'Riley Brand', email: 'riley@example.com' },
  pinSlot: slot, payment: null, pinnedComment: null, refunded: null, disputeOutcome: null, campaignId: campaign().id, campaignName: campaign().name }

let empty = false
function answer(method, path) {
  if (path === '/auth/me') return buyer
  if (path === '/buyer/campaigns') return empty ? [] : campaigns
  if (path === `/buyer/campaigns/${detail.id}`) return detail
  if (path === '/marketplace/categories') return ['fashion', 'tech', 'fitness', 'food', 'travel', 'gaming']
  if (path === '/marketplace/slots') return { slots: [slot], total: 37, totalIsExact: true, totalPages: 37, page: 1 }
  if (path === '/buyer/bids') return [myBid, { ...myBid, id: 'b7', campaignId: null, campaignName: null, pinSlot: { ...slot, id: 'slot-7', title: 'Coffee art reel' } }]
  if (path === '/notifications/unread-count') return { unreadCount: 0 }
  if (path === '/notifications') return []
  return undefined
}

const { browser, page } = await launch()
try {
  await page.addInitScript(() => localStorage.setItem('token', 'shots'))
  await page.route(`${WEB}/runtime-config.json`, (route) => route.fulfill({ json: { apiBase: '/api' } }))
  await page.route(`${WEB}/api/**`, (route) => {
    const url = new URL(route.request().url())
    const body = answer(route.request().method(), url.pathname.replace(/^\/api/, ''))
    return body === undefined ? route.fulfill({ status: 404, json: { detail: 'Not found.', code: 'not_found' } }) : route.fulfill({ json: body })
  })

  const shoot = async (path, name, prepare) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await page.goto(`${WEB}${path}`)
      await page.getByRole('heading', { level: 2 }).first().waitFor()
      if (prepare) await prepare()
      await page.waitForTimeout(400)
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      assert.ok(wide <= 0, `${path} scrolls sideways by ${wide} px at ${width}`)
      await screenshot(page, `campaigns-${name}-${width}`)
    }
  }
  await shoot('/campaigns', 'list')
  await shoot(`/campaigns/${detail.id}`, 'detail', () => page.getByRole('list', { name: 'Bids of this campaign' }).waitFor())
  await shoot('/campaigns/new', 'new-errors', async () => {
    await page.getByLabel('Total budget (USD)').fill('50')
    await page.getByLabel('Most per comment (USD)').fill('80')
    await page.getByRole('button', { name: 'Create campaign' }).click()
    await page.getByText('Give the campaign a name.').waitFor()
  })
  await shoot(`/campaigns/${detail.id}/edit`, 'edit')
  await shoot('/my-bids', 'my-bids', () => page.getByRole('link', { name: campaign().name }).first().waitFor())
  empty = true
  await shoot('/campaigns', 'empty')
  console.log('screenshots in tests/browser/artifacts/campaigns-*.png')
} finally {
  await browser.close()
}
