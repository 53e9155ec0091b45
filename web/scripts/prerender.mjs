// Build step after `vite build` and `vite build --ssr src/entry-server.tsx --outDir dist-ssr` (npm run build): the
// public pages rendered to HTML, so that they paint before any script runs; main.tsx hydrates them.
//   dist/index.html            the landing page (/)              dist/app.html  the empty shell: every other path
//   dist/<route>/index.html    /login, /blog, ...                (the gateway's SPA fallback, and the dev server's)
//   dist/blog/_post/           a blog post's frame (index.html) with slots, and what goes in them (parts.json): the
//                              gateway fills it with each post's article (gateway/pinbid_gateway/post_page.py)
// Each gets its title and no script but the boot script (src/boot.ts asks for the app once the page is painted);
// app.html preloads the app's chunks at once, as it has nothing to paint. Each gets a .gz copy beside it, like every
// other text file of the build (the gateway sends it as it is).
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

function closure(manifest, key, into = new Set()) {
  if (into.has(key)) return into
  into.add(key)
  for (const dep of manifest[key].imports ?? []) closure(manifest, dep, into)
  return into
}

/** The files of `key` and its static imports beyond what `loaded` already holds: [scripts, stylesheets]. */
function files(manifest, key, loaded) {
  const scripts = []
  const styles = []
  for (const k of closure(manifest, key)) {
    if (loaded.has(k)) continue
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
// the boot script (index.html's one script, src/boot.ts) imports the app (src/main.tsx) after the first paint
const APP = 'src/main.tsx'
if (!manifest[APP]) throw new Error(`${APP} is not in the build's manifest`)
const booted = closure(manifest, 'index.html')
const [appScripts] = files(manifest, APP, booted)
const loaded = new Set([...booted, ...closure(manifest, APP)])
// the shell paints nothing: the app's chunks are fetched with the boot script, one round trip sooner
const appPreloads = appScripts.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('\n    ')
write(path.join(dist, 'app.html'), template.replace('</head>', `  ${appPreloads}\n  </head>`))

const { render, pageTitle, renderPostFrame, slot, ARTICLE_DATA_ID } = await import(pathToFileURL(path.join(ssr, 'entry-server.js')).href)
for (const [route, module] of Object.entries(ROUTES)) {
  if (!manifest[module]) throw new Error(`${module} (${route}) is not in the build's manifest`)
  const title = pageTitle(route)
  if (title.startsWith('Page not found')) throw new Error(`${route} has no title in src/titles.ts`)
  const body = await render(route)
  // a stylesheet of the page's own chunks (none today: Tailwind's one stylesheet is the boot script's)
  const [, styles] = files(manifest, module, loaded)
  const links = styles.map((file) => `  <link rel="stylesheet" crossorigin href="/${file}">\n  `).join('')
  const html = template
    .replace(/<title>[^<]*<\/title>/, `<title>${escape(title)}</title>`)
    .replace('</head>', `${links}</head>`)
    .replace(ROOT, `<div id="root">${body}</div>`)
  const file = route === '/' ? path.join(dist, 'index.html') : path.join(dist, route.slice(1), 'index.html')
  write(file, html)
  console.log(`prerendered ${route.padEnd(20)} ${(Buffer.byteLength(html) / 1024).toFixed(1).padStart(6)} kB  ${path.relative(web, file)}`)
}
// the title, the description and the article's JSON (a data block: never run) are the gateway's to write too
const { html: post, parts } = await renderPostFrame()
const description = /<meta name="description" content="[^"]*"/
if (!description.test(template)) throw new Error('dist/index.html: no description')
const frame = template
  .replace(/<title>[^<]*<\/title>/, `<title>${slot('pageTitle')}</title>`)
  .replace(description, `<meta name="description" content="${slot('description')}"`)
  .replace(ROOT, `<div id="root">${post}</div>\n    <script type="application/json" id="${ARTICLE_DATA_ID}">${slot('data')}</script>`)
const frames = path.join(dist, 'blog', '_post')
mkdirSync(frames, { recursive: true })
writeFileSync(path.join(frames, 'index.html'), frame)
writeFileSync(path.join(frames, 'parts.json'), JSON.stringify(parts))
console.log(`post frame           ${(Buffer.byteLength(frame) / 1024).toFixed(1).padStart(6)} kB  ${path.relative(web, frames)}/`)
rmSync(ssr, { recursive: true, force: true })
