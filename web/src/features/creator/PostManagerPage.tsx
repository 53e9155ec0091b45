import * as React from 'react'
import { Link } from 'react-router'
import { BadgeCheck, Camera, DollarSign, ExternalLink, Eye, Gavel, Heart, HelpCircle, Images, MessageCircle, Plus, Settings } from 'lucide-react'
import { useAuth } from '@/auth/session'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent } from '@/components/ui/card'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog'
import { Spinner } from '@/components/ui/spinner'
import { compactNumber, platformFeePercent } from '@/lib/bids'
import { formatMoney } from '@/lib/money'
import { EmptyState, fmtDateTime, LoadError, StatCard } from '@/components/common'
import { SlotMedia } from '@/components/slot-media'
import type { Post, Slot } from '@/api/types'
import { useActiveSlots, useInfluencerDashboard, usePosts } from './api/queries'
import { BidHistorySheet, useEndAuctionWithToast } from './InfluencerDashboard'
import { useConnectInstagram, useInstagramCallbackToast } from '@/hooks/use-instagram'
import { CreateSlotDialog } from './components/CreateSlotDialog'

const HELP_URL = 'https://help.instagram.com/502981923235522'

export default function PostManagerPage() {
  useInstagramCallbackToast()
  const { user } = useAuth()
  if (!user?.instagramConnected) return <ConnectScreen />
  return <Connected />
}

function ConnectScreen() {
  const connect = useConnectInstagram()
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col items-center gap-4 py-10 text-center">
      <div aria-hidden="true" className="flex size-14 items-center justify-center rounded-2xl bg-gradient-to-br from-amber-400 via-pink-500 to-violet-600 text-white">
        <Camera className="size-7" />
      </div>
      <h2 className="text-2xl font-bold">Connect your Instagram account</h2>
      <p className="text-muted-foreground">Pinbid lists your recent posts so you can open pin-slot auctions on them, and pins the winning comments for you.</p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button onClick={() => connect.mutate()} disabled={connect.isPending}>
          {connect.isPending ? <Spinner /> : <Camera />} Connect Instagram
        </Button>
        <Dialog>
          <DialogTrigger asChild>
            <Button variant="outline">
              <HelpCircle /> Which accounts work?
            </Button>
          </DialogTrigger>
          <DialogContent>
            <DialogHeader>
              <DialogTitle>A Business or Creator account is required</DialogTitle>
              <DialogDescription>
                Instagram only lets apps read insights and manage comments on professional accounts. Switch your account to a Business or Creator account in the Instagram app (Settings,
                Account type and tools), then connect it here.
              </DialogDescription>
            </DialogHeader>
            <DialogFooter>
              <Button asChild variant="outline">
                <a href={HELP_URL} target="_blank" rel="noreferrer">
                  How to switch <ExternalLink />
                </a>
              </Button>
              <Button onClick={() => connect.mutate()} disabled={connect.isPending}>
                Connect Instagram
              </Button>
            </DialogFooter>
          </DialogContent>
        </Dialog>
      </div>
    </div>
  )
}

