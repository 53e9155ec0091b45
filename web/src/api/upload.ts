/** Multipart uploads with progress. fetch cannot report how much of a request body has been sent, so uploads
 *  go through XMLHttpRequest, with the same Bearer token and 403 rule as the typed client. */
import { getConfig } from '@/config'
import { getToken, handleRefused } from '@/auth/token'
import { ApiError, type ApiErrorBody } from './errors'

export interface UploadOptions {
  /** the share of the body sent so far, 0..1 */
  onProgress?: (share: number) => void
  signal?: AbortSignal
}

/** A proxy's 413 may carry no JSON: it still says, on the file field, what is wrong. */
const TOO_LARGE: ApiErrorBody = {
  detail: 'The file is too large to send: at most 5 MB.',
  code: 'payload_too_large',
  errors: [{ field: 'screenshot', message: 'The file is too large to send: at most 5 MB.' }],
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

/** POSTs `form` to `path` (under the runtime apiBase); answers the JSON body, or throws ApiError as `unwrap` does. */
export function postMultipart<T>(path: string, form: FormData, { onProgress, signal }: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(new UploadAborted())
    const xhr = new XMLHttpRequest()
    const token = getToken()
    xhr.open('POST', `${getConfig().apiBase}${path}`)
    xhr.setRequestHeader('Accept', 'application/json')
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`)
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
      reject(new ApiError(xhr.status, body ?? (xhr.status === 413 ? TOO_LARGE : undefined)))
    }
    xhr.onerror = () => reject(new Error('The upload failed: check your connection and try again.'))
    xhr.onabort = () => reject(new UploadAborted())
    signal?.addEventListener('abort', () => xhr.abort(), { once: true })
    xhr.send(form)
  })
}
