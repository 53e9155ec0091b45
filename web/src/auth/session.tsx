import * as React from 'react'
import { useNavigate } from 'react-router'
import { api, type AuthResponse, type User } from '@/api/client'
import { unwrap } from '@/api/errors'
import { clearToken, getToken, onForbidden, setToken } from './token'
import { newAccount } from '@/lib/return-notes'
import type { SecondFactorAnswer } from './second-factor'

export interface InfluencerSignup {
  role: 'INFLUENCER'
  name: string
  email: string
  password: string
  instagramHandle: string
}
export interface BuyerSignup {
  role: 'BUYER'
  name: string
  email: string
  password: string
  businessName?: string
}
export type SignupPayload = InfluencerSignup | BuyerSignup

export interface Session {
  user: User | null
  /** True during the initial profile check, login and signup (spec section 4). */
  loading: boolean
  /** True only during the initial profile check at start-up. */
  initializing: boolean
  /** `secondFactor`: a TOTP code or a recovery code, once the server asked for one (401 `second_factor_required`). */
  login: (email: string, password: string, secondFactor?: SecondFactorAnswer) => Promise<User>
  /** Sign in with a passkey alone (`email` narrows the browser's choice; `autofill` waits for the email field's
   *  autofill list). */
  loginWithPasskey: (options?: { email?: string; autofill?: boolean }) => Promise<User>
  signup: (payload: SignupPayload) => Promise<User>
  logout: () => void
  /** Replace the user after a profile update. */
  updateUser: (user: User) => void
}

const SessionContext = React.createContext<Session | null>(null)

export function useAuth(): Session {
  const ctx = React.useContext(SessionContext)
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>')
  return ctx
}

export function AuthProvider({ children }: { children: React.ReactNode }) {
  const navigate = useNavigate()
  const [user, setUser] = React.useState<User | null>(null)
  const [initializing, setInitializing] = React.useState(() => getToken() !== null)
  const [busy, setBusy] = React.useState(false)

  // Start-up: with a stored token, fetch the profile; on any failure clear silently.
  React.useEffect(() => {
    if (getToken() === null) return
    let cancelled = false
    api()
      .GET('/auth/me', { headers: { 'X-Pinbid-Silent': '1' } })
      .then((res) => {
        const me = unwrap(res)
        if (!cancelled) setUser(me)
      })
      .catch(() => {
        clearToken()
        if (!cancelled) setUser(null)
      })
      .finally(() => {
        if (!cancelled) setInitializing(false)
      })
    return () => {
      cancelled = true
    }
  }, [])

  // The 403 rule: any 403 drops the token (already done by the middleware), clears the user and goes to /login.
  React.useEffect(
    () =>
      onForbidden(() => {
        React.startTransition(() => {
          setUser(null)
          navigate('/login', { replace: true })
        })
      }),
    [navigate],
  )

  const establish = React.useCallback((auth: AuthResponse) => {
    setToken(auth.token)
    setUser(auth.user)
    return auth.user
  }, [])

  const login = React.useCallback(
    async (email: string, password: string, secondFactor?: SecondFactorAnswer) => {
      setBusy(true)
      try {
        const body = { email, password, ...secondFactor }
        const user = establish(unwrap(await api().POST('/auth/login', { body })) as AuthResponse)
        newAccount.take() // a log in is a return
        return user
      } finally {
        setBusy(false)
      }
    },
    [establish],
  )

  const loginWithPasskey = React.useCallback(
    async (options: { email?: string; autofill?: boolean } = {}) => {
      // the autofill's ceremony waits for the person as long as the page is open: not a loading state. The
      // WebAuthn library is loaded with the login page, not with every page (the landing page's budget)
      const { passkeySignIn } = await import('./passkey')
      const user = establish(await passkeySignIn(options))
      newAccount.take()
      return user
    },
    [establish],
  )

  const signup = React.useCallback(
    async (payload: SignupPayload) => {
      setBusy(true)
      try {
        const user = establish(unwrap(await api().POST('/auth/register', { body: payload })) as AuthResponse)
        newAccount.remember(user.id)
        return user
      } finally {
        setBusy(false)
      }
    },
    [establish],
  )

  const logout = React.useCallback(() => {
    clearToken()
    // one transition, so protected routes never render signed-out before the navigation lands
    React.startTransition(() => {
      setUser(null)
      navigate('/', { replace: true })
    })
  }, [navigate])

  const value = React.useMemo<Session>(
    () => ({
      user,
      loading: initializing || busy,
      initializing,
      login,
      loginWithPasskey,
      signup,
      logout,
      updateUser: setUser,
    }),
    [user, initializing, busy, login, loginWithPasskey, signup, logout],
  )

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>
}
