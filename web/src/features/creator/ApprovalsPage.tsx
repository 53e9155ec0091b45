import * as React from 'react'
import { useLocation } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { toast } from 'sonner'
import { toldByAction } from '@/lib/told'
import { CheckCircle2, Clock, DollarSign, Hourglass } from 'lucide-react'
import { ApiError, serverMessage } from '@/api/errors'
import { platformFeePercent } from '@/lib/bids'
import { formatMoney } from '@/lib/money'
import { EmptyState, Loading, LoadError, StatCard } from '@/components/common'
import { instagramConnectionQuery } from '@/api/queries'
import type { Bid } from '@/api/types'
import { approvalsQuery, pinStatesQuery, useCreatorRecord } from './api/queries'
import { usePinComment } from './api/mutations'
import { approvalAction, potentialNet, recordHint, responseTime, untilPaymentRequested } from './approvals'
import { ApprovalCard } from './components/ApprovalCard'
import { InstagramLoginDialog } from './components/InstagramLoginDialog'
import { PinProofDialog } from './components/PinProofDialog'
import { SecondChances } from './components/SecondChances'

export const APPROVALS_LOAD_ERROR = 'Failed to load pending approvals. Please try again later.'

export default function ApprovalsPage() {
  const approvals = useQuery({ ...approvalsQuery(), refetchInterval: untilPaymentRequested })
  const [loginFor, setLoginFor] = React.useState<string | null>(null)
  // a comment posted for the creator to pin in the app: one post is enough, the button says it is done
  const [posted, setPosted] = React.useState<ReadonlySet<string>>(new Set())
  const pin = usePin(setLoginFor, (bidId) => setPosted((seen) => new Set(seen).add(bidId)))
  const [proofFor, setProofFor] = React.useState<Bid | null>(null)
  const connection = useQuery(instagramConnectionQuery())
  const manual = connection.data?.pinMethod === 'MANUAL'
  // each sale is pinned under the method it was paid under: the server says which, and what may be pressed now
  const awaitingPin = approvals.data?.some((b) => approvalAction(b.status) === 'pin') ?? false
  const pinStates = useQuery({ ...pinStatesQuery(), enabled: awaitingPin })
  const pinState = new Map((pinStates.data ?? []).map((state) => [state.bidId, state]))
  const record = useCreatorRecord()
  useScrollToHash(!approvals.isPending)

  if (approvals.isPending) return <Loading page text="Loading pending approvals..." />
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
        <StatCard icon={DollarSign} label="Potential net revenue" value={formatMoney(potentialNet(bids))} hint={`After the ${platformFeePercent()}% fee`} />
        <StatCard icon={Clock} label="Avg. response time" value={responseTime(record.data?.responseMinutes)} hint={recordHint(record.data)} />
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
                manual={pinState.has(b.id) ? pinState.get(b.id)?.method === 'MANUAL' : manual}
                posted={posted.has(b.id) || (pinState.get(b.id)?.actions.includes('confirm') ?? false)}
                onConfirm={() => setProofFor(b)}
              />
            </li>
          ))}
        </ul>
      )}
      <SecondChances />
      <PinProofDialog bid={proofFor} onClose={() => setProofFor(null)} />
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

function usePin(onNeedLogin: (bidId: string) => void, onPosted: (bidId: string) => void) {
  return usePinComment({
    onSuccess: (out, bidId) => {
      if (out.status === 'AWAITING_MANUAL_PIN') {
        onPosted(bidId)
        toast.success('Comment posted', { description: 'Now pin it in the Instagram app, then press “I pinned it”.', duration: 10_000 })
        return
      }
      toldByAction(['comment.pinned']) // the notice "Comment pinned" says the same
      toast.success('Comment Pinned', { description: out.commentText ? `“${out.commentText}” is now pinned on your post.` : undefined })
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

/** A notice about one placement links to its card (/approvals#bid-…): shown once the list has loaded. */
function useScrollToHash(ready: boolean) {
  const { hash } = useLocation()
  React.useEffect(() => {
    if (!ready || !hash) return
    const card = document.getElementById(decodeURIComponent(hash.slice(1)))
    card?.scrollIntoView?.({ block: 'start' })
  }, [ready, hash])
}
