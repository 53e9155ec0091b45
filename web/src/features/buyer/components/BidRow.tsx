import * as React from 'react'
import { Link } from 'react-router'
import { toast } from 'sonner'
import { BarChart3, Clock, CreditCard, ExternalLink, MessageSquarePlus, Pin } from 'lucide-react'
import { serverMessage } from '@/api/errors'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { bidMaximum, buyerControls, leaderPaysLine, placementEnd, statusLabel, timeLeft } from '@/lib/bids'
import { capitalize, cn } from '@/lib/utils'
import { formatMoney } from '@/lib/money'
import { fmtDateTime } from '@/components/common'
import { SlotMedia } from '@/components/slot-media'
import type { Bid } from '@/api/types'
import { useFlash } from '@/hooks/use-motion'
import { payingBid } from '@/lib/return-notes'
import { useCancelBid, usePayForBid } from '../api/mutations'
import { OfferPanel } from './OfferPanel'


/** The campaign that placed a bid, when one did (its bids are the brand's own, placed for it). */
function bidCampaign({ campaignId, campaignName }: Bid): { id: string; name: string } | null {
  return campaignId ? { id: campaignId, name: campaignName || 'Campaign' } : null
}

/** `onBidAgain` opens the bid panel on the slot, its amount at the current bid plus 10 (as the outbid toast's does). */
export function BidRow({ bid, highlighted, onSubmitComment, onBidAgain }: { bid: Bid; highlighted: boolean; onSubmitComment: (b: Bid) => void; onBidAgain: (b: Bid) => void }) {
  const row = React.useRef<HTMLElement>(null)
  React.useEffect(() => {
    if (highlighted) row.current?.scrollIntoView?.({ block: 'center' })
  }, [highlighted])
  const campaign = bidCampaign(bid)
  // a campaign's bid is raised by its campaign, and its win is paid from the campaign's balance: no Bid Again, no
  // checkout of its own (a second payment for one win); the server refuses a raise by hand (409 campaign_bid)
  const c = campaign ? { ...buyerControls(bid), bidAgain: false, payNow: false } : buyerControls(bid)

  const pay = usePayForBid(bid.id, {
    onSuccess: ({ url }) => {
      payingBid.remember(bid.id)
      window.location.assign(url)
    },
    onError: () => toast.error('Creating checkout session', { description: 'Failed to initiate payment. Please try again.' }),
  })
  const cancel = useCancelBid(bid.id, {
    onSuccess: () => toast.success('Bid Cancelled'),
    onError: (err) => toast.error('Failed to cancel bid', { description: serverMessage(err, 'There was an error cancelling your bid.') }),
  })

  const slot = bid.pinSlot
  const price = bid.finalPrice ?? bid.amount
  const statusFlash = useFlash(bid.status)
  const bidFlash = useFlash(slot.currentBid)
  const maximum = bidMaximum(bid)
  const live = slot.status === 'ACTIVE' && (bid.status === 'ACTIVE' || bid.status === 'OUTBID')
  const ended = placementEnd(bid)
  const paid = bid.payment?.status === 'COMPLETED' || bid.payment?.status === 'REFUNDED'
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
            {campaign && (
              <p className="truncate text-sm">
                <span className="text-muted-foreground">Campaign </span>
                <Link to={`/campaigns/${campaign.id}`} className="font-medium text-primary hover:underline focus-visible:underline">
                  {campaign.name}
                </Link>
              </p>
            )}
          </div>
          {c.pendingApproval ? (
            <Badge variant="soft">Pending Approval</Badge>
          ) : ended ? (
            <Badge variant="secondary">{ended}</Badge>
          ) : (
            <Badge className={cn(statusFlash && 'live-flash live-flash-ring')} variant={bid.status === 'OUTBID' || bid.status === 'REJECTED' ? 'destructive' : bid.status === 'PINNED' || bid.status === 'ACTIVE' ? 'success' : 'secondary'}>{statusLabel(bid.status)}</Badge>
          )}
        </div>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
          <div>
            <dt className="text-xs text-muted-foreground">{paid ? 'Price paid' : bid.finalPrice != null ? 'Price to pay' : 'Your bid'}</dt>
            <dd className="font-semibold tabular-nums">{formatMoney(price)}</dd>
          </div>
          {bid.refunded != null && (
            <div>
              <dt className="text-xs text-muted-foreground">Refunded to you</dt>
              <dd className="font-semibold tabular-nums">{formatMoney(bid.refunded)}</dd>
            </div>
          )}
          {slot.status === 'ACTIVE' && (
            <div>
              <dt className="text-xs text-muted-foreground">Current bid</dt>
              <dd className={cn('-mx-1 px-1 tabular-nums', bidFlash && 'live-flash')}>{slot.currentBid != null ? formatMoney(slot.currentBid) : '—'}</dd>
            </div>
          )}
          {bid.finalPrice == null && (maximum != null || live) && (
            <div>
              <dt className="text-xs text-muted-foreground">Your maximum</dt>
              <dd className="tabular-nums">{formatMoney(maximum ?? bid.amount)}</dd>
            </div>
          )}
          <div>
            <dt className="text-xs text-muted-foreground">Placed</dt>
            <dd>{fmtDateTime(bid.createdAt)}</dd>
          </div>
        </dl>
        {live && bid.status === 'ACTIVE' && (
          <p className="text-xs text-muted-foreground" data-testid="bid-leader-pays">
            {leaderPaysLine(slot)}
          </p>
        )}
        {bid.status === 'OFFERED' && <OfferPanel bid={bid} />}
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
              <Pin className="size-4 text-primary" aria-hidden="true" /> {ended ?? (bid.pinnedComment.status === 'ACTIVE' ? 'Pinned' : capitalize(bid.pinnedComment.status.toLowerCase()))}
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
          {campaign && bid.status === 'AWAITING_PAYMENT' && <span className="text-sm text-muted-foreground">Paid from the campaign's budget</span>}
          {c.bidAgain && (
            <Button size="sm" onClick={() => onBidAgain(bid)}>
              Bid Again
            </Button>
          )}
          {c.cancel && (
            <Button size="sm" variant="ghost" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
              Cancel Bid
            </Button>
          )}
          {c.waitingForPin && <span className="text-sm font-medium text-amber-700">Waiting for the creator to pin the comment</span>}
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
      </div>
    </article>
  )
}
