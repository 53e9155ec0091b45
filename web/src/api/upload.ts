/** Multipart uploads with progress. fetch cannot report how much of a request body has been sent, so uploads
 *  go through XMLHttpRequest, with the same Bearer token, device id and 403 rule as the typed client; their paths,
 *  form fields and answers are typed by the generated contract (schema.d.ts) like the typed client's. */
import { getConfig, rules } from '@/config'
import { megabytesText } from '@/lib/spans'
import { getToken, handleRefused } from '@/auth/token'
import { authHeaders, type paths } from './client'
import { ApiError, type ApiErrorBody } from './errors'

type MultipartBody = { content: { 'multipart/form-data': Record<string, unknown> } }
/** The contract's POST routes that take a multipart body. */
export type MultipartPath = {
  [P in keyof paths]: paths[P] extends { post: { requestBody?: MultipartBody } } ? P : never
}[keyof paths]
type Operation<P extends MultipartPath> = paths[P]['post']
/** The form fields the contract declares for the route (a file is a Blob, the rest strings). */
export type MultipartFields<P extends MultipartPath> = {
  [F in keyof NonNullable<Operation<P>['requestBody']>['content']['multipart/form-data']]?: Blob | string
}
type PathParams<P extends MultipartPath> = Operation<P>['parameters']['path']
/** The route's 200 answer. */
export type MultipartAnswer<P extends MultipartPath> = Operation<P> extends { responses: { 200: { content: { 'application/json': infer A } } } } ? A : never

export interface UploadOptions {
  /** the share of the body sent so far, 0..1 */
  onProgress?: (share: number) => void
  signal?: AbortSignal
}

/** A proxy's 413 may carry no JSON: it still says, on the file field, what is wrong. */
function tooLarge(): ApiErrorBody {
  const detail = `The file is too large to send: at most ${megabytesText(rules().screenshot.maxBytes)}.`
  return { detail, code: 'payload_too_large', errors: [{ field: 'screenshot', message: detail }] }
}

function readBody(text: string): ApiErrorBody | undefined {
  try {
    const body: unknown = JSON.parse(text)
    return typeof body === 'object' && body !== null ? (body as ApiErrorBody) : undefined
  } catch {
    return undefined
  }
}

export class UploadAborted extends Error {
  constructor() {
    super('The upload was cancelled.')
    this.name = 'UploadAborted'
  }
}

/** The path with its {parameters} filled in, each encoded. */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`Missing path parameter ${name} for ${template}`)
    return encodeURIComponent(params[name])
  })
}

/** POSTs `fields` as multipart to the contract's `path` (under the runtime apiBase); answers the route's JSON
 *  answer, or throws ApiError as `unwrap` does. Empty strings are left out. */
export function postMultipart<P extends MultipartPath>(
  path: P,
  params: PathParams<P>,
  fields: MultipartFields<P>,
  options?: UploadOptions,
): Promise<MultipartAnswer<P>> {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields as Record<string, Blob | string | undefined>)) {
    if (value !== undefined && value !== '') form.append(name, value)
  }
  return sendForm<MultipartAnswer<P>>(fillPath(path, params as Record<string, string>), form, options)
}

function sendForm<T>(path: string, form: FormData, { onProgress, signal }: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(new UploadAborted())
    const xhr = new XMLHttpRequest()
    const token = getToken()
    xhr.open('POST', `${getConfig().apiBase}${path}`)
    xhr.setRequestHeader('Accept', 'application/json')
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value)
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total)
    }
    xhr.onload = () => {
      const body = readBody(xhr.responseText)
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1)
        return resolve(body as T)
      }
      if (xhr.status === 403) void handleRefused(token)
      reject(new ApiError(xhr.status, body ?? (xhr.status === 413 ? tooLarge() : undefined)))
    }
    xhr.onerror = () => reject(new Error('The upload failed: check your connection and try again.'))
    xhr.onabort = () => reject(new UploadAborted())
    signal?.addEventListener('abort', () => xhr.abort(), { once: true })
    xhr.send(form)
  })
}

/** "I pinned it" on the app path: the screenshot goes with it. */
export const confirmPinWithScreenshot = (bidId: string, screenshot: File, options?: UploadOptions) =>
  postMultipart('/influencer/pin-comment/{bid_id}/confirm', { bid_id: bidId }, { screenshot }, options)

/** The creator's fresh screenshot (a recheck) or answer to an open dispute, with an optional note. */
export const sendPlacementScreenshot = (bidId: string, screenshot: File, note: string, options?: UploadOptions) =>
  postMultipart('/influencer/placements/{bid_id}/screenshot', { bid_id: bidId }, { screenshot, note }, options)
