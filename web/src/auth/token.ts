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
