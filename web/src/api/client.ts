import createClient, { type Client, type Middleware } from 'openapi-fetch'
import type { paths as GeneratedPaths, components } from './schema'
import { getConfig } from '@/config'
import { getToken, handleRefused, refusalOf } from '@/auth/token'
import { deviceId } from '@/auth/device'

/** The contract lists paths with their /api prefix; the client is rooted at the runtime `apiBase`, so strip it. */
type StripApiPrefix<P> = { [K in keyof P as K extends `/api${infer R}` ? R : K]: P[K] }
export type paths = StripApiPrefix<GeneratedPaths>

export type Schemas = components['schemas']
export type User = Schemas['UserOut']
export type Role = User['role']
export type AuthResponse = Schemas['SessionOut']
export type NotificationPreferences = Schemas['PreferencesIO']

/** Requests marked with this header skip the 403 redirect (the silent start-up profile check). */
export const SILENT_HEADER = 'X-Pinbid-Silent'
const silentRequests = new WeakSet<Request>()

/** The session's bearer token and the browser's device id, for calls made outside the typed client (uploads, images). */
export function authHeaders(): Record<string, string> {
  const headers: Record<string, string> = {}
  const token = getToken()
  if (token) headers.Authorization = `Bearer ${token}`
  const device = deviceId()
  if (device) headers['X-Pinbid-Device'] = device
  return headers
}

/** Adds the bearer token and the browser's device id, and applies the 403 rule to every call. */
export const authMiddleware: Middleware = {
  onRequest({ request }) {
    for (const [name, value] of Object.entries(authHeaders())) request.headers.set(name, value)
    if (request.headers.has(SILENT_HEADER)) {
      request.headers.delete(SILENT_HEADER)
      silentRequests.add(request)
    }
    return request
  },
  onResponse({ request, response }) {
    if (response.status === 403 && !silentRequests.has(request)) {
      const refused = request.headers.get('Authorization')?.replace(/^Bearer /, '') ?? null
      // the body says why (its code and detail), for the login page to tell
      void response
        .clone()
        .json()
        .catch(() => null)
        .then((body) => handleRefused(refused, refusalOf(body)))
    }
    return response
  },
}

const RETRY_BUDGET_MS = 30_000
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** A 409 with Retry-After is the server saying "not yet, ask again" (a post still arriving from Instagram, a
 *  payment being prepared): asked again quietly, at the pace asked, for about 30 s before the answer is shown. */
export async function retryWhenAsked(
  request: Request,
  { send = (r: Request) => globalThis.fetch(r), wait = sleep, budgetMs = RETRY_BUDGET_MS } = {},
): Promise<Response> {
  let waited = 0
  for (;;) {
    const response = await send(request.clone())
    const seconds = Number(response.headers.get('Retry-After'))
    if (response.status !== 409 || !(seconds > 0) || waited + seconds * 1000 > budgetMs) return response
    await wait(seconds * 1000)
    waited += seconds * 1000
  }
}

/** Build an openapi-fetch client for the runtime API base; `P` is the typed path map. */
export function createApiClient<P extends object>(): Client<P> {
  const client = createClient<P>({
    baseUrl: getConfig().apiBase,
    // fetch is resolved at call time (in retryWhenAsked) so tests and polyfills can replace it
    fetch: (input: Request) => retryWhenAsked(input),
    headers: { Accept: 'application/json' },
  })
  client.use(authMiddleware)
  return client
}

let instance: { base: string; client: Client<paths> } | null = null

/** The typed client (generated from contracts/openapi.json). Created on first use, after the runtime config is loaded. */
export function api(): Client<paths> {
  const base = getConfig().apiBase
  if (!instance || instance.base !== base) instance = { base, client: createApiClient<paths>() }
  return instance.client
}
