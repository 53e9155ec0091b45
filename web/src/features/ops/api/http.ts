import { ApiError, type ApiErrorBody } from '@/api/errors'
import { getToken, handleRefused } from '@/auth/token'
import { getConfig } from '@/config'

/**
 * Calls to the /ops routes of social, payments and marketplace. Their paths join the generated client's types
 * (web/src/api/schema.d.ts) when those services' routes are merged; until then they go through here, with the
 * same token, 403 rule and error format as the typed client.
 */
export async function opsCall<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const token = getToken()
  const headers: Record<string, string> = { Accept: 'application/json' }
  if (token) headers.Authorization = `Bearer ${token}`
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const response = await globalThis.fetch(`${getConfig().apiBase}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  if (response.status === 403) void handleRefused(token)
  if (!response.ok) {
    const problem = (await response.json().catch(() => undefined)) as ApiErrorBody | undefined
    throw new ApiError(response.status, problem)
  }
  return (await response.json()) as T
}

/** An evidence image (it needs the operator's token, so an <img src> cannot load it): an object URL. */
export async function evidenceImage(url: string): Promise<string> {
  const token = getToken()
  const path = url.replace(/^\/api/, '')
  const response = await globalThis.fetch(`${getConfig().apiBase}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} })
  if (response.status === 403) void handleRefused(token)
  if (!response.ok) throw new ApiError(response.status, undefined)
  return URL.createObjectURL(await response.blob())
}
