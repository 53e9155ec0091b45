/// <reference types="vitest/config" />
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { compression } from 'vite-plugin-compression2'
import os from 'node:os'
import path from 'node:path'

const backend = process.env.PINBID_BACKEND ?? 'http://127.0.0.1:8000'

// isSsrBuild: the build of src/entry-server.tsx that scripts/prerender.mjs runs in node (npm run build)
export default defineConfig(({ isSsrBuild }) => ({
  // a .gz copy beside every text asset, made once here: the gateway sends it as it is (never gzips per request)
  plugins: [react(), tailwindcss(), ...(isSsrBuild ? [] : [compression({ algorithms: ['gzip'], threshold: 1024 })])],
  resolve: {
    alias: { '@': path.resolve(import.meta.dirname, 'src') },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/runtime-config.json': { target: backend, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    manifest: true,
    // no <link rel=modulepreload> added for a lazy chunk's imports when it is asked for: each costs the main thread
    // 1–3 ms on this machine (×4 on Lighthouse's phone), 47 ms for the landing page's chunk, in the task that
    // hydrates it; a chunk lists its imports itself (hoisted), so the browser finds them one round trip later
    modulePreload: false,
  },
  test: {
    environment: 'happy-dom',
    globals: false,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    testTimeout: 30_000,
    // vitest's default keeps one core for itself (availableParallelism - 1): a single worker on a 2-core machine,
    // where the workers wait on the DOM and timers more than the main process computes
    maxWorkers: Math.max(2, os.availableParallelism()),
    // a worker keeps its DOM and loaded modules from one file to the next (half the CPU: 75 s instead of 154 s).
    // Safe because src/test/setup.ts resets what a test can leave behind (the DOM, storage, cookies, mocks) and no
    // test mocks a module; the suite passes with its files and tests shuffled (--sequence.shuffle).
    isolate: false,
  },
}))
