import * as React from 'react'
import { RoleGate } from '@/components/role-gate'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Link, useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { BarChart3, CheckCircle2, Clock, CreditCard, ExternalLink, Gavel, MessageSquarePlus, Pin, Radio, Trophy } from 'lucide-react'
import { api } from '@/api/client'
import { serverMessage, unwrap } from '@/api/errors'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Label } from '@/components/ui/label'
import { Spinner } from '@/components/ui/spinner'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { Textarea } from '@/components/ui/textarea'
import { bidAgainAmount, bidCounters, bidMaximum, bidTab, buyerControls, groupBids, statusLabel, timeLeft, type BidTab } from '@/lib/bids'
import { maxNewCommentLength } from '@/lib/disclosure'
import { capitalize, cn } from '@/lib/utils'
import { EmptyState, fmtDateTime, fmtMoney, LoadError, StatCard } from '@/components/common'
import { useFocusReturn } from '@/hooks/use-focus-return'
import { SlotMedia } from '@/components/slot-media'
import { KEYS } from '@/api/keys'
import type { Bid } from '@/api/types'
import { useBuyerBids } from './api/queries'
import { useLiveSlots } from '@/api/live/LiveProvider'
import { useFlash } from '@/hooks/use-motion'
import { payingBid } from '@/lib/return-notes'

export const BIDS_LOAD_ERROR = 'Failed to load bids. Please try again later.'
export const EMPTY_TEXTS: Record<BidTab, string> = { active: 'No active bids.', won: 'No won auctions.', live: 'No live pins.', past: 'No past bids.' }
const TAB_LABELS: Record<BidTab, string> = { active: 'Active', won: 'Won', live: 'Live', past: 'Past' }

/** ?payment=success|cancelled comes back from the checkout page; returns the bid that was being paid. */
function usePaymentReturn(): string | null {
  const [params, setParams] = useSearchParams()
  const payment = params.get('payment')
  const queryClient = useQueryClient()
  const [paid, setPaid] = React.useState<string | null>(null)
  React.useEffect(() => {
    if (!payment) return
    const bidId = payingBid.take()
    if (bidId) setPaid(bidId)
    if (payment === 'success') {
      toast.success('Payment Successful', { description: 'Your payment has been processed.' })
      // the webhook may land a moment after the redirect
      const t = setTimeout(() => void queryClient.invalidateQueries({ queryKey: KEYS.buyerBids }), 2000)
      setParams({}, { replace: true })
      return () => clearTimeout(t)
    }
    if (payment === 'cancelled') toast.error('Payment Cancelled', { description: 'Your payment has been cancelled.' })
    setParams({}, { replace: true })
  }, [payment, setParams, queryClient])
  return paid
}

export default function MyBidsPage() {
  return (
    <RoleGate role="BUYER">
      <MyBidsPageInner />
    </RoleGate>
  )
}

