/** Issue 22's placement trust API (social): the brand's acceptance and reports, the creator's screenshots. Both
 *  sides read it, so it lives here rather than in a feature. Typed by hand after the contract until the generated
 *  schema carries these routes. */
import { queryOptions } from '@tanstack/react-query'
import type { Client } from 'openapi-fetch'
import { getConfig } from '@/config'
import { getToken } from '@/auth/token'
import { createApiClient, type Schemas } from './client'
import { ApiError, unwrap, type ApiErrorBody } from './errors'
import { KEYS } from './keys'
import { postMultipart, type UploadOptions } from './upload'

export type PinMethod = 'SESSION' | 'MANUAL'
export type AcceptanceStatus = 'NOT_NEEDED' | 'AWAITING' | 'ACCEPTED'
export type EvidenceKind = 'PIN' | 'RECHECK' | 'ANSWER'
export type DisputeOutcome = 'CONTINUE' | 'REFUND_UNEARNED' | 'REFUND_ALL'

export interface Acceptance {
  status: AcceptanceStatus
  acceptBy: string | null
  acceptedAt: string | null
  acceptedBy: 'BRAND' | 'SILENCE' | null
}

export interface Evidence {
  id: string
  kind: EvidenceKind
  uploadedAt: string
  url: string
}

export interface Recheck {
  requestedAt: string
  answerBy: string
  answeredAt: string | null
}

export interface Dispute {
  id: string
  status: 'OPEN' | 'DECIDED'
  reason: string
  reporter: 'BRAND' | 'SYSTEM'
  reportedAt: string
  creatorNote: string | null
  answerBy: string
  answeredAt: string | null
  outcome: DisputeOutcome | null
  decisionReason: string | null
  decidedAt: string | null
}

export interface PlacementTrust {
  method: PinMethod
  acceptance: Acceptance
  evidence: Evidence[]
  recheck: Recheck | null
  dispute: Dispute | null
  ended: boolean
  endReason: string | null
}

export type PinCommentOut = Schemas['PinCommentOut']

type Json<T> = { headers: Record<string, unknown>; content: { 'application/json': T } }
type Refused = Json<ApiErrorBody>
type ForBid = { parameters: { query?: never; header?: never; path: { bid_id: string }; cookie?: never } }
type Answers = { 200: Json<PlacementTrust>; 404: Refused; 409: Refused; 422: Refused }

export interface TrustPaths {
  '/instagram/placements/{bid_id}/trust': { get: ForBid & { requestBody?: never; responses: Answers } }
  '/buyer/placements/{bid_id}/accept': { post: ForBid & { requestBody?: never; responses: Answers } }
  '/buyer/placements/{bid_id}/report': { post: ForBid & { requestBody: { content: { 'application/json': { reason: string } } }; responses: Answers } }
}

let instance: { base: string; client: Client<TrustPaths> } | null = null

function trustApi(): Client<TrustPaths> {
  const base = getConfig().apiBase
  if (!instance || instance.base !== base) instance = { base, client: createApiClient<TrustPaths>() }
  return instance.client
}

const forBid = (bidId: string) => ({ params: { path: { bid_id: bidId } } })

export const fetchTrust = async (bidId: string) => unwrap(await trustApi().GET('/instagram/placements/{bid_id}/trust', forBid(bidId)))

/** 404 is an answer here (a placement that has not started, or is not this person's): it is not asked again. */
export const trustQuery = (bidId: string) =>
  queryOptions({
    queryKey: KEYS.placementTrust(bidId),
    queryFn: () => fetchTrust(bidId),
    retry: (count, err) => !(err instanceof ApiError && err.status === 404) && count < 2,
  })

export const acceptPlacement = async (bidId: string) => unwrap(await trustApi().POST('/buyer/placements/{bid_id}/accept', forBid(bidId)))

export const reportPlacement = async (bidId: string, reason: string) =>
  unwrap(await trustApi().POST('/buyer/placements/{bid_id}/report', { ...forBid(bidId), body: { reason } }))

/** "I pinned it" on the app path: the screenshot goes with it. */
export function confirmPinWithScreenshot(bidId: string, screenshot: File, options?: UploadOptions) {
  const form = new FormData()
  form.append('screenshot', screenshot)
  return postMultipart<PinCommentOut>(`/influencer/pin-comment/${encodeURIComponent(bidId)}/confirm`, form, options)
}

/** The creator's fresh screenshot (a recheck) or answer to an open dispute, with an optional note. */
export function sendPlacementScreenshot(bidId: string, screenshot: File, note: string, options?: UploadOptions) {
  const form = new FormData()
  form.append('screenshot', screenshot)
  if (note) form.append('note', note)
  return postMultipart<PlacementTrust>(`/influencer/placements/${encodeURIComponent(bidId)}/screenshot`, form, options)
}

/** Evidence URLs come from the server with the contract's /api prefix; the runtime apiBase may differ. */
export function evidenceRequestUrl(url: string): string {
  if (/^https?:\/\//.test(url)) return url
  const base = getConfig().apiBase.replace(/\/$/, '')
  return `${base}${url.replace(/^\/api(?=\/)/, '')}`
}

/** The image needs the Bearer token, so an <img src> cannot load it: it is fetched as a blob. */
export async function fetchEvidence(url: string): Promise<Blob> {
  const token = getToken()
  const res = await fetch(evidenceRequestUrl(url), { headers: token ? { Authorization: `Bearer ${token}` } : {} })
  if (!res.ok) throw new ApiError(res.status, undefined)
  return res.blob()
}

export const evidenceQuery = (url: string) =>
  queryOptions({ queryKey: KEYS.evidence(url), queryFn: () => fetchEvidence(url), staleTime: Infinity, gcTime: 5 * 60_000 })
