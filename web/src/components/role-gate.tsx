import { Navigate, Outlet, useLocation } from 'react-router'
import { useAuth } from '@/auth/session'
import type { Role } from '@/api/client'

/**
 * The server answers another role's calls with 403, which (by the 403 rule) would sign the user out.
 * A page of the other role therefore sends the user to their dashboard instead of calling the server.
 * The Instagram callback always lands on /post-manager: a buyer is taken to the marketplace with its query.
 */
export function RoleGate({ role }: { role: Role }) {
  const { user } = useAuth()
  const { pathname, search } = useLocation()
  if (!user) return null
  if (user.role !== role) {
    if (pathname === '/post-manager' && user.role === 'BUYER') return <Navigate to={`/marketplace${search}`} replace />
    return <Navigate to="/dashboard" replace />
  }
  return <Outlet />
}
