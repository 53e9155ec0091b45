import { Camera } from 'lucide-react'
import { useAuth } from '@/auth/session'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { useConnectInstagram } from '@/hooks/use-instagram'
import { PinMethod } from './PinMethod'
import { SettingsCard } from './SectionTitle'

export function InstagramCard() {
  const { user } = useAuth()
  const connect = useConnectInstagram()
  const start = () => connect.mutate()
  const connected = Boolean(user?.instagramConnected)

  return (
    <SettingsCard icon={Camera} title="Instagram Integration" description="Connect your Instagram Business or Creator account to list pin slots and pin winning comments.">
        <div className="flex flex-col gap-4 rounded-xl border p-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex items-center gap-3">
            <div aria-hidden="true" className="flex size-10 items-center justify-center rounded-xl bg-gradient-to-br from-amber-400 via-pink-500 to-violet-600 text-white">
              <Camera className="size-5" />
            </div>
            <div>
              {connected ? (
                <>
                  <p className="font-medium">@{user?.instagramHandle}</p>
                  <Badge variant="success" className="mt-1">
                    Connected
                  </Badge>
                </>
              ) : (
                <>
                  <p className="font-medium">Not Connected</p>
                  <p className="text-sm text-muted-foreground">
                    {user?.instagramHandle ? `@${user.instagramHandle} is not linked yet.` : 'No Instagram account linked yet.'}
                  </p>
                </>
              )}
            </div>
          </div>
          <Button variant={connected ? 'outline' : 'default'} onClick={start} disabled={connect.isPending}>
            {connect.isPending && <Spinner />}
            {connected ? 'Reconnect' : 'Connect'}
          </Button>
        </div>
        {connected && user?.role === 'INFLUENCER' && <PinMethod />}
    </SettingsCard>
  )
}
