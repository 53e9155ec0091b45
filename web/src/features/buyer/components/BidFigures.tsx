import type { Bid, Slot } from '@/api/types'
import { formatMoney } from '@/lib/money'
import { fmtDateTime } from '@/components/common'
import { SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet'
import { useFlash } from '@/hooks/use-motion'
import { CURRENT_BID_MEANS, leaderPaysLine, minimumNextBid, timeLeft } from '@/lib/bids'
import { cn } from '@/lib/utils'
import { CreatorRecord } from '../SlotCard'

/** The bid panel's figures: the slot's current and next bid, the buyer's own bid and maximum, and the end. */
export function BidFigures({ slot, closed, now, mine, myMaximum }: { slot: Slot; closed: boolean; now: Date; mine: Bid | undefined | null; myMaximum: number | null }) {
  const bidFlash = useFlash(slot.currentBid)
  const endFlash = useFlash(slot.auctionEnd)
  return (
    <SheetHeader className="border-b pr-10">
      <SheetTitle className="text-lg">Place a Bid</SheetTitle>
      <SheetDescription className="sr-only">Bid on {slot.title}</SheetDescription>
      <p className="font-medium [overflow-wrap:anywhere]">{slot.title}</p>
      <p className="text-sm text-muted-foreground">{slot.user.name}</p>
      <CreatorRecord record={slot.user.record} />
      <dl className="mt-2 grid grid-cols-2 gap-2 text-sm">
        <div className="rounded-md bg-muted/60 p-2">
          <dt className="text-xs text-muted-foreground" title={CURRENT_BID_MEANS}>
            Current bid<span className="sr-only">: {CURRENT_BID_MEANS.toLowerCase()}</span>
          </dt>
          <dd className={cn('-mx-1 px-1 font-semibold tabular-nums', bidFlash && 'live-flash')} data-testid="panel-current-bid">
            {slot.currentBid != null ? formatMoney(slot.currentBid) : 'No bids yet'}
          </dd>
        </div>
        <div className="rounded-md bg-muted/60 p-2">
          <dt className="text-xs text-muted-foreground">{slot.currentBid != null ? 'Minimum next bid' : 'Minimum bid'}</dt>
          <dd className={cn('-mx-1 px-1 font-semibold tabular-nums', bidFlash && 'live-flash')} data-testid="panel-minimum-next">
            {formatMoney(minimumNextBid(slot))}
          </dd>
        </div>
        {mine && (
          <>
            <div className="rounded-md bg-primary/5 p-2">
              <dt className="text-xs text-muted-foreground">Your bid</dt>
              <dd className="font-semibold">{formatMoney(mine.amount)}</dd>
            </div>
            <div className="rounded-md bg-primary/5 p-2">
              <dt className="text-xs text-muted-foreground">Your maximum</dt>
              <dd className="font-semibold">{formatMoney(myMaximum ?? mine.amount)}</dd>
            </div>
          </>
        )}
        <div className="col-span-2 rounded-md bg-muted/60 p-2">
          <dt className="text-xs text-muted-foreground">Auction ends</dt>
          <dd className={cn('-mx-1 px-1 font-semibold tabular-nums', endFlash && 'live-flash')}>
            {fmtDateTime(slot.auctionEnd)} · {closed ? 'Auction closed' : timeLeft(slot.auctionEnd, now)}
          </dd>
        </div>
      </dl>
      {mine?.status === 'ACTIVE' && (
        <p className="mt-2 text-xs text-muted-foreground" data-testid="panel-leader-pays">
          {leaderPaysLine(slot)} A higher amount raises your maximum; your visible bid stays where it is until someone bids against you.
        </p>
      )}
    </SheetHeader>
  )
}
