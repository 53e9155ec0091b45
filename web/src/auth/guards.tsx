import { Navigate, Outlet, useLocation } from 'react-router'
import { FullPageSpinner } from '@/components/ui/spinner'
import { useAuth } from './session'

/** Signed-in routes: spinner with 'Loading...' while loading, /login when signed out. */
export function ProtectedRoute() {
  const { user, loading } = useAuth()
  const location = useLocation()
  if (loading) return <FullPageSpinner label="Loading..." />
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />
  return <Outlet />
}

/** Landing, login and signups: signed-in users are bounced to /dashboard. */
export function PublicOnlyRoute() {
  const { user, initializing } = useAuth()
  if (initializing) return <FullPageSpinner label="Loading..." />
  // only users with a known role: /dashboard sends any other role to /login, which must not bounce them back
  if (user && (user.role === 'INFLUENCER' || user.role === 'BUYER')) return <Navigate to="/dashboard" replace />
  if (user?.role === 'OPERATOR') return <Navigate to="/ops" replace />
  return <Outlet />
}
