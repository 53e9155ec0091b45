// Screenshots of the second-chance screens (issue 36) on the built web app, its API answered by the script: the
// creator's "Second chances" on Approvals and the brand's offer on My Bids. Run after `npm run build` in web/:
//   node tests/browser/second-chance-shots.mjs [out-dir]
import { createServer } from 'node:http'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { launchChromium } from './helpers.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const DIST = path.join(here, '..', '..', 'web', 'dist')
const OUT = process.argv[2] ?? path.join(here, 'artifacts')
const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.html': 'text/html', '.png': 'image/png' }

const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x')
  if (url.pathname === '/runtime-config.json') return res.end(JSON.stringify({ apiBase: '/api' }))
  const file = path.join(DIST, url.pathname)
  try {
    const body = await readFile(file)
    res.setHeader('Content-Type', TYPES[path.extname(file)] ?? 'application/octet-stream')
    res.end(body)
  } catch {
    res.setHeader('Content-Type', 'text/html')
    res.end(await readFile(path.join(DIST, 'app.html')))
  }
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const base = `http://127.0.0.1:${server.address().port}`

const until = new Date(Date.now() + 47 * 3600_000).toISOString()
const slot = {
  id: 'slot-1', title: 'Leg day, the 20-minute version', description: '', category: 'fitness', minBid: 25, currentBid: 210,
  buyNowPrice: null, auctionEnd: new Date(Date.now() - 86_400_000).toISOString(), duration: 7, status: 'CLOSED', outcome: 'SOLD',
  bidCount: 5, bidderCount: 3, createdAt: '2026-11-20T00:00:00Z',
  post: { imageUrl: '/favicon.svg', mediaType: 'IMAGE', permalink: 'https://instagram.example/p/1', instagramId: '1' },
  instagramPost: { permalink: 'https://instagram.example/p/1' },
  user: { id: 'u1', name: 'Maya Rivers', instagramHandle: 'maya.moves', influencerProfile: null, record: { placements: 12, keptPercent: 92, responseMinutes: 45 } },
  bids: [], priceHistory: [],
}
const bid = (over) => ({
  tab: 'past', wonAuction: false, id: 'bid-1', amount: 150, maxAutoBid: null, autoBidEnabled: false, status: 'EXPIRED', finalPrice: null,
  createdAt: '2026-11-25T09:00:00Z', updatedAt: '2026-11-25T09:00:00Z', comment: 'Twenty minutes, no excuses', commentId: null,
  commentUsername: null, approvedComment: null, commentApprovedAt: null, duration: 7, user: { name: 'Northwind', email: null },
  pinSlot: slot, payment: null, pinnedComment: null, refunded: null, disputeOutcome: null, offerExpiresAt: null, amountOffered: null,
  campaignId: null, campaignName: null, ...over,
})
const user = (role, name) => ({ id: '3f1c2b8e-0000-4000-8000-000000000001', name, email: 'x@example.com', role, businessName: null,
  instagramHandle: role === 'BUYER' ? null : 'maya.moves', instagramId: null, instagramConnected: role !== 'BUYER', influencerProfile: null,
  createdAt: '2026-01-01T00:00:00Z', totpEnabled: false })

const offered = bid({ id: 'bid-2', tab: 'active', status: 'OFFERED', amount: 180, maxAutoBid: 200, autoBidEnabled: true, offerExpiresAt: until, amountOffered: 200, user: { name: 'Acme Gear', email: null } })
const fallen = bid({ id: 'bid-1', status: 'REJECTED', finalPrice: 210, amount: 211, user: { name: 'Northwind', email: null } })
const unpaid = bid({ id: 'bid-7', status: 'EXPIRED', finalPrice: 95, payment: { status: 'EXPIRED', expiresAt: null, paidAt: null }, pinSlot: { ...slot, id: 'slot-2', title: 'Sunday meal prep' }, user: { name: 'Globex', email: null } })
const runnerUp = bid({ id: 'bid-8', status: 'EXPIRED', amount: 90, maxAutoBid: 92, autoBidEnabled: true, pinSlot: { ...slot, id: 'slot-2', title: 'Sunday meal prep' }, user: { name: 'Initech Foods', email: null } })
const answers = {
  BUYER: { '/auth/me': user('BUYER', 'Riley Brand'), '/buyer/bids': [offered, bid({ id: 'bid-3', tab: 'active', status: 'OUTBID', amount: 60, pinSlot: { ...slot, id: 's3', title: 'Morning run', status: 'ACTIVE', auctionEnd: until, currentBid: 70 } })], '/buyer/dashboard-figures': { activeBids: 2, wonAuctions: 0 } },
  INFLUENCER: { '/auth/me': user('INFLUENCER', 'Maya Rivers'), '/influencer/approvals': [], '/influencer/record': { placements: 12, keptPercent: 92, responseMinutes: 45 },
    '/influencer/bids/second-chances': [{ fallen, runnerUp: null, runnerUpPrice: null, openOffer: offered }, { fallen: unpaid, runnerUp, runnerUpPrice: 92, openOffer: null }] },
}

const browser = await launchChromium()
for (const [role, page_, file] of [['BUYER', '/my-bids', 'second-chance-brand'], ['INFLUENCER', '/approvals', 'second-chance-creator']]) {
  for (const width of [1280, 390]) {
    const context = await browser.newContext({ viewport: { width, height: 900 } })
    await context.addInitScript(() => localStorage.setItem('token', 't'))
    await context.route('**/api/**', (route) => {
      const p = new URL(route.request().url()).pathname.replace(/^\/api/, '')
      const body = answers[role][p]
      return route.fulfill({ status: body === undefined ? 404 : 200, contentType: 'application/json', body: JSON.stringify(body ?? { detail: 'Not found.', code: 'not_found' }) })
    })
    const page = await context.newPage()
    await page.goto(base + page_)
    await page.getByText(role === 'BUYER' ? 'offers you this slot' : 'Second chances').first().waitFor({ timeout: 20_000 })
    await page.screenshot({ path: path.join(OUT, `${file}-${width}.png`), fullPage: true })
    const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
    console.log(`${file}-${width}.png`, wide ? 'SCROLLS SIDEWAYS' : 'fits')
    await context.close()
  }
}
await browser.close()
server.close()
