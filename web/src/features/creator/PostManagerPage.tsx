import * as React from 'react'
import { MoneyInput } from '@/components/money-input'
import { readMoney } from '@/lib/money'
import { RoleGate } from '@/components/role-gate'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from 'react-router'
import { toast } from 'sonner'
import { BadgeCheck, Camera, DollarSign, ExternalLink, Eye, Gavel, Heart, HelpCircle, Images, MessageCircle, Plus, Settings } from 'lucide-react'
import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
import { useAuth } from '@/auth/session'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent } from '@/components/ui/card'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { Spinner } from '@/components/ui/spinner'
import { Textarea } from '@/components/ui/textarea'
import { compactNumber, platformFeePercent } from '@/lib/bids'
import { capitalize } from '@/lib/utils'
import { EmptyState, fmtDateTime, fmtMoney, LoadError, StatCard } from '@/components/common'
import { SlotMedia } from '@/components/slot-media'
import { KEYS } from '@/api/keys'
import { categoriesQuery } from '@/api/queries'
import type { Post, Slot } from '@/api/types'
import { useActiveSlots, useInfluencerDashboard, usePosts } from './api/queries'
import { useFocusReturn } from '@/hooks/use-focus-return'
import { BidHistorySheet, useEndAuction } from './InfluencerDashboard'
import { useConnectInstagram, useInstagramCallbackToast } from '@/hooks/use-instagram'

export const CREATE_FAILED = 'Failed to create pin slot. Please try again.'
export const AUCTION_END_CHOICES = [
  { value: '24', label: '24 hours' },
  { value: '48', label: '48 hours' },
  { value: '72', label: '3 days' },
  { value: '168', label: '7 days' },
]
export const DURATION_CHOICES = [7, 14, 21, 30]
const HELP_URL = 'https://help.instagram.com/502981923235522'

export default function PostManagerPage() {
  return (
    <RoleGate role="INFLUENCER">
      <PostManagerPageInner />
    </RoleGate>
  )
}

