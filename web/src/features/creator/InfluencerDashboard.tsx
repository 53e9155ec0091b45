import * as React from 'react'
import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { toast } from 'sonner'
import { toldByAction } from '@/lib/told'
import { Bell, ClipboardCheck, DollarSign, ExternalLink, Images, Plus, Trophy, Users } from 'lucide-react'
import { serverMessage } from '@/api/errors'
import { useAuth } from '@/auth/session'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet'
import { Spinner } from '@/components/ui/spinner'
import { bidders, CURRENT_BID_MEANS, platformFeePercent, statusLabel, timeLeft } from '@/lib/bids'
import { capitalize, cn } from '@/lib/utils'
import { useFlash, useNow } from '@/hooks/use-motion'
import { PriceHistory } from '@/components/charts'
import { formatMoney } from '@/lib/money'
import { EmptyState, fmtDateTime, LoadError, OUTCOME_TOAST_MS, StatCard } from '@/components/common'
import { ConfirmButton } from '@/components/confirm-button'
import { useFocusReturn } from '@/hooks/use-focus-return'
import { notificationsQuery } from '@/api/queries'
import type { Slot } from '@/api/types'
import { useActiveSlots, useInfluencerDashboard } from './api/queries'
import { useEndAuction } from './api/mutations'

export const DASHBOARD_LOAD_ERROR = 'Failed to load dashboard data. Please try again later.'
export const END_AUCTION_FALLBACK = 'There was an error ending the auction. Please try again.'

/** What ending early does, for the confirmation. */
export function endAuctionText(slot: Pick<Slot, 'title' | 'bids'>): string {
  const count = bidders(slot.bids ?? []).length
  return count > 0
    ? `Bidding on “${slot.title}” stops now and the highest bidder wins (${count} ${count === 1 ? 'bidder' : 'bidders'}). You then approve or reject the winning bid.`
    : `Bidding on “${slot.title}” stops now. It has no bids, so the slot closes unsold.`
}

export function EndAuctionButton({ slot, onEnd, ending, className }: { slot: Slot; onEnd: (slotId: string) => void; ending: boolean; className?: string }) {
  return (
    <ConfirmButton size="sm" variant="destructive" className={className} disabled={ending} title="End this auction now?" description={endAuctionText(slot)} confirmLabel="End Auction" destructive onConfirm={() => onEnd(slot.id)}>
      {ending && <Spinner />} End Auction
    </ConfirmButton>
  )
}

/** Ending an auction from the dashboard or the post manager: one toast says how it went. */
export function useEndAuctionWithToast() {
  return useEndAuction({
    onSuccess: (slot) => {
      // the notice of the close (approve the winner, or unsold) says the same: this toast is the one
      toldByAction([slot.bidCount > 0 ? 'auction.approve' : 'auction.unsold'])
      toast.success('Auction Ended', {
        description: slot.bidCount > 0 ? 'The winning bid is waiting for your approval.' : 'The auction closed without bids.',
        duration: OUTCOME_TOAST_MS,
      })
    },
    onError: (err) => toast.error('Failed to End Auction', { description: serverMessage(err, END_AUCTION_FALLBACK) }),
  })
}

