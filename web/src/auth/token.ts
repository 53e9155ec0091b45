export const TOKEN_KEY = 'token'

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY)
  } catch {
    return null
  }
}

export function setToken(token: string) {
  localStorage.setItem(TOKEN_KEY, token)
}

export function clearToken() {
  try {
    localStorage.removeItem(TOKEN_KEY)
  } catch {
    /* storage unavailable */
  }
}

type Listener = () => void
const forbiddenListeners = new Set<Listener>()

/** Subscribe to "a call answered 403" (the session provider clears the user and navigates to /login). */
export function onForbidden(listener: Listener) {
  forbiddenListeners.add(listener)
  return () => {
    forbiddenListeners.delete(listener)
  }
}

/** Why a session was ended, as the refusal said it (the 403 body's code and detail, or the live stream's end). */
export interface SignOutReason {
  code: string
  detail: string
}

const SIGNED_OUT_KEY = 'pinbid.signed-out'
// the suspension's own notice says why; a later generic refusal ("sign in again") does not replace it
const TELLS_WHY = new Set(['account_suspended'])

/** The login page's note of why this tab was signed out: kept for this tab only, read once. */
export const signedOutNote = {
  remember(reason: SignOutReason) {
    try {
      const before = signedOutNote.peek()
      if (before && TELLS_WHY.has(before.code) && !TELLS_WHY.has(reason.code)) return
      sessionStorage.setItem(SIGNED_OUT_KEY, JSON.stringify(reason))
    } catch {
      /* storage unavailable: the login page opens without the note */
    }
  },
  peek(): SignOutReason | null {
    try {
      const raw = sessionStorage.getItem(SIGNED_OUT_KEY)
      const value: unknown = raw ? JSON.parse(raw) : null
      if (value && typeof value === 'object' && typeof (value as SignOutReason).code === 'string' && typeof (value as SignOutReason).detail === 'string') return value as SignOutReason
      return null
    } catch {
      return null
    }
  },
  take(): SignOutReason | null {
    const value = signedOutNote.peek()
    try {
      sessionStorage.removeItem(SIGNED_OUT_KEY)
    } catch {
      /* storage unavailable */
    }
    return value
  },
}

/** A 403 body's code and detail (ARCHITECTURE's error format), or null when it has none. */
export function refusalOf(body: unknown): SignOutReason | null {
  if (!body || typeof body !== 'object') return null
  const { code, detail } = body as { code?: unknown; detail?: unknown }
  return typeof code === 'string' && typeof detail === 'string' && detail ? { code, detail } : null
}

/** The spec's 403 rule: remove the token and send the browser to /login (which then says why, when told). */
export function handleForbidden(reason?: SignOutReason | null) {
  if (reason) signedOutNote.remember(reason)
  clearToken()
  if (forbiddenListeners.size === 0) {
    if (window.location.pathname !== '/login') window.location.assign('/login')
    return
  }
  forbiddenListeners.forEach((l) => l())
}

let rotation: Promise<unknown> | null = null

/**
 * A request that gives this session a new token (a password or an email change revokes every earlier one). The
 * new token is stored inside the request's own promise, as soon as the answer arrives; until then a refusal of
 * the old token (the live stream can hear of the revocation before the answer comes) does not end the session.
 */
export function rotateToken<T extends { token?: string | null }>(request: () => Promise<T>): Promise<T> {
  const running = request().then((answer) => {
    if (answer.token) setToken(answer.token)
    return answer
  })
  rotation = running
  void running
    .catch(() => undefined)
    .finally(() => {
      if (rotation === running) rotation = null
    })
  return running
}

/** A call or the live stream refused `refused`: the session ends, unless a newer token arrived or is arriving
 *  (then the caller goes on with it). */
export async function handleRefused(refused: string | null, reason?: SignOutReason | null): Promise<'newer' | 'ended'> {
  if (rotation) await rotation.catch(() => undefined)
  const now = getToken()
  if (now && refused && now !== refused) return 'newer'
  // a call made without a session (a failed login) ended none: nothing to explain on the login page
  handleForbidden(refused ? reason : null)
  return 'ended'
}