function MyBidsPageInner() {
  const paid = usePaymentReturn()
  const bids = useBuyerBids()
  // the live stream updates bids (their events) and the current bid of the auctions still running
  useLiveSlots(bids.data?.filter((b) => b.pinSlot.status === 'ACTIVE').map((b) => b.pinSlot.id) ?? [])
  const [tab, setTab] = React.useState<BidTab>('active')
  const [commentBid, setCommentBid] = React.useState<Bid | null>(null)
  // back from checkout: open the tab that holds the paid bid
  const paidBid = paid ? bids.data?.find((b) => b.id === paid) : undefined
  const paidTab = paidBid ? bidTab(paidBid) : null
  React.useEffect(() => {
    if (paidTab) setTab(paidTab)
  }, [paidTab])

  if (bids.isPending) {
    return (
      <div role="status" className="flex flex-1 items-center justify-center gap-2 py-24 text-muted-foreground">
        <Spinner className="size-5 text-primary" /> Loading bids...
      </div>
    )
  }
  if (bids.isError) return <LoadError message={BIDS_LOAD_ERROR} onRetry={() => void bids.refetch()} />

  const groups = groupBids(bids.data)
  const counters = bidCounters(bids.data)

  return (
    <div className="mx-auto w-full max-w-5xl space-y-6">
      <div>
        <h2 className="text-2xl font-bold">My Bids &amp; Purchases</h2>
        <p className="text-muted-foreground">Follow your bids, pay for the slots you won and watch your pinned comments.</p>
      </div>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard icon={Gavel} label="Active Bids" value={counters.active} />
        <StatCard icon={Trophy} label="Won Auctions" value={counters.won} />
        <StatCard icon={Radio} label="Live Pins" value={counters.live} />
        <StatCard icon={CheckCircle2} label="Completed" value={counters.completed} />
      </div>
      <Tabs value={tab} onValueChange={(v) => setTab(v as BidTab)}>
        <TabsList className="grid w-full grid-cols-4 sm:inline-flex sm:w-auto">
          {(Object.keys(TAB_LABELS) as BidTab[]).map((t) => (
            <TabsTrigger key={t} value={t}>
              {TAB_LABELS[t]} ({groups[t].length})
            </TabsTrigger>
          ))}
        </TabsList>
        {(Object.keys(TAB_LABELS) as BidTab[]).map((t) => (
          <TabsContent key={t} value={t} className="mt-4 space-y-3">
            {groups[t].length === 0 ? <EmptyState text={EMPTY_TEXTS[t]} /> : groups[t].map((b) => <BidRow key={b.id} bid={b} highlighted={b.id === paid} onSubmitComment={setCommentBid} />)}
          </TabsContent>
        ))}
      </Tabs>
      <CommentDialog bid={commentBid} onClose={() => setCommentBid(null)} />
    </div>
  )
}

