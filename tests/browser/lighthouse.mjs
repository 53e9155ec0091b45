// Benchmark (not a test): Lighthouse on the public pages, mobile and desktop, printed as a Markdown table.
// Needs lighthouse@12.2.3 (not a dependency of the tests; install it in a scratch folder:
//   mkdir -p /tmp/lh && cd /tmp/lh && npm i -E lighthouse@12.2.3
// then: NODE_PATH=/tmp/lh/node_modules node tests/browser/lighthouse.mjs http://127.0.0.1:8123
// or:   LIGHTHOUSE=/tmp/lh/node_modules/.bin/lighthouse node tests/browser/lighthouse.mjs <base>).
// Each page and form factor runs RUNS times (default 3); the median of each score is printed.
import { execFile } from 'node:child_process'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
const base = (process.argv[2] ?? process.env.PINBID_BASE_URL ?? 'http://127.0.0.1:8000').replace(/\/+$/, '')
const lighthouse = process.env.LIGHTHOUSE ?? '/tmp/lh/node_modules/.bin/lighthouse'
const chrome = process.env.PINBID_CHROMIUM ?? '/usr/bin/chromium'
const runs = Number(process.env.RUNS ?? 3)

const articles = await (await fetch(`${base}/api/blog/articles`)).json()
const pages = [
  ['/', 'landing'],
  ['/blog', 'blog'],
  [`/blog/${articles.articles[0].slug}`, 'blog post'],
  ['/login', 'login'],
]
const categories = ['performance', 'accessibility', 'best-practices', 'seo']
const out = await mkdtemp(path.join(tmpdir(), 'pinbid-lh-'))
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

console.log('| page | form factor | performance | accessibility | best practices | SEO | CLS |')
console.log('|---|---|---|---|---|---|---|')
const only = process.env.ONLY // e.g. ONLY='blog post' measures that page alone
for (const [route, name] of pages.filter(([, n]) => !only || n === only)) {
  for (const formFactor of ['mobile', 'desktop']) {
    const samples = []
    for (let i = 0; i < runs; i++) {
      const file = path.join(out, `${name.replace(' ', '-')}-${formFactor}-${i}.json`)
      const args = [base + route, '--quiet', '--output=json', `--output-path=${file}`,
        `--only-categories=${categories.join(',')}`, '--chrome-flags=--headless=new --no-sandbox']
      if (formFactor === 'desktop') args.push('--preset=desktop')
      await run(lighthouse, args, { env: { ...process.env, CHROME_PATH: chrome }, maxBuffer: 1 << 26 })
      const report = JSON.parse(await readFile(file, 'utf8'))
      samples.push({
        ...Object.fromEntries(categories.map((c) => [c, Math.round(report.categories[c].score * 100)])),
        cls: report.audits['cumulative-layout-shift'].numericValue,
      })
    }
    const cell = (key) => median(samples.map((s) => s[key]))
    console.log(`| ${name} | ${formFactor} | ${categories.map(cell).join(' | ')} | ${cell('cls').toFixed(3)} |`)
  }
}
console.error(`reports: ${out}`)
