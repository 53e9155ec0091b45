/// <reference types="vitest/config" />
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { compression } from 'vite-plugin-compression2'
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
    rolldownOptions: isSsrBuild ? {} : {
      output: {
        codeSplitting: {
          // the icons in one chunk rather than one chunk per icon shared by two pages: the landing page asked for
          // some twenty chunks of a few hundred bytes, and each asked-for chunk costs the main thread about a
          // millisecond (four on a phone, Lighthouse's slower CPU) besides its request
          groups: [{ name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/ }],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: false,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    testTimeout: 15000,
  },
}))
