// Build step after `vite build` and `vite build --ssr src/entry-server.tsx --outDir dist-ssr` (npm run build): the
// public pages rendered to HTML, so that they paint before any script runs; main.tsx hydrates them.
//   dist/index.html            the landing page (/)              dist/app.html  the empty shell: every other path
//   dist/<route>/index.html    /login, /blog, ...                (the gateway's SPA fallback, and the dev server's)
// Each gets its title, its route's chunk as a modulepreload (so hydration does not wait for the entry to ask for
// it) and a .gz copy beside it, like every other text file of the build (the gateway sends it as it is).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'

const web = path.resolve(import.meta.dirname, '..')
const dist = path.join(web, 'dist')
const ssr = path.join(web, 'dist-ssr')

// route -> the module of its lazy page (App.tsx); the data a page loads from the API is not prerendered
const ROUTES = {
  '/': 'src/pages/landing/LandingPage.tsx',
  '/login': 'src/pages/auth/LoginPage.tsx',
  '/signup/influencer': 'src/pages/auth/SignupPage.tsx',
  '/signup/buyer': 'src/pages/auth/SignupPage.tsx',
  '/reset-password': 'src/pages/auth/ResetPasswordPage.tsx',
  '/blog': 'src/pages/blog/BlogIndexPage.tsx',
  '/privacy': 'src/pages/legal/PrivacyPage.tsx',
  '/terms': 'src/pages/legal/TermsPage.tsx',
}

const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

function write(file, html) {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, html)
  writeFileSync(`${file}.gz`, gzipSync(html, { level: 9 }))
}

/** The files a page's module needs beyond what the entry already loads: [scripts, stylesheets]. */
function routeFiles(manifest, key) {
  const entry = new Set()
  const closure = (k, into) => {
    if (into.has(k)) return
    into.add(k)
    for (const dep of manifest[k].imports ?? []) closure(dep, into)
  }
  closure('index.html', entry)
  const page = new Set()
  closure(key, page)
  const scripts = []
  const styles = []
  for (const k of page) {
    if (entry.has(k)) continue
    scripts.push(manifest[k].file)
    styles.push(...(manifest[k].css ?? []))
  }
  return [scripts, styles]
}

const ROOT = '<div id="root"></div>'
const built = readFileSync(path.join(dist, 'index.html'), 'utf8')
// run again on a build it already prerendered (npm run prerender): index.html is the landing page by then
const template = built.includes(ROOT) ? built : readFileSync(path.join(dist, 'app.html'), 'utf8')
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'))
if (!template.includes(ROOT) || !/<title>[^<]*<\/title>/.test(template)) throw new Error('dist/index.html: no empty root or no title')
write(path.join(dist, 'app.html'), template)

const { render, pageTitle } = await import(pathToFileURL(path.join(ssr, 'entry-server.js')).href)
for (const [route, module] of Object.entries(ROUTES)) {
  if (!manifest[module]) throw new Error(`${module} (${route}) is not in the build's manifest`)
  const title = pageTitle(route)
  if (title.startsWith('Page not found')) throw new Error(`${route} has no title in src/titles.ts`)
  const body = await render(route)
  const [scripts, styles] = routeFiles(manifest, module)
  const head = [
    ...styles.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
    ...scripts.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
  ].join('\n    ')
  const html = template
    .replace(/<title>[^<]*<\/title>/, `<title>${escape(title)}</title>`)
    .replace('</head>', `  ${head}\n  </head>`)
    .replace(ROOT, `<div id="root">${body}</div>`)
  const file = route === '/' ? path.join(dist, 'index.html') : path.join(dist, route.slice(1), 'index.html')
  write(file, html)
  console.log(`prerendered ${route.padEnd(20)} ${(Buffer.byteLength(html) / 1024).toFixed(1).padStart(6)} kB  ${path.relative(web, file)}`)
}
rmSync(ssr, { recursive: true, force: true })
