import { startTransition, StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { loadRuntimeConfig } from './config'
import { getToken } from './auth/token'
import { canHydrate } from './hydration'
import { App } from './App'

const root = document.getElementById('root')!
const app = (
  <StrictMode>
    <App />
  </StrictMode>
)

// Fetch /runtime-config.json before the first render; on failure the app falls back to {"apiBase": "/api"}.
// A public page prerendered at build time is already on screen: it is hydrated; any other page is rendered. Both
// as a transition, so that React yields to the browser between pieces of work instead of holding the main thread
// for the whole first render (on a phone, hundreds of milliseconds in which a tap waits).
loadRuntimeConfig().then((config) => {
  if (canHydrate(root, config, getToken())) startTransition(() => void hydrateRoot(root, app))
  else startTransition(() => createRoot(root).render(app))
})
