// Benchmark (not a test): time to first render of the landing page served by the product, measured in
// headless Chromium as first-contentful-paint, cold (new browser context each time), 10 runs.
// Usage: node landing-render.mjs http://127.0.0.1:8000
import { chromium } from 'playwright-core'

const base = process.argv[2] ?? process.env.PINBID_BASE_URL ?? 'http://127.0.0.1:8000'
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--no-first-run'],
})
const paints = []
const loads = []
for (let run = 0; run < 10; run++) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  await page.goto(base + '/', { waitUntil: 'load' })
  const timing = await page.evaluate(() => new Promise((resolve) => {
    const nav = performance.getEntriesByType('navigation')[0]
    new PerformanceObserver((list) => {
      const fcp = list.getEntriesByName('first-contentful-paint')[0]
      if (fcp) resolve({ fcp: fcp.startTime, load: nav.loadEventEnd })
    }).observe({ type: 'paint', buffered: true })
  }))
  paints.push(timing.fcp)
  loads.push(timing.load)
  await context.close()
}
await browser.close()
const sorted = (xs) => [...xs].sort((a, b) => a - b)
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)]
console.log(`landing first-contentful-paint: median ${median(paints).toFixed(0)} ms, ` +
  `min ${sorted(paints)[0].toFixed(0)} ms, max ${sorted(paints).at(-1).toFixed(0)} ms (10 cold loads)`)
console.log(`landing load event: median ${median(loads).toFixed(0)} ms`)
