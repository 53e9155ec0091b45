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

/** The spec's 403 rule: remove the token and send the browser to /login. */
export function handleForbidden() {
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
export async function handleRefused(refused: string | null): Promise<'newer' | 'ended'> {
  if (rotation) await rotation.catch(() => undefined)
  const now = getToken()
  if (now && refused && now !== refused) return 'newer'
  handleForbidden()
  return 'ended'
}
