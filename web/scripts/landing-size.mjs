// Gzipped JavaScript the landing page (/) loads: the boot script, the app it imports (src/main.tsx), the landing
// route chunk and their static imports.
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import path from 'node:path'

const dist = path.resolve(import.meta.dirname, '..', 'dist')
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'))
const seen = new Set()
function walk(key) {
  if (seen.has(key)) return
  seen.add(key)
  for (const dep of manifest[key].imports ?? []) walk(dep)
}
walk('index.html')
walk('src/main.tsx')
walk('src/pages/landing/LandingPage.tsx')
let total = 0
for (const key of seen) {
  const file = manifest[key].file
  if (!file.endsWith('.js')) continue
  const size = gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length
  total += size
  console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`)
}
console.log(`${(total / 1024).toFixed(1).padStart(7)} KB  total gzipped JS for /`)
