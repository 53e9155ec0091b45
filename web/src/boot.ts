import './index.css'

/** The page's one script. A public page prerendered at build time (scripts/prerender.mjs) paints from its HTML and
 *  CSS alone, so the app (main.tsx) is asked for only once that first frame is on screen: its evaluation never
 *  holds the first paint (the page lists the app's and its own chunks as low-priority preloads, so they are
 *  usually here by then). The empty shell (every other path) and a hidden tab have nothing to paint first: the
 *  app starts at once. */
const start = () => void import('./main')

if (!document.getElementById('root')?.hasChildNodes() || document.visibilityState !== 'visible') start()
else requestAnimationFrame(() => setTimeout(start))
