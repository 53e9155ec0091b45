import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import './index.css'
import { loadRuntimeConfig } from './config'
import { App } from './App'

// Fetch /runtime-config.json before the first render; on failure the app falls back to {"apiBase": "/api"}.
loadRuntimeConfig().then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
})
