import { toast } from 'sonner'
import { Check, Pin, X } from 'lucide-react'
import { serverMessage } from '@/api/errors'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { statusLabel } from '@/lib/bids'
import { formatMoney } from '@/lib/money'
import { fmtDateTime, OUTCOME_TOAST_MS } from '@/components/common'
import { ConfirmButton } from '@/components/confirm-button'
import { SlotMedia } from '@/components/slot-media'
import { PostLink } from '@/components/post-link'
import type { Bid } from '@/api/types'
import { approvalAction } from '../approvals'
import { useApproveComment, useDecideBid } from '../api/mutations'
import { PlacementTrustPanel } from './PlacementTrustPanel'


type CardProps = { bid: Bid; onPin: () => void; pinning: boolean; manual?: boolean; posted?: boolean; onConfirm?: () => void; confirming?: boolean }

export function ApprovalCard({ bid, onPin, pinning, manual = false, posted = false, onConfirm, confirming = false }: CardProps) {
  const action = approvalAction(bid.status)
  const decide = useDecideBid(bid.id, {
    onSuccess: (_decided, status) => {
      if (status === 'APPROVED') toast.success('Approval Successful', { description: 'The brand has been asked to pay.', duration: OUTCOME_TOAST_MS })
      else toast.success('Bid Rejected', { description: 'The brand has been told.', duration: OUTCOME_TOAST_MS })
    },
    onError: (err, status) => {
      if (status === 'APPROVED') toast.error('Error Approving Bid', { description: serverMessage(err, 'Please try again.') })
      else toast.error('Failed to reject bid', { description: serverMessage(err, 'Please try again.') })
    },
  })
  const approveComment = useApproveComment(bid.id, {
    onSuccess: () => toast.success('Comment approved', { description: 'Pinbid will post or pin exactly this text.' }),
    onError: (err) => toast.error('Could not approve the comment', { description: serverMessage(err, 'Please try again.') }),
  })
  const slot = bid.pinSlot
  const price = bid.finalPrice ?? bid.amount
  const hasComment = Boolean(bid.comment || bid.commentId)
  // after the bid is approved, the exact text must be approved too (a comment changed since waits for it)
  const needsCommentApproval = hasComment && !bid.approvedComment && action !== 'decide' && action !== 'pinned'
  return (
    <article id={`bid-${bid.id}`} className="grid scroll-mt-20 grid-cols-[minmax(0,1fr)] gap-3 rounded-xl border bg-card p-3 sm:p-4">
      <div className="flex gap-3 sm:gap-4">
        <SlotMedia url={slot.post.imageUrl} mediaType={slot.post.mediaType} alt={slot.title} className="size-16 shrink-0 rounded-lg sm:size-32" />
        <div className="flex min-w-0 flex-1 flex-col gap-3">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <div className="min-w-0">
              <h3 className="truncate font-semibold">{bid.user.name}</h3>
              <p className="truncate text-sm">{slot.title}</p>
            </div>
            <Badge variant={action === 'decide' ? 'soft' : 'secondary'}>{statusLabel(bid.status)}</Badge>
          </div>
          <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-xs text-muted-foreground">Bid amount</dt>
              <dd className="font-semibold tabular-nums">{formatMoney(price)}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Date</dt>
              <dd>{fmtDateTime(bid.createdAt)}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Duration</dt>
              <dd>{bid.duration} days</dd>
            </div>
          </dl>
          <div className="rounded-md bg-muted/60 p-3 text-sm">
            <p className="text-xs text-muted-foreground">Proposed comment</p>
            {hasComment ? (
              <p className="break-words">
                {bid.commentUsername && <span className="font-medium">@{bid.commentUsername} </span>}
                {bid.comment ?? 'One of the brand’s own comments on your post.'}
              </p>
            ) : (
              <p className="text-muted-foreground italic">The brand has not chosen a comment yet.</p>
            )}
            {bid.approvedComment && (
              <div className="mt-2 border-t pt-2">
                <p className="text-xs text-muted-foreground">
                  Approved text{bid.commentApprovedAt ? ` · ${fmtDateTime(bid.commentApprovedAt)}` : ''}: exactly what is posted or pinned
                </p>
                <p className="break-words font-medium">{bid.approvedComment}</p>
              </div>
            )}
            {needsCommentApproval && (
              <div className="mt-2 flex flex-wrap items-center gap-2 border-t pt-2">
                <p className="text-xs text-muted-foreground">The brand changed its comment: approve the new text before pinning.</p>
                <Button size="sm" variant="outline" onClick={() => approveComment.mutate()} disabled={approveComment.isPending}>
                  {approveComment.isPending ? <Spinner /> : <Check />} Approve comment
                </Button>
              </div>
            )}
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {action === 'decide' && (
              <>
                <ConfirmButton
                  size="sm"
                  disabled={decide.isPending}
                  title={`Approve ${bid.user.name}'s bid?`}
                  description={`${bid.user.name} will be asked to pay ${formatMoney(price)} for “${slot.title}”. Once paid, you pin their comment for ${bid.duration} days.`}
                  confirmLabel="Approve"
                  onConfirm={() => decide.mutate('APPROVED')}
                >
                  {decide.isPending && decide.variables === 'APPROVED' ? <Spinner /> : <Check />} Approve
                </ConfirmButton>
                <ConfirmButton
                  size="sm"
                  variant="outline"
                  disabled={decide.isPending}
                  title={`Reject ${bid.user.name}'s bid?`}
                  description={`The bid of ${formatMoney(price)} for “${slot.title}” will be turned down; the brand is told and nothing is charged.`}
                  confirmLabel="Reject"
                  destructive
                  onConfirm={() => decide.mutate('REJECTED')}
                >
                  {decide.isPending && decide.variables === 'REJECTED' ? <Spinner /> : <X />} Reject
                </ConfirmButton>
              </>
            )}
            {action === 'awaiting-payment' && <p className="text-sm text-muted-foreground">Waiting on the brand to pay...</p>}
            {action === 'pin' && (
              <Button size="sm" onClick={onPin} disabled={pinning || posted || !hasComment || needsCommentApproval}>
                {pinning ? <Spinner /> : posted ? <Check /> : <Pin />} {manual ? (posted ? 'Posted' : 'Post comment') : 'Pin Comment'}
              </Button>
            )}
            {action === 'pin' && manual && (
              <Button size="sm" variant="outline" onClick={onConfirm} disabled={confirming || !hasComment || needsCommentApproval}>
                {confirming ? <Spinner /> : <Check />} I pinned it
              </Button>
            )}
            {action === 'pin' && !hasComment && <p className="text-sm text-muted-foreground">Paid. Waiting for the brand to submit its comment.</p>}
            {action === 'pinned' && <p className="text-sm font-medium text-success">Pinned.</p>}
            {action === 'waiting-pin' && <p className="text-sm text-muted-foreground">Approved and waiting for you to pin the comment.</p>}
          </div>
          {/* every card is a sold slot: the way to its post, where a comment posted for the app path is pinned */}
          <PostLink permalink={slot.post.permalink} />
        </div>
      </div>
      {action === 'pinned' && <PlacementTrustPanel bidId={bid.id} />}
    </article>
  )
}