export function InfluencerDashboard() {
  const { user } = useAuth()
  const stats = useInfluencerDashboard()
  const slots = useActiveSlots()
  const notifications = useQuery(notificationsQuery())
  const [historySlot, setHistorySlot] = React.useState<Slot | null>(null)
  const end = useEndAuctionWithToast()

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <p className="text-lg">
        Hello, <span className="font-semibold">{user?.name}</span>. Here is how your pin slots are doing.
      </p>
      {stats.isError ? (
        <LoadError message={DASHBOARD_LOAD_ERROR} onRetry={() => void stats.refetch()} />
      ) : (
        <div className="grid gap-4 sm:grid-cols-3">
          <StatCard icon={Images} label="Active Pin Slots" value={stats.data ? stats.data.activeSlots : '…'} />
          <StatCard icon={ClipboardCheck} label="Pending Approvals" value={stats.data ? stats.data.pendingApprovals : '…'} />
          <StatCard icon={DollarSign} label="Total Earnings" value={stats.data ? formatMoney(stats.data.totalEarnings) : '…'} hint={`Net after ${platformFeePercent()}% fee`} />
        </div>
      )}
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button asChild>
          <Link to="/post-manager">
            <Plus /> Create New Pin Slot
          </Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/approvals">
            <ClipboardCheck /> Review Pending Approvals ({stats.data?.pendingApprovals ?? 0})
          </Link>
        </Button>
      </div>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle level={2}>Active Pin Slots</CardTitle>
          </CardHeader>
          <CardContent className="space-y-3">
            {slots.isPending ? (
              <p role="status" className="flex items-center gap-2 text-muted-foreground">
                <Spinner /> Loading pin slots...
              </p>
            ) : slots.isError ? (
              <p role="alert" className="text-destructive">
                Failed to load pin slots. Please try again later.
              </p>
            ) : slots.data.length === 0 ? (
              <EmptyState text="No active pin slots. Open one from the Post Manager." />
            ) : (
              slots.data.map((s) => (
                <div key={s.id} data-slot-row className="flex min-w-0 flex-col gap-3 rounded-lg border p-3 sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0">
                    <p className="truncate font-medium">{s.title}</p>
                    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
                      <Badge variant="secondary">{capitalize(s.category)}</Badge>
                      <LiveFigures slot={s} />
                      {s.instagramPost.permalink && (
                        <a href={s.instagramPost.permalink} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-primary hover:underline">
                          View post <ExternalLink className="size-3" aria-hidden="true" />
                        </a>
                      )}
                    </p>
                  </div>
                  <div className="flex shrink-0 flex-wrap gap-2">
                    <Button size="sm" variant="outline" onClick={() => setHistorySlot(s)}>
                      <Users /> View Bidders ({bidders(s.bids ?? []).length})
                    </Button>
                    <EndAuctionButton slot={s} onEnd={(id) => end.mutate(id)} ending={end.isPending && end.variables === s.id} />
                  </div>
                </div>
              ))
            )}
          </CardContent>
        </Card>
        <div className="space-y-6">
          <Card>
            <CardHeader>
              <CardTitle level={2} className="flex items-center gap-2">
                <Bell className="size-4 text-primary" aria-hidden="true" /> Notifications
                <Link to="/notifications" className="ml-auto text-sm font-normal text-primary hover:underline">
                  View all
                </Link>
              </CardTitle>
            </CardHeader>
            <CardContent>
              {notifications.isPending ? (
                <Spinner />
              ) : notifications.isError ? (
                <p className="text-sm text-destructive">Failed to load notifications.</p>
              ) : notifications.data.length === 0 ? (
                <p className="text-sm text-muted-foreground">No notifications yet.</p>
              ) : (
                <ul className="space-y-3">
                  {notifications.data.slice(0, 3).map((n) => (
                    <li key={n.id} className="text-sm">
                      <p className="font-medium">{n.title}</p>
                      <p className="text-muted-foreground">{n.message}</p>
                      <p className="text-xs text-muted-foreground">{fmtDateTime(n.createdAt)}</p>
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle level={2} className="flex items-center gap-2">
                <Trophy className="size-4 text-primary" aria-hidden="true" /> Performance Overview
              </CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="grid grid-cols-2 gap-3 text-sm">
                <div>
                  <dt className="text-muted-foreground">Completed jobs</dt>
                  <dd className="text-xl font-bold">{stats.data?.completedJobs ?? '…'}</dd>
                </div>
                <div>
                  <dt className="text-muted-foreground">Total earnings</dt>
                  <dd className="text-xl font-bold">{stats.data ? formatMoney(stats.data.totalEarnings) : '…'}</dd>
                </div>
              </dl>
            </CardContent>
          </Card>
        </div>
      </div>
      <BidHistorySheet slot={historySlot && (slots.data?.find((s) => s.id === historySlot.id) ?? historySlot)} onClose={() => setHistorySlot(null)} />
    </div>
  )
}

/** A row's current bid and time left, highlighted when the stream moves them. */
function LiveFigures({ slot }: { slot: Slot }) {
  const now = useNow()
  const bidFlash = useFlash(slot.currentBid)
  const endFlash = useFlash(slot.auctionEnd)
  return (
    <>
      <span className={cn('px-0.5 tabular-nums', bidFlash && 'live-flash')}>Current bid {slot.currentBid != null ? formatMoney(slot.currentBid) : '—'}</span>
      <span className={cn('px-0.5 tabular-nums', endFlash && 'live-flash')} title={fmtDateTime(slot.auctionEnd)}>
        Ends {fmtDateTime(slot.auctionEnd)} ({timeLeft(slot.auctionEnd, now)})
      </span>
    </>
  )
}

export function BidHistorySheet({ slot, onClose, onEnd, ending }: { slot: Slot | null; onClose: () => void; onEnd?: (slotId: string) => void; ending?: boolean }) {
  // one line per bidder (their latest bid), so the list matches the "View Bidders (n)" count
  const bids = bidders(slot?.bids ?? [])
  const focusReturn = useFocusReturn()
  return (
    <Sheet open={slot !== null} onOpenChange={(o) => !o && onClose()}>
      <SheetContent className="w-full overflow-y-auto sm:max-w-md" {...focusReturn}>
        <SheetHeader className="border-b pr-10">
          <SheetTitle>Bid History</SheetTitle>
          <SheetDescription>{slot?.title}</SheetDescription>
        </SheetHeader>
        <div className="p-4">
          {slot && <PriceHistory slot={slot} />}
          {slot?.status === 'ACTIVE' && slot.currentBid != null && (
            <p className="mb-2 text-sm" data-testid="history-current-bid">
              <span className="font-semibold">Current bid {formatMoney(slot.currentBid)}</span>
              <span className="text-muted-foreground"> · {CURRENT_BID_MEANS.toLowerCase()}. A brand’s own bid can be higher: it pays only what it takes to win.</span>
            </p>
          )}
          {bids.length === 0 ? (
            <p className="text-muted-foreground">No bids yet for this slot.</p>
          ) : (
            <ul className="divide-y">
              {bids.map((b) => (
                <li key={b.id} className="flex items-start justify-between gap-3 py-3 text-sm">
                  <div>
                    <p className="font-medium">{b.user?.name ?? 'Bidder'}</p>
                    <p className="text-xs text-muted-foreground">{fmtDateTime(b.createdAt)}</p>
                  </div>
                  <div className="text-right">
                    <p className="font-semibold tabular-nums">{formatMoney(b.amount)}</p>
                    <Badge variant="secondary">{statusLabel(b.status)}</Badge>
                    {slot?.status === 'ACTIVE' && b.status === 'ACTIVE' && slot.currentBid != null && (
                      <p className="mt-1 text-xs text-muted-foreground tabular-nums">would pay {formatMoney(slot.currentBid)}</p>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          )}
          {onEnd && slot && <EndAuctionButton slot={slot} onEnd={onEnd} ending={Boolean(ending)} className="mt-4 h-10 w-full" />}
        </div>
      </SheetContent>
    </Sheet>
  )
}
