import * as React from 'react'
import { RoleGate } from '@/components/role-gate'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { Check, CheckCircle2, Clock, DollarSign, Hourglass, Pin, X } from 'lucide-react'
import { api } from '@/api/client'
import { ApiError, serverMessage, unwrap } from '@/api/errors'
import { useAuth } from '@/auth/session'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Spinner } from '@/components/ui/spinner'
import { net, platformFeePercent, statusLabel } from '@/lib/bids'
import { EmptyState, fmtDateTime, fmtMoney, LoadError, OUTCOME_TOAST_MS, StatCard } from '@/components/common'
import { ConfirmButton } from '@/components/confirm-button'
import { useFocusReturn } from '@/hooks/use-focus-return'
import { SlotMedia } from '@/components/slot-media'
import { KEYS } from '@/api/keys'
import { instagramConnectionQuery } from '@/api/queries'
import type { Bid } from '@/api/types'
import { approvalsQuery, useCreatorRecord } from './api/queries'

export const APPROVALS_LOAD_ERROR = 'Failed to load pending approvals. Please try again later.'
export const IG_LOGIN_FALLBACK = 'Failed to login to Instagram. Please check your credentials.'

/** What the approval card offers for a bid status (spec section 4). */
export function approvalAction(status: string): 'decide' | 'awaiting-payment' | 'pin' | 'pinned' | 'waiting-pin' {
  if (status === 'PENDING_INFLUENCER_APPROVAL') return 'decide'
  if (status === 'AWAITING_PAYMENT') return 'awaiting-payment'
  if (status === 'WON') return 'pin'
  if (status === 'PINNED') return 'pinned'
  return 'waiting-pin'
}

/** Potential net revenue: the sum of the bid amounts times 0.9. */
export function potentialNet(bids: Pick<Bid, 'amount' | 'finalPrice'>[]) {
  return net(bids.reduce((sum, b) => sum + (b.finalPrice ?? b.amount), 0))
}

/** How often to look again while an approved bid waits for its payment to be opened (seconds after the
 * approval): the live stream tells a creator nothing at that step, so this one transient state is asked about. */
export const PAYMENT_REQUEST_CHECK_MS = 2_000

export function untilPaymentRequested(query: { state: { data?: Pick<Bid, 'status'>[] } }): number | false {
  return query.state.data?.some((b) => b.status === 'APPROVED') ? PAYMENT_REQUEST_CHECK_MS : false
}

