export interface ApiErrorBody {
  detail?: string
  code?: string
  errors?: { field: string; message: string }[]
  /** Some refusals say more (a too-low bid carries `currentBid`). */
  [extra: string]: unknown
}

export class ApiError extends Error {
  readonly status: number
  readonly code?: string
  readonly detail?: string
  readonly fieldErrors: { field: string; message: string }[]
  readonly body: ApiErrorBody | undefined

  constructor(status: number, body: ApiErrorBody | undefined) {
    super(body?.detail || `Request failed with status ${status}`)
    this.name = 'ApiError'
    this.status = status
    this.code = body?.code
    this.detail = typeof body?.detail === 'string' ? body.detail : undefined
    this.fieldErrors = Array.isArray(body?.errors) ? body.errors : []
    this.body = body
  }
}

/** A 404: the object is not there, or it is not this person's. */
export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404

/** A 422: the server refused what was asked (a search it cannot serve); asking again the same way changes nothing. */
export const isRefused = (error: unknown) => error instanceof ApiError && error.status === 422

/** React Query's retry for a read whose 404 is an answer: that is not asked again, other failures twice more. */
export const retryUnlessNotFound = (count: number, error: unknown) => !isNotFound(error) && count < 2

/** The server's readable message when there is one, else the fallback. */
export function serverMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.detail) return error.detail
  return fallback
}

/** Turn an openapi-fetch result into data or a thrown ApiError. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) {
    throw new ApiError(result.response.status, (result.error ?? undefined) as ApiErrorBody | undefined)
  }
  return result.data as T
}
