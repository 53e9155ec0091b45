import { fetchEventSource } from '@microsoft/fetch-event-source'
import { refusalOf, type SignOutReason } from '@/auth/token'
import { parseLiveEvent, type LiveEvent } from './events'

/** What the stream's `end` reasons mean to the person (the gateway ends a stream when its token expires or is revoked). */
const ENDED: Record<string, SignOutReason> = {
  revoked: { code: 'token_revoked', detail: 'Your session was ended on the server. Please sign in again.' },
  expired: { code: 'token_expired', detail: 'Your session has expired. Please sign in again.' },
}

/** The server refused the token (403 before the stream, or `end` after): the session is over, do not retry. */
export class StreamForbidden extends Error {
  constructor(
    readonly token: string,
    readonly reason: SignOutReason | null = null,
  ) {
    super('The live stream refused the session.')
    this.name = 'StreamForbidden'
  }
}

const FIRST_RETRY_MS = 1_000
const LONGEST_RETRY_MS = 30_000
/** A server without the stream (404) or a stream that keeps failing is asked again rarely, not hammered. */
const UNAVAILABLE_RETRY_MS = 60_000

/** Waits 1 s, 2 s, 4 s … up to 30 s between attempts, each ±20 % so a restarted gateway is not hit by every tab at once. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt)
  return Math.round(base * (0.8 + 0.4 * random()))
}

export function streamUrl(apiBase: string, slotIds: readonly string[]): string {
  const base = `${apiBase.replace(/\/$/, '')}/events/stream`
  return slotIds.length ? `${base}?slots=${slotIds.map(encodeURIComponent).join(',')}` : base
}

class Unavailable extends Error {}

export interface StreamOptions {
  url: string
  token: string
  signal: AbortSignal
  onEvent: (event: LiveEvent) => void
  /** The token was refused; the caller decides whether the session is over or a newer token should be tried. */
  onForbidden: (token: string, reason: SignOutReason | null) => void
  fetch?: typeof fetch
}

/** Keeps one SSE connection open until `signal` aborts: reconnects with backoff after errors and after the server closes. */
export function openStream({ url, token, signal, onEvent, onForbidden, fetch: fetchImpl }: StreamOptions): Promise<void> {
  let attempt = 0
  const stop = new AbortController()
  signal.addEventListener('abort', () => stop.abort(), { once: true })
  return fetchEventSource(url, {
    signal: stop.signal,
    headers: { Authorization: `Bearer ${token}` },
    // a brand away in another tab must still hear that it was outbid
    openWhenHidden: true,
    fetch: fetchImpl ?? ((input, init) => globalThis.fetch(input, init)),
    async onopen(response) {
      // a refusal's body is read for its reason (which ends the request); any other is let go, so the request ends
      // (and a page reaches network idle)
      if (response.status === 403) throw new StreamForbidden(token, refusalOf(await response.json().catch(() => null)))
      if (!response.ok || !response.headers.get('content-type')?.startsWith('text/event-stream')) void response.body?.cancel().catch(() => {})
      if (!response.ok && response.status !== 404) throw new Error(`stream answered ${response.status}`)
      if (!response.headers.get('content-type')?.startsWith('text/event-stream')) throw new Unavailable(`no stream here (${response.status})`)
      attempt = 0
    },
    onmessage(message) {
      const event = parseLiveEvent(message.event, message.data)
      if (!event) return
      if (event.type === 'end') throw new StreamForbidden(token, ENDED[event.reason] ?? null)
      onEvent(event)
    },
    onclose() {
      // the server (or a proxy) closed a healthy stream: open it again
      throw new Error('stream closed')
    },
    onerror(error) {
      if (error instanceof StreamForbidden) {
        stop.abort()
        onForbidden(error.token, error.reason)
        throw error
      }
      if (error instanceof Unavailable) return UNAVAILABLE_RETRY_MS
      return backoffDelay(attempt++)
    },
  }).catch((error) => {
    if (!(error instanceof StreamForbidden)) throw error
  })
}
