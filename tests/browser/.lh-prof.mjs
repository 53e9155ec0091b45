import { chromium } from 'playwright-core'
const [base, route = '/', rate = '4'] = process.argv.slice(2)
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })
const page = await browser.newPage({ viewport: { width: 412, height: 823 } })
const cdp = await page.context().newCDPSession(page)
await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(rate) })
await page.addInitScript(() => {
  window.__long = []
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([Math.round(e.startTime), Math.round(e.duration), e.attribution?.[0]?.containerSrc ?? '']) }).observe({ type: 'longtask', buffered: true })
})
await cdp.send('Profiler.enable')
await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
await cdp.send('Profiler.start')
await page.goto(base + route, { waitUntil: 'networkidle' })
await page.waitForTimeout(1500)
const { profile } = await cdp.send('Profiler.stop')
console.log('long tasks', JSON.stringify(await page.evaluate(() => window.__long)))
const self = new Map()
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const dt = profile.timeDeltas
const counts = new Map()
profile.samples.forEach((id, i) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)))
for (const [id, us] of counts) {
  const n = byId.get(id); const f = n.callFrame
  const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`
  self.set(key, (self.get(key) ?? 0) + us)
}
for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log((us / 1000).toFixed(1).padStart(8), 'ms', k)
// tasks: runs of non-idle samples
const parent = new Map()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const label = (id) => { const f = byId.get(id).callFrame; return `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}` }
let t = profile.startTime, task = null
const tasks = []
profile.samples.forEach((id, i) => {
  t += dt[i] ?? 0
  const name = byId.get(id).callFrame.functionName
  if (name === '(idle)') { if (task) { tasks.push(task); task = null }; return }
  if (!task) task = { start: t, end: t, self: new Map(), incl: new Map() }
  task.end = t
  const d = dt[i + 1] ?? 0
  task.self.set(label(id), (task.self.get(label(id)) ?? 0) + d)
  const seen = new Set()
  for (let x = id; x !== undefined; x = parent.get(x)) { const l = label(x); if (!seen.has(l)) { seen.add(l); task.incl.set(l, (task.incl.get(l) ?? 0) + d) } }
})
for (const tk of tasks.filter((x) => x.end - x.start > 30000)) {
  console.log(`TASK at ${((tk.start - profile.startTime) / 1000).toFixed(0)} ms, ${((tk.end - tk.start) / 1000).toFixed(0)} ms`)
  console.log('  self:', [...tk.self].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k}=${(v / 1000).toFixed(0)}`).join(' | '))
  console.log('  incl:', [...tk.incl].filter(([k]) => !k.startsWith('(root)')).sort((a, b) => b[1] - a[1]).slice(0, 14).map(([k, v]) => `${k}=${(v / 1000).toFixed(0)}`).join(' | '))
}
await browser.close()