function BidRow({ bid, highlighted, onSubmitComment }: { bid: Bid; highlighted: boolean; onSubmitComment: (b: Bid) => void }) {
  const queryClient = useQueryClient()
  const row = React.useRef<HTMLElement>(null)
  React.useEffect(() => {
    if (highlighted) row.current?.scrollIntoView?.({ block: 'center' })
  }, [highlighted])
  const c = buyerControls(bid)
  const [inlineError, setInlineError] = React.useState<string | null>(null)
  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: KEYS.buyerBids })
    void queryClient.invalidateQueries({ queryKey: KEYS.buyerDashboard })
  }

  const pay = useMutation({
    mutationFn: async () => unwrap(await api().POST('/payments/create-checkout-session', { body: { bidId: bid.id } })),
    onSuccess: ({ url }) => {
      payingBid.remember(bid.id)
      window.location.assign(url)
    },
    onError: () => toast.error('Creating checkout session', { description: 'Failed to initiate payment. Please try again.' }),
  })
  const again = useMutation({
    mutationFn: async () => unwrap(await api().PUT('/buyer/bids/{bid_id}', { params: { path: { bid_id: bid.id } }, body: { amount: bidAgainAmount(bid.pinSlot) } })),
    onSuccess: (b) => {
      setInlineError(null)
      toast.success('Bid Placed Successfully!', { description: `Your new bid is ${fmtMoney(b.amount)}.` })
      reload()
    },
    onError: (err) => {
      setInlineError(`Failed to place new bid. ${serverMessage(err, '')}`.trim())
      reload()
    },
  })
  const cancel = useMutation({
    mutationFn: async () => unwrap(await api().POST('/buyer/bids/{bid_id}/cancel', { params: { path: { bid_id: bid.id } } })),
    onSuccess: () => {
      toast.success('Bid Cancelled')
      reload()
    },
    onError: (err) => toast.error('Failed to cancel bid', { description: serverMessage(err, 'There was an error cancelling your bid.') }),
  })

  const slot = bid.pinSlot
  const price = bid.finalPrice ?? bid.amount
  const statusFlash = useFlash(bid.status)
  const bidFlash = useFlash(slot.currentBid)
  const maximum = bidMaximum(bid)
  return (
    <article
      ref={row}
      aria-current={highlighted ? 'true' : undefined}
      data-highlighted={highlighted || undefined}
      className={cn('flex gap-3 rounded-xl border bg-card p-3 sm:gap-4 sm:p-4', highlighted && 'border-primary ring-2 ring-primary/40')}
    >
      <SlotMedia url={slot.post.imageUrl} mediaType={slot.post.mediaType} alt={slot.title} className="size-16 shrink-0 rounded-lg sm:size-28" />
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 className="truncate font-semibold">{slot.title}</h3>
            <p className="truncate text-sm text-muted-foreground">
              {slot.user.name}
              {slot.user.instagramHandle && <> · @{slot.user.instagramHandle}</>} · {capitalize(slot.category)}
            </p>
          </div>
          {c.pendingApproval ? (
            <Badge variant="soft">Pending Approval</Badge>
          ) : (
            <Badge className={cn(statusFlash && 'live-flash')} variant={bid.status === 'OUTBID' || bid.status === 'REJECTED' ? 'destructive' : bid.status === 'PINNED' || bid.status === 'ACTIVE' ? 'success' : 'secondary'}>{statusLabel(bid.status)}</Badge>
          )}
        </div>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
          <div>
            <dt className="text-xs text-muted-foreground">{bid.payment?.status === 'COMPLETED' ? 'Price paid' : bid.finalPrice != null ? 'Price to pay' : 'Your bid'}</dt>
            <dd className="font-semibold tabular-nums">{fmtMoney(price)}</dd>
          </div>
          {slot.status === 'ACTIVE' && (
            <div>
              <dt className="text-xs text-muted-foreground">Current bid</dt>
              <dd className={cn('-mx-1 px-1 tabular-nums', bidFlash && 'live-flash')}>{slot.currentBid != null ? fmtMoney(slot.currentBid) : '—'}</dd>
            </div>
          )}
          {maximum != null && bid.finalPrice == null && (
            <div>
              <dt className="text-xs text-muted-foreground">Your maximum</dt>
              <dd className="tabular-nums">{fmtMoney(maximum)}</dd>
            </div>
          )}
          <div>
            <dt className="text-xs text-muted-foreground">Placed</dt>
            <dd>{fmtDateTime(bid.createdAt)}</dd>
          </div>
        </dl>
        {(bid.comment || bid.commentId) && (
          <p className="rounded-md bg-muted/60 p-2 text-sm break-words">
            <span className="text-muted-foreground">Comment: </span>
            {bid.commentUsername && <span className="font-medium">@{bid.commentUsername} </span>}
            {bid.comment ?? 'one of your Instagram comments'}
          </p>
        )}
        {bid.pinnedComment && (
          <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
            <span className="flex items-center gap-1 font-medium text-foreground">
              <Pin className="size-4 text-primary" aria-hidden="true" /> {bid.pinnedComment.status === 'ACTIVE' ? 'Pinned' : capitalize(bid.pinnedComment.status.toLowerCase())}
            </span>
            <span>{bid.pinnedComment.likes} likes</span>
            <span>{bid.pinnedComment.replies} replies</span>
            <span>{bid.pinnedComment.clicks} clicks</span>
            {slot.instagramPost.permalink && (
              <a href={slot.instagramPost.permalink} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-primary underline-offset-2 hover:underline">
                View post <ExternalLink className="size-3" aria-hidden="true" />
              </a>
            )}
          </p>
        )}
        <div className="flex flex-wrap items-center gap-2">
          {c.timeLeft && (
            <span className="flex items-center gap-1 text-sm text-muted-foreground">
              <Clock className="size-4" aria-hidden="true" /> {timeLeft(slot.auctionEnd)}
            </span>
          )}
          {c.payNow && (
            <>
              <Button size="sm" onClick={() => pay.mutate()} disabled={pay.isPending}>
                {pay.isPending ? <Spinner /> : <CreditCard />} Pay Now
              </Button>
              {bid.payment?.expiresAt && <span className="text-xs text-muted-foreground">Pay by {fmtDateTime(bid.payment.expiresAt)}</span>}
            </>
          )}
          {c.bidAgain && (
            <Button size="sm" onClick={() => again.mutate()} disabled={again.isPending}>
              {again.isPending && <Spinner />} Bid Again ({fmtMoney(bidAgainAmount(slot))})
            </Button>
          )}
          {c.cancel && (
            <Button size="sm" variant="ghost" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
              Cancel Bid
            </Button>
          )}
          {c.waitingForPin && <span className="text-sm font-medium text-amber-700">Waiting for Influencer to Pin comment</span>}
          {bid.finalPrice != null && ['APPROVED', 'AWAITING_PAYMENT', 'WON', 'PINNED'].includes(bid.status) && (
            <Button size="sm" variant="outline" asChild>
              <Link to={`/my-bids/${bid.id}`}>
                <BarChart3 /> Link &amp; results
              </Link>
            </Button>
          )}
          {c.submitComment && (
            <Button size="sm" variant="outline" onClick={() => onSubmitComment(bid)}>
              <MessageSquarePlus /> {bid.comment || bid.commentId ? 'Change Comment' : 'Submit Comment'}
            </Button>
          )}
        </div>
        {inlineError && (
          <p role="alert" className="text-sm text-destructive">
            {inlineError}
          </p>
        )}
      </div>
    </article>
  )
}