/** From an auction's end to the creator's decision, on average: "N/A" until a first decision. */
export function responseTime(minutes: number | null | undefined): string {
  if (minutes == null) return 'N/A'
  if (minutes < 90) return `${minutes} min`
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h`
  return `${Math.round(minutes / (24 * 60))} days`
}

export default function ApprovalsPage() {
  return (
    <RoleGate role="INFLUENCER">
      <ApprovalsPageInner />
    </RoleGate>
  )
}

function ApprovalsPageInner() {
  const approvals = useQuery({ ...approvalsQuery(), refetchInterval: untilPaymentRequested })
  const [loginFor, setLoginFor] = React.useState<string | null>(null)
  const pin = usePin(setLoginFor)
  const confirm = useConfirmPin()
  const connection = useQuery(instagramConnectionQuery())
  const manual = connection.data?.pinMethod === 'MANUAL'
  const record = useCreatorRecord()

  if (approvals.isPending) {
    return (
      <div role="status" className="flex flex-1 items-center justify-center gap-2 py-24 text-muted-foreground">
        <Spinner className="size-5 text-primary" /> Loading pending approvals...
      </div>
    )
  }
  if (approvals.isError) return <LoadError message={APPROVALS_LOAD_ERROR} onRetry={() => void approvals.refetch()} />
  const bids = approvals.data
  const pending = bids.filter((b) => b.status === 'PENDING_INFLUENCER_APPROVAL')

  return (
    <div className="mx-auto w-full max-w-5xl space-y-6">
      <div>
        <h2 className="text-2xl font-bold">Pending Approvals</h2>
        <p className="text-muted-foreground">Approve the winning bids you are happy with, then pin the comment once the brand has paid.</p>
      </div>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard icon={Hourglass} label="Pending" value={pending.length} />
        <StatCard icon={CheckCircle2} label="In progress" value={bids.length - pending.length} />
        <StatCard icon={DollarSign} label="Potential net revenue" value={fmtMoney(potentialNet(bids))} hint={`After the ${platformFeePercent()}% fee`} />
        <StatCard icon={Clock} label="Avg. response time" value={responseTime(record.data?.responseMinutes)} hint={record.data?.keptPercent != null ? `${record.data.keptPercent}% of placements kept` : undefined} />
      </div>
      {bids.length === 0 ? (
        <EmptyState icon={CheckCircle2} text="All caught up!" />
      ) : (
        <ul className="space-y-4">
          {bids.map((b) => (
            <li key={b.id}>
              <ApprovalCard
                bid={b}
                onPin={() => pin.mutate(b.id)}
                pinning={pin.isPending && pin.variables === b.id}
                manual={manual}
                onConfirm={() => confirm.mutate(b.id)}
                confirming={confirm.isPending && confirm.variables === b.id}
              />
            </li>
          ))}
        </ul>
      )}
      <InstagramLoginDialog
        open={loginFor !== null}
        onClose={() => setLoginFor(null)}
        onSuccess={() => {
          const id = loginFor
          setLoginFor(null)
          if (id) pin.mutate(id)
        }}
      />
    </div>
  )
}

function usePin(onNeedLogin: (bidId: string) => void) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (bidId: string) => unwrap(await api().PUT('/influencer/pin-comment/{bid_id}', { params: { path: { bid_id: bidId } } })),
    onSuccess: (out, bidId) => {
      if (out.status === 'AWAITING_MANUAL_PIN') {
        toast.success('Comment posted', { description: 'Now pin it in the Instagram app, then press “I pinned it”.', duration: 10_000 })
        return
      }
      // the marketplace learns of the pin by an event: show it pinned at once
      queryClient.setQueryData<Bid[]>(KEYS.approvals, (list) => list?.map((b) => (b.id === bidId ? { ...b, status: 'PINNED' } : b)))
      toast.success('Comment Pinned', { description: out.commentText ? `“${out.commentText}” is now pinned on your post.` : undefined })
      for (const key of [KEYS.approvals, KEYS.influencerDashboard, KEYS.earnings]) void queryClient.invalidateQueries({ queryKey: key })
    },
    onError: (err, bidId) => {
      if (err instanceof ApiError && err.status === 401) {
        onNeedLogin(bidId)
        return
      }
      toast.error('Error Pinning this comment', { description: serverMessage(err, 'Please try again.') })
    },
  })
}

/** "I pinned it" (the creator pinned in the Instagram app): checked by the server through the official API. */
function useConfirmPin() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (bidId: string) =>
      unwrap(await api().POST('/influencer/pin-comment/{bid_id}/confirm', { params: { path: { bid_id: bidId } } })),
    onSuccess: (_, bidId) => {
      queryClient.setQueryData<Bid[]>(KEYS.approvals, (list) => list?.map((b) => (b.id === bidId ? { ...b, status: 'PINNED' } : b)))
      toast.success('Comment Pinned', { description: 'Checked on your post: the placement has started.' })
      for (const key of [KEYS.approvals, KEYS.influencerDashboard, KEYS.earnings]) void queryClient.invalidateQueries({ queryKey: key })
    },
    onError: (err) => toast.error('Could not confirm the pin', { description: serverMessage(err, 'Please try again.') }),
  })
}

type CardProps = { bid: Bid; onPin: () => void; pinning: boolean; manual?: boolean; onConfirm?: () => void; confirming?: boolean }

function ApprovalCard({ bid, onPin, pinning, manual = false, onConfirm, confirming = false }: CardProps) {
  const queryClient = useQueryClient()
  const action = approvalAction(bid.status)
  const decide = useMutation({
    mutationFn: async (status: 'APPROVED' | 'REJECTED') => unwrap(await api().POST('/influencer/approvals/{bid_id}', { params: { path: { bid_id: bid.id } }, body: { status } })),
    onSuccess: (_, status) => {
      if (status === 'APPROVED') toast.success('Approval Successful', { description: 'The brand has been asked to pay.', duration: OUTCOME_TOAST_MS })
      else toast.success('Bid Rejected', { description: 'The brand has been told.', duration: OUTCOME_TOAST_MS })
      for (const key of [KEYS.approvals, KEYS.influencerDashboard]) void queryClient.invalidateQueries({ queryKey: key })
    },
    onError: (err, status) => {
      if (status === 'APPROVED') toast.error('Error Approving Bid', { description: serverMessage(err, 'Please try again.') })
      else toast.error('Failed to reject bid', { description: serverMessage(err, 'Please try again.') })
    },
  })
  const approveComment = useMutation({
    mutationFn: async () => unwrap(await api().POST('/influencer/approvals/{bid_id}/comment', { params: { path: { bid_id: bid.id } } })),
    onSuccess: () => {
      toast.success('Comment approved', { description: 'Pinbid will post or pin exactly this text.' })
      void queryClient.invalidateQueries({ queryKey: KEYS.approvals })
    },
    onError: (err) => toast.error('Could not approve the comment', { description: serverMessage(err, 'Please try again.') }),
  })
  const slot = bid.pinSlot
  const price = bid.finalPrice ?? bid.amount
  const hasComment = Boolean(bid.comment || bid.commentId)
  // after the bid is approved, the exact text must be approved too (a comment changed since waits for it)
  const needsCommentApproval = hasComment && !bid.approvedComment && action !== 'decide' && action !== 'pinned'
  return (
    <article className="flex gap-3 rounded-xl border bg-card p-3 sm:gap-4 sm:p-4">
      <SlotMedia url={slot.post.imageUrl} mediaType={slot.post.mediaType} alt={slot.title} className="size-16 shrink-0 rounded-lg sm:size-32" />
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 className="truncate font-semibold">{bid.user.name}</h3>
            {bid.user.email && <p className="truncate text-sm text-muted-foreground">{bid.user.email}</p>}
            <p className="truncate text-sm">{slot.title}</p>
          </div>
          <Badge variant={action === 'decide' ? 'soft' : 'secondary'}>{statusLabel(bid.status)}</Badge>
        </div>
        <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-xs text-muted-foreground">Bid amount</dt>
            <dd className="font-semibold tabular-nums">{fmtMoney(price)}</dd>
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
                description={`${bid.user.name} will be asked to pay ${fmtMoney(price)} for “${slot.title}”. Once paid, you pin their comment for ${bid.duration} days.`}
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
                description={`The bid of ${fmtMoney(price)} for “${slot.title}” will be turned down; the brand is told and nothing is charged.`}
                confirmLabel="Reject"
                destructive
                onConfirm={() => decide.mutate('REJECTED')}
              >
                {decide.isPending && decide.variables === 'REJECTED' ? <Spinner /> : <X />} Reject
              </ConfirmButton>
            </>
          )}
          {action === 'awaiting-payment' && <p className="text-sm text-muted-foreground">Waiting on buyer to pay...</p>}
          {action === 'pin' && (
            <Button size="sm" onClick={onPin} disabled={pinning || !hasComment || needsCommentApproval}>
              {pinning ? <Spinner /> : <Pin />} {manual ? 'Post comment' : 'Pin Comment'}
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
      </div>
    </article>
  )
}

export function InstagramLoginDialog({ open, onClose, onSuccess }: { open: boolean; onClose: () => void; onSuccess: () => void }) {
  const { user } = useAuth()
  const [username, setUsername] = React.useState(user?.instagramHandle ?? '')
  const [password, setPassword] = React.useState('')
  const [error, setError] = React.useState<string | null>(null)
  const focusReturn = useFocusReturn()
  const login = useMutation({
    mutationFn: async (body: { username: string; password: string }) => unwrap(await api().POST('/influencer/instagram-login', { body })),
    onSuccess: () => {
      toast.success('Instagram Login Successful')
      setPassword('')
      setError(null)
      onSuccess()
    },
    onError: (err) => {
      const message = serverMessage(err, IG_LOGIN_FALLBACK)
      setError(message)
      toast.error('Instagram Login Failed', { description: message })
    },
  })
  function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    if (!username.trim() || !password) {
      setError(IG_LOGIN_FALLBACK)
      return
    }
    login.mutate({ username: username.trim(), password })
  }
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent {...focusReturn}>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Secure Instagram Login</DialogTitle>
            <DialogDescription>Instagram needs you to sign in once so Pinbid can pin the comment. Your password is used once and never stored.</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="ig-username">Instagram username</Label>
            <Input id="ig-username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="ig-password">Instagram password</Label>
            <Input id="ig-password" type="password" autoComplete="current-password" autoFocus={Boolean(username)} value={password} onChange={(e) => setPassword(e.target.value)} />
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
            <Button type="submit" disabled={login.isPending}>
              {login.isPending && <Spinner />} Log In &amp; Pin
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
