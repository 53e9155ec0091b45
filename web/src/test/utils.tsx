import * as React from 'react'
import { render } from '@testing-library/react'
import { MemoryRouter, useLocation } from 'react-router'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { afterEach, beforeEach, vi } from 'vitest'
import { AuthProvider } from '@/auth/session'
import { AppRoutes } from '@/App'
import { Toaster } from '@/components/ui/sonner'
import { DEFAULT_CONFIG, setConfig } from '@/config'
import type { User } from '@/api/client'

export const API = 'http://localhost/api'

export function makeUser(over: Partial<User> = {}): User {
  return {
    id: '3f1c2b8e-0000-4000-8000-000000000001',
    name: 'Maya Rivers',
    email: 'maya@example.com',
    role: 'INFLUENCER',
    businessName: null,
    instagramHandle: 'maya.moves',
    instagramId: null,
    instagramConnected: false,
    influencerProfile: null,
    createdAt: '2026-01-01T00:00:00Z',
    totpEnabled: false,
    ...over,
  }
}

export type Handler = (req: Request, body: unknown) => Response | Promise<Response> | undefined

export function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

export interface Call {
  method: string
  path: string
  body: unknown
  auth: string | null
}

/** Replace global fetch; routes are "METHOD /path" (path after the API base). Unknown calls answer 404. */
export function mockApi(routes: Record<string, (body: unknown, req: Request) => Response>) {
  const calls: Call[] = []
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = input instanceof Request ? input : new Request(String(input), init)
    const url = new URL(req.url)
    const path = url.pathname.replace(/^\/api/, '')
    const text = req.method === 'GET' ? '' : await req.clone().text()
    const body = text ? JSON.parse(text) : undefined
    calls.push({ method: req.method, path, body, auth: req.headers.get('Authorization') })
    const handler = routes[`${req.method} ${path}`]
    return handler ? handler(body, req) : json(404, { detail: 'Not found.', code: 'not_found' })
  })
  vi.stubGlobal('fetch', fn)
  return { fn, calls, called: (method: string, path: string) => calls.some((c) => c.method === method && c.path === path) }
}

function LocationProbe() {
  const location = useLocation()
  return <output data-testid="location">{location.pathname}</output>
}

/** For a module that calls the API outside the app: the base and a session token (tok-1) before each test, the
 *  stubbed fetch gone after it (setup.ts clears the storage). */
export function sessionEachTest(apiBase = API) {
  beforeEach(() => {
    setConfig({ ...DEFAULT_CONFIG, apiBase })
    localStorage.setItem('token', 'tok-1')
  })
  afterEach(() => vi.unstubAllGlobals())
}

/** The API at the test base, and a query client that asks once: a refused call is seen at once. */
function testClient() {
  setConfig({ ...DEFAULT_CONFIG, apiBase: API })
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
}

/** One component (a dialog) with the query client it needs, outside the app's routes. */
export function renderWithClient(ui: React.ReactElement) {
  return render(<QueryClientProvider client={testClient()}>{ui}</QueryClientProvider>)
}

export function renderApp(path: string) {
  const client = testClient()
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <AuthProvider>
          <React.Suspense fallback={null}>
            <AppRoutes />
          </React.Suspense>
        </AuthProvider>
        <LocationProbe />
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  )
}