function CommentDialog({ bid, onClose }: { bid: Bid | null; onClose: () => void }) {
  const queryClient = useQueryClient()
  const focusReturn = useFocusReturn()
  const [text, setText] = React.useState('')
  const [error, setError] = React.useState<string | null>(null)
  React.useEffect(() => {
    // a comment chosen from the brand's own (by id) is replaced by writing a new one, not by editing its words
    setText(bid?.commentId ? '' : (bid?.comment ?? ''))
    setError(null)
  }, [bid])
  const submit = useMutation({
    mutationFn: async (body: { bidId: string; commentText: string }) => unwrap(await api().POST('/buyer/comment-submission', { body })),
    onSuccess: () => {
      toast.success('Comment Submitted', { description: 'The creator will pin it on the post.' })
      void queryClient.invalidateQueries({ queryKey: KEYS.buyerBids })
      onClose()
    },
    onError: (err) => setError(`Failed to submit comment. ${serverMessage(err, '')}`.trim()),
  })
  function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    if (!bid || !text.trim()) return // spec: nothing happens on empty text
    submit.mutate({ bidId: bid.id, commentText: text.trim() })
  }
  return (
    <Dialog open={bid !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent {...focusReturn}>
        <form onSubmit={onSubmit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Submit Your Pinned Comment</DialogTitle>
            <DialogDescription>For {bid?.pinSlot.title}</DialogDescription>
          </DialogHeader>
          <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground">
            <li>Keep it relevant to the post.</li>
            <li>Pinbid puts the ad disclosure first, naming your brand (for example “Ad · @yourbrand: …”): no need to add #ad.</li>
            <li>Be respectful and engaging.</li>
          </ul>
          <div className="grid gap-2">
            <Label htmlFor="pinned-comment">Your comment</Label>
            <Textarea id="pinned-comment" value={text} onChange={(e) => setText(e.target.value)} maxLength={maxNewCommentLength()} />
            <p className="text-xs text-muted-foreground tabular-nums">{maxNewCommentLength() - text.length} characters left. The creator approves the exact text before it is posted.</p>
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
            <Button type="submit" disabled={submit.isPending}>
              {submit.isPending && <Spinner />} Submit Comment
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
