/** The creator's screenshots (issue 22), for the brand's, the creator's and the operator's screens alike. The
 *  server names each image by a URL (`/api/instagram/placements/{bid}/evidence/{id}` for the two sides of a
 *  placement, `/api/ops/disputes/{dispute}/evidence/{id}` for operators). The image needs the Bearer token, so an
 *  <img src> cannot load it: it is fetched as a blob, cached, and shown through an object URL (useEvidenceImage). */
import { queryOptions } from '@tanstack/react-query'
import { getConfig } from '@/config'
import { getToken, handleRefused } from '@/auth/token'
import { authHeaders } from './client'
import { ApiError, type ApiErrorBody } from './errors'
import { KEYS } from './keys'

/** Evidence URLs come with the contract's /api prefix; the runtime apiBase may differ. */
export function evidenceRequestUrl(url: string): string {
  if (/^https?:\/\//.test(url)) return url
  const base = getConfig().apiBase.replace(/\/$/, '')
  return `${base}${url.replace(/^\/api(?=\/)/, '')}`
}

/** One screenshot as a blob, with the session's token; a refusal throws ApiError as the typed client does. */
export async function fetchEvidence(url: string): Promise<Blob> {
  const token = getToken()
  const response = await globalThis.fetch(evidenceRequestUrl(url), { headers: { Accept: 'image/*', ...authHeaders() } })
  if (response.status === 403) void handleRefused(token)
  if (!response.ok) {
    const problem = (await response.json().catch(() => undefined)) as ApiErrorBody | undefined
    throw new ApiError(response.status, problem)
  }
  return response.blob()
}

/** An evidence image never changes once stored, so it is not asked for again while cached. */
export const evidenceQuery = (url: string) =>
  queryOptions({ queryKey: KEYS.evidence(url), queryFn: () => fetchEvidence(url), staleTime: Infinity, gcTime: 5 * 60_000 })
