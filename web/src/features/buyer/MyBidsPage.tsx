import * as React from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { CheckCircle2, Gavel, Radio, Trophy } from 'lucide-react'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { bidCounters, bidTab, groupBids, type BidTab } from '@/lib/bids'
import { EmptyState, Loading, LoadError, StatCard } from '@/components/common'
import { KEYS } from '@/api/keys'
import type { Bid } from '@/api/types'
import { useBuyerBids } from './api/queries'
import { useLiveSlots } from '@/api/live/LiveProvider'
import { payingBid } from '@/lib/return-notes'
import { BidRow } from './components/BidRow'
import { CommentDialog } from './components/CommentDialog'
import { PlaceBidSheet } from './PlaceBidSheet'

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
      // one toast per return from checkout, however often the page reads the address
      toast.success('Payment Successful', { id: 'payment-return', description: 'Your payment has been processed.' })
      // the webhook may land a moment after the redirect
      const t = setTimeout(() => void queryClient.invalidateQueries({ queryKey: KEYS.buyerBids }), 2000)
      setParams({}, { replace: true })
      return () => clearTimeout(t)
    }
    if (payment === 'cancelled') toast.error('Payment Cancelled', { id: 'payment-return', description: 'Your payment has been cancelled.' })
    setParams({}, { replace: true })
  }, [payment, setParams, queryClient])
  return paid
}

export default function MyBidsPage() {
  const paid = usePaymentReturn()
  const bids = useBuyerBids()
  // the live stream updates bids (their events) and the current bid of the auctions still running
  useLiveSlots(bids.data?.filter((b) => b.pinSlot.status === 'ACTIVE').map((b) => b.pinSlot.id) ?? [])
  const [tab, setTab] = React.useState<BidTab>('active')
  const [commentBid, setCommentBid] = React.useState<Bid | null>(null)
  const [againSlot, setAgainSlot] = React.useState<Bid['pinSlot'] | null>(null)
  // back from checkout: open the tab that holds the paid bid
  const paidBid = paid ? bids.data?.find((b) => b.id === paid) : undefined
  const paidTab = paidBid ? bidTab(paidBid) : null
  React.useEffect(() => {
    if (paidTab) setTab(paidTab)
  }, [paidTab])

  if (bids.isPending) return <Loading page text="Loading bids..." />
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
            {groups[t].length === 0 ? <EmptyState text={EMPTY_TEXTS[t]} /> : groups[t].map((b) => <BidRow key={b.id} bid={b} highlighted={b.id === paid} onSubmitComment={setCommentBid} onBidAgain={(again) => setAgainSlot(again.pinSlot)} />)}
          </TabsContent>
        ))}
      </Tabs>
      <CommentDialog bid={commentBid} onClose={() => setCommentBid(null)} />
      <PlaceBidSheet slot={againSlot} suggest="again" onOpenChange={(o) => !o && setAgainSlot(null)} />
    </div>
  )
}