function PostManagerPageInner() {
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
  const end = useEndAuction()

  const activeSlotOf = (p: Post) => p.pinSlots.find((s) => s.status === 'ACTIVE')
  const liveSlots = active.data ?? []
  const pendingBids = liveSlots.reduce((n, s) => n + s.bidCount, 0)

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
        <StatCard icon={DollarSign} label="Revenue" value={stats.data ? fmtMoney(stats.data.totalEarnings) : '…'} hint={`Net after ${platformFeePercent()}% fee`} />
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
              <li key={p.id}>
                <Card className="h-full gap-0 overflow-hidden py-0">
                  <div className="relative aspect-square">
                    <SlotMedia url={p.media_url} mediaType={p.media_type} alt={p.caption || 'Instagram post'} className="absolute inset-0 size-full" />
                    {slot && <Badge className="absolute top-2 left-2">Active Slot</Badge>}
                  </div>
                  <CardContent className="flex flex-1 flex-col gap-3 p-4">
                    <p className="line-clamp-2 text-sm">{p.caption || <span className="text-muted-foreground">No caption</span>}</p>
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
                        <p className="font-medium">{slot.title}</p>
                        <p className="flex justify-between">
                          <span>Current bid {slot.currentBid != null ? fmtMoney(slot.currentBid) : '—'}</span>
                          <span>
                            {slot.bidCount} active {slot.bidCount === 1 ? 'bid' : 'bids'}
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

/** What stops the slot form from being sent, or null. Shown after the first attempt, and gone once fixed. */
export function slotFormProblem(fields: { title: string; category: string; minBid: string; buyNow: string }): string | null {
  if (!fields.title.trim() || !fields.category || !fields.minBid.trim()) return 'Give the slot a title, a category and a minimum bid.'
  const min = readMoney(fields.minBid)
  if (!min.ok) return `Minimum bid: ${min.message}`
  if (!fields.buyNow.trim()) return null
  const buy = readMoney(fields.buyNow)
  if (!buy.ok) return `Buy Now price: ${buy.message}`
  if (buy.cents < min.cents) return 'The Buy Now price must be at least the minimum bid.'
  return null
}

function CreateSlotDialog({ post, onClose }: { post: Post | null; onClose: () => void }) {
  const focusReturn = useFocusReturn()
  return (
    <Dialog open={post !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto" {...focusReturn}>{post && <CreateSlotForm key={post.id} post={post} onClose={onClose} />}</DialogContent>
    </Dialog>
  )
}

function CreateSlotForm({ post, onClose }: { post: Post; onClose: () => void }) {
  const queryClient = useQueryClient()
  const categories = useQuery(categoriesQuery())
  const [title, setTitle] = React.useState('')
  const [description, setDescription] = React.useState(post.caption)
  const [category, setCategory] = React.useState('')
  const [minBid, setMinBid] = React.useState('')
  const [buyNow, setBuyNow] = React.useState('')
  const [endIn, setEndIn] = React.useState('48')
  const [duration, setDuration] = React.useState('7')
  const [tried, setTried] = React.useState(false)
  const problem = slotFormProblem({ title, category, minBid, buyNow })
  const error = tried ? problem : null

  const create = useMutation({
    mutationFn: async (body: { postId: string; title: string; description: string; category: string; minBid: number; buyNowPrice?: number; auctionEnd: string; duration: number }) =>
      unwrap(await api().POST('/influencer/pin-slots', { body })),
    onSuccess: () => {
      toast.success('Pin slot created successfully!')
      for (const key of [KEYS.posts, KEYS.activeSlots, KEYS.influencerDashboard]) void queryClient.invalidateQueries({ queryKey: key })
      onClose()
    },
    onError: () => toast.error(CREATE_FAILED),
  })

  function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    setTried(true)
    if (problem) return
    const min = readMoney(minBid)
    const buy = buyNow.trim() ? readMoney(buyNow) : null
    if (!min.ok || (buy && !buy.ok)) return
    const auctionEnd = new Date(Date.now() + Number(endIn) * 3600_000).toISOString()
    create.mutate({ postId: post.id, title: title.trim(), description: description.trim(), category, minBid: min.cents / 100, ...(buy?.ok ? { buyNowPrice: buy.cents / 100 } : {}), auctionEnd, duration: Number(duration) })
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Create Pin Slot</DialogTitle>
        <DialogDescription>Auction the pinned comment on this post.</DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <Label htmlFor="slot-title">Title</Label>
        <Input id="slot-title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={120} placeholder="e.g. Morning routine reel — pinned comment" />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="slot-description">Description</Label>
        <Textarea id="slot-description" value={description} onChange={(e) => setDescription(e.target.value)} maxLength={1000} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor="slot-category">Category</Label>
          <NativeSelect id="slot-category" value={category} onChange={(e) => setCategory(e.target.value)}>
            <option value="">Choose a category</option>
            {(categories.data ?? []).map((c) => (
              <option key={c} value={c}>
                {capitalize(c)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-2">
          <Label htmlFor="slot-min-bid">Minimum bid (USD)</Label>
          <MoneyInput id="slot-min-bid" value={minBid} onValueChange={setMinBid} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="slot-buy-now">Buy Now price (optional)</Label>
          <MoneyInput id="slot-buy-now" value={buyNow} onValueChange={setBuyNow} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="slot-end">Auction ends in</Label>
          <NativeSelect id="slot-end" value={endIn} onChange={(e) => setEndIn(e.target.value)}>
            {AUCTION_END_CHOICES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-2 sm:col-span-2">
          <Label htmlFor="slot-duration">Comment stays pinned for</Label>
          <NativeSelect id="slot-duration" value={duration} onChange={(e) => setDuration(e.target.value)}>
            {DURATION_CHOICES.map((d) => (
              <option key={d} value={d}>
                {d} days
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending && <Spinner />} Create Pin Slot
        </Button>
      </DialogFooter>
    </form>
  )
}
