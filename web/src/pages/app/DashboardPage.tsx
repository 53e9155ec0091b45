import { Navigate } from 'react-router'
import { useAuth } from '@/auth/session'
import { BuyerDashboard } from '@/features/buyer/BuyerDashboard'
import { InfluencerDashboard } from '@/features/creator/InfluencerDashboard'

/** /dashboard: the influencer or buyer dashboard by role; an operator's desk is /ops; any other role goes to /login. */
export default function DashboardPage() {
  const { user } = useAuth()
  if (user?.role === 'INFLUENCER') return <InfluencerDashboard />
  if (user?.role === 'BUYER') return <BuyerDashboard />
  if (user?.role === 'OPERATOR') return <Navigate to="/ops" replace />
  return <Navigate to="/login" replace />
}
