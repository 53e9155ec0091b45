/* A creator's placement (a paid comment on one of their posts), where its notices lead: the comment and the post,
   and its checks — the brand's acceptance, a fresh screenshot asked for, a report to answer with its deadline and
   the answer form, the decision. A pinned placement is no longer in Approvals, so this is its own page. */
import { useParams } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { ExternalLink, SearchX } from 'lucide-react'
import { trustQuery } from '@/api/trust'
import { Badge } from '@/components/ui/badge'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { BackLink, DetailWait, fmtDateTime } from '@/components/common'
import { SlotMedia } from '@/components/slot-media'
import { statusLabel } from '@/lib/bids'
import { formatMoney } from '@/lib/money'
import { openDispute } from '@/lib/trust'
import { useInfluencerBids } from './api/queries'
import { PlacementTrustPanel } from './components/PlacementTrustPanel'

export default function CreatorPlacementPage() {
  const { bidId = '' } = useParams()
  const trust = useQuery(trustQuery(bidId))
  const bids = useInfluencerBids()
  const bid = bids.data?.find((b) => b.id === bidId)
  const back = <BackLink to="/approvals">Approvals</BackLink>
  if (!trust.isSuccess) {
    return <DetailWait query={trust} back={back} loading="Loading the placement..." missingIcon={SearchX} missingText="This placement does not exist, or it is not one of yours." failedText="Failed to load this placement. Please try again later." />
  }
  const t = trust.data
  const underReview = openDispute(t) !== null
  const postUrl = bid?.pinSlot.post.permalink ?? bid?.pinSlot.instagramPost?.permalink
  const comment = bid?.approvedComment ?? bid?.comment
  const title = bid?.pinSlot.title ?? 'Your placement'
  return (
    <div className="mx-auto w-full max-w-3xl space-y-4">
      {back}
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="break-words text-2xl font-bold">{title}</h2>
          <p className="text-muted-foreground">{underReview ? 'This placement is under review.' : 'A paid comment on your post.'}</p>
        </div>
        <Badge variant={t.ended || underReview ? 'destructive' : 'secondary'}>{t.ended ? 'Ended' : underReview ? 'Under review' : bid ? statusLabel(bid.status) : 'Pinned'}</Badge>
      </div>
      {bid && (
        <Card>
          <CardHeader>
            <CardTitle className="text-base">{bid.user.name}’s comment</CardTitle>
            <CardDescription>
              {formatMoney(bid.finalPrice ?? bid.amount)} · {bid.duration} days pinned
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-3 sm:grid-cols-[8rem_minmax(0,1fr)]">
            <SlotMedia url={bid.pinSlot.post.imageUrl} mediaType={bid.pinSlot.post.mediaType} alt={title} className="size-24 rounded-lg sm:size-32" />
            <div className="grid content-start gap-2 text-sm">
              {comment && <p className="break-words rounded-md bg-muted/60 p-3">{comment}</p>}
              {bid.commentApprovedAt && <p className="text-xs text-muted-foreground">Approved {fmtDateTime(bid.commentApprovedAt)}</p>}
              {postUrl && (
                <a href={postUrl} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline">
                  Open the post on Instagram <ExternalLink className="size-3.5" aria-hidden="true" />
                </a>
              )}
            </div>
          </CardContent>
        </Card>
      )}
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Checks</CardTitle>
          <CardDescription>The brand’s check of your screenshot, Pinbid’s fresh-screenshot requests and reports.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          <PlacementTrustPanel bidId={bidId} />
          {!t.dispute && !t.ended && !t.actions.answer.open && t.acceptance.status !== 'AWAITING' && (
            <p className="text-sm text-muted-foreground">Nothing waits for you here: keep the comment pinned until the placement ends.</p>
          )}
        </CardContent>
      </Card>
    </div>
  )
}
