import { useQuery } from '@tanstack/react-query'
import { RefreshCw } from 'lucide-react'
import { useAuth } from '@/auth/session'
import { Button } from '@/components/ui/button'
import { Card, CardContent } from '@/components/ui/card'
import { Loading } from '@/components/common'
import { preferencesQuery } from './api/settings'
import { InstagramCard } from './components/InstagramCard'
import { NotificationCard } from './components/NotificationCard'
import { ProfileCard } from './components/ProfileCard'
import { SecurityCard } from './components/SecurityCard'

export const SETTINGS_LOAD_ERROR = 'Failed to load settings. Please try again later.'

export default function SettingsPage() {
  const { user } = useAuth()
  const prefs = useQuery(preferencesQuery())

  if (!user) return null
  if (prefs.isPending) return <Loading page text="Loading settings..." />

  return (
    <div className="mx-auto w-full max-w-3xl space-y-6">
      <p className="text-muted-foreground">Manage your profile, connected accounts, notifications and security.</p>
      <ProfileCard />
      {user.role === 'INFLUENCER' && <InstagramCard />}
      {prefs.isError ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 py-4 text-center">
            <p role="alert" className="font-medium text-destructive">
              {SETTINGS_LOAD_ERROR}
            </p>
            <Button variant="outline" size="sm" onClick={() => prefs.refetch()}>
              <RefreshCw /> Try again
            </Button>
          </CardContent>
        </Card>
      ) : (
        <NotificationCard initial={prefs.data} />
      )}
      <SecurityCard />
    </div>
  )
}