function Connected() {
  const { user } = useAuth()
  const posts = usePosts()
  const stats = useInfluencerDashboard()
  const active = useActiveSlots()
  const [manage, setManage] = React.useState<Slot | null>(null)
  const [createFor, setCreateFor] = React.useState<Post | null>(null)
  const end = useEndAuctionWithToast()

  const activeSlotOf = (p: Post) => p.pinSlots.find((s) => s.status === 'ACTIVE')
  const liveSlots = active.data ?? []
  const pendingBids = liveSlots.reduce((n, s) => n + s.bidderCount, 0)

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-2xl font-bold">Post &amp; Pin-Slot Manager</h2>
          <p className="mt-1 flex items-center gap-2 text-sm text-muted-foreground">
            <Badge variant="success" className="gap-1">
              <BadgeCheck className="size-3" aria-hidden="true" /> Connected
            </Badge>
            @{user?.instagramHandle}
          </p>
        </div>
        <Button asChild variant="outline">
          <Link to="/settings">
            <Settings /> Settings
          </Link>
        </Button>
      </div>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard icon={Images} label="Total Posts" value={posts.data ? posts.data.length : '…'} />
        <StatCard icon={Gavel} label="Active Slots" value={active.data ? liveSlots.length : '…'} />
        <StatCard icon={MessageCircle} label="Pending Bids" value={active.data ? pendingBids : '…'} />
        <StatCard icon={DollarSign} label="Revenue" value={stats.data ? formatMoney(stats.data.totalEarnings) : '…'} hint={`Net after ${platformFeePercent()}% fee`} />
      </div>
      {posts.isPending ? (
        <div role="status" className="flex items-center justify-center gap-2 py-16 text-muted-foreground">
          <Spinner className="size-5 text-primary" /> Loading posts...
        </div>
      ) : posts.isError ? (
        <LoadError message="Failed to load your Instagram posts. Please try again later." onRetry={() => void posts.refetch()} />
      ) : posts.data.length === 0 ? (
        <EmptyState icon={Images} text="No posts found on your Instagram account yet." />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {posts.data.map((p) => {
            const slot = activeSlotOf(p)
            const full = liveSlots.find((s) => s.id === slot?.id)
            return (
              <li key={p.id} className="min-w-0">
                <Card className="h-full gap-0 overflow-hidden py-0">
                  <div className="relative aspect-square">
                    <SlotMedia url={p.media_url} mediaType={p.media_type} alt={p.caption || 'Instagram post'} className="absolute inset-0 size-full" />
                    {slot && <Badge className="absolute top-2 left-2">Active Slot</Badge>}
                  </div>
                  <CardContent className="flex flex-1 flex-col gap-3 p-4">
                    <p className="line-clamp-2 text-sm [overflow-wrap:anywhere]">{p.caption || <span className="text-muted-foreground">No caption</span>}</p>
                    <p className="flex gap-4 text-xs text-muted-foreground">
                      <span className="flex items-center gap-1">
                        <Eye className="size-3.5" aria-hidden="true" /> {compactNumber(p.views)} views
                      </span>
                      <span className="flex items-center gap-1">
                        <Heart className="size-3.5" aria-hidden="true" /> {compactNumber(p.like_count)}
                      </span>
                      <span className="flex items-center gap-1">
                        <MessageCircle className="size-3.5" aria-hidden="true" /> {compactNumber(p.comments_count)}
                      </span>
                    </p>
                    {slot ? (
                      <div className="mt-auto space-y-2 rounded-lg bg-muted/60 p-3 text-sm">
                        <p className="font-medium [overflow-wrap:anywhere]">{slot.title}</p>
                        <p className="flex justify-between">
                          <span>Current bid {slot.currentBid != null ? formatMoney(slot.currentBid) : '—'}</span>
                          <span>
                            {slot.bidderCount} active {slot.bidderCount === 1 ? 'bid' : 'bids'}
                          </span>
                        </p>
                        <p className="text-xs text-muted-foreground">Ends {fmtDateTime(slot.auctionEnd)}</p>
                        <Button size="sm" variant="outline" className="w-full bg-background" disabled={!full} onClick={() => full && setManage(full)}>
                          Manage Slot
                        </Button>
                      </div>
                    ) : (
                      <Button className="mt-auto w-full" onClick={() => setCreateFor(p)}>
                        <Plus /> Create Pin Slot
                      </Button>
                    )}
                  </CardContent>
                </Card>
              </li>
            )
          })}
        </ul>
      )}
      <CreateSlotDialog post={createFor} onClose={() => setCreateFor(null)} />
      <BidHistorySheet
        slot={manage && (active.data?.find((s) => s.id === manage.id) ?? manage)}
        onClose={() => setManage(null)}
        onEnd={(id) => end.mutate(id, { onSuccess: () => setManage(null) })}
        ending={end.isPending}
      />
    </div>
  )
}
