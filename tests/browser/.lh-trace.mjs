// Long main-thread tasks of one cold load, with the functions they spent their time in (sampled).
import { chromium } from 'playwright-core'
const [base, route = '/', rate = '1', minMs = '20'] = process.argv.slice(2)
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })
const page = await browser.newPage({ viewport: { width: 412, height: 823 } })
const cdp = await page.context().newCDPSession(page)
await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(rate) })
await browser.startTracing(undefined, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-v8.cpu_profiler', 'v8.execute', 'blink.user_timing', 'loading'] })
await page.goto(base + route, { waitUntil: 'networkidle' })
await page.waitForTimeout(1500)
const ev = JSON.parse((await browser.stopTracing()).toString()).traceEvents
await browser.close()
const tns = ev.filter((e) => e.name === "thread_name" && e.args.name === "CrRendererMain"); console.error("renderer threads", tns.length, ev.length)
const tn = tns.find((e) => ev.some((x) => x.pid === e.pid && x.tid === e.tid && x.name === "ParseHTML" && (x.args?.beginData?.url ?? "").startsWith(base))) ?? tns[0]
const mine = ev.filter((e) => e.pid === tn.pid && e.tid === tn.tid)
const nav = mine.find((e) => e.name === 'ParseHTML') ?? mine[0]
// samples
const nodes = new Map(); const samples = []
let profStart = null
for (const e of ev.filter((x) => x.pid === tn.pid && (x.name === 'Profile' || x.name === 'ProfileChunk'))) {
  if (e.name === 'Profile') { profStart = e.args.data.startTime; continue }
  const d = e.args.data
  for (const n of d.cpuProfile?.nodes ?? []) nodes.set(`${e.id}:${n.id}`, { ...n, key: e.id })
  let t = profStart
  const deltas = d.timeDeltas ?? []
  ;(d.cpuProfile?.samples ?? []).forEach((s, i) => { t += deltas[i]; samples.push({ ts: t, node: `${e.id}:${s}` }) })
  profStart = t
}
const parent = new Map()
for (const [id, n] of nodes) if (n.parent) parent.set(id, `${n.key}:${n.parent}`)
const label = (id) => { const f = nodes.get(id)?.callFrame; return f ? `${f.functionName || '(anon)'}@${(f.url ?? '').split('/').pop()}:${f.lineNumber}` : '?' }
for (const task of mine.filter((e) => e.name === 'RunTask' && e.dur > Number(minMs) * 1000)) {
  const inside = samples.filter((s) => s.ts >= task.ts && s.ts < task.ts + task.dur)
  const self = new Map(); const incl = new Map()
  for (const s of inside) {
    self.set(label(s.node), (self.get(label(s.node)) ?? 0) + 1)
    const seen = new Set()
    for (let x = s.node; x; x = parent.get(x)) { const l = label(x); if (!seen.has(l)) { seen.add(l); incl.set(l, (incl.get(l) ?? 0) + 1) } }
  }
  const kids = mine.filter((e) => e.ts >= task.ts && e.ts < task.ts + task.dur && e.dur > 2000 && e !== task && ['Layout', 'UpdateLayoutTree', 'Paint', 'ParseHTML', 'EvaluateScript', 'v8.evaluateModule', 'FunctionCall', 'TimerFire', 'RunMicrotasks', 'ParseAuthorStyleSheet', 'v8.compile', 'v8.compileModule'].includes(e.name))
  const n = inside.length || 1
  console.log(`TASK +${((task.ts - nav.ts) / 1000).toFixed(0)} ms: ${(task.dur / 1000).toFixed(1)} ms  [${kids.map((k) => `${k.name}${k.args?.data?.url ? ' ' + k.args.data.url.split('/').pop() : ''}=${(k.dur / 1000).toFixed(0)}`).join(', ')}]`)
  if (inside.length) {
    console.log('   self:', [...self].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => `${k} ${Math.round((100 * v) / n)}%`).join(' | '))
    console.log('   incl:', [...incl].filter(([k]) => !/^\((root|program)\)/.test(k)).sort((a, b) => b[1] - a[1]).slice(0, 16).map(([k, v]) => `${k} ${Math.round((100 * v) / n)}%`).join(' | '))
  }
}
