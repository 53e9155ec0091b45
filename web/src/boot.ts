import './index.css'

/** The page's one script. A public page prerendered at build time (scripts/prerender.mjs) paints from its HTML and
 *  CSS alone, so the app (main.tsx) is asked for only once that first frame is on screen: neither its download nor
 *  its evaluation holds the first paint, nor shares the network with what the paint needs (no preload in the page:
 *  Lighthouse counts every request that ends before the largest paint as one it waited for, and a phone's network
 *  is slow). The empty shell (every other path) and a hidden tab have nothing to paint first: the app starts at
 *  once, its chunks preloaded by app.html. */
const start = () => void import('./main')

if (!document.getElementById('root')?.hasChildNodes() || document.visibilityState !== 'visible') start()
else requestAnimationFrame(() => setTimeout(start))
