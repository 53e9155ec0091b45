import { BadgeCheck, Clock, Eye, Heart, ShieldCheck, Users, type LucideIcon } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { compactNumber, timeLeft } from '@/lib/bids'
import { capitalize, cn } from '@/lib/utils'
import { formatMoney } from '@/lib/money'
import { fmtShortDateTime } from '@/components/common'
import { SlotMedia } from '@/components/slot-media'
import type { Slot } from '@/api/types'
import { useLiveSlots } from '@/api/live/LiveProvider'
import { useFlash, useNow } from '@/hooks/use-motion'

export function SlotCard({ slot, onBid, layout = 'grid', buttonText = 'View Details & Bid', showMinBid = true }: { slot: Slot; onBid: (slot: Slot) => void; layout?: 'grid' | 'list'; buttonText?: string; showMinBid?: boolean }) {
  const profile = slot.user.influencerProfile
  const list = layout === 'list'
  useLiveSlots([slot.id])
  const now = useNow()
  const open = slot.status === 'ACTIVE' && new Date(slot.auctionEnd).getTime() > now.getTime()
  const bidFlash = useFlash(slot.currentBid)
  const countFlash = useFlash(slot.bidderCount)
  const endFlash = useFlash(slot.auctionEnd)
  return (
    <article
      aria-labelledby={`slot-${slot.id}-title`}
      className={cn('flex overflow-hidden rounded-xl border bg-card shadow-xs transition-shadow hover:shadow-md', list ? 'flex-col sm:flex-row' : 'flex-col')}
    >
      <div className={cn('relative shrink-0', list ? 'aspect-[4/3] sm:aspect-auto sm:w-56' : 'aspect-[4/3]')}>
        <SlotMedia url={slot.post.imageUrl} mediaType={slot.post.mediaType} alt={slot.title} className="absolute inset-0 size-full" />
        <div className="absolute top-2 left-2 flex flex-wrap gap-1">
          <Badge variant="secondary" className="bg-background/90">
            {capitalize(slot.category)}
          </Badge>
          {profile.verified && (
            <Badge variant="default" className="gap-1">
              <BadgeCheck className="size-3" aria-hidden="true" /> Verified
            </Badge>
          )}
        </div>
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-3 p-4">
        <div className="flex flex-wrap items-center justify-between gap-x-2 gap-y-0.5 text-xs text-muted-foreground">
          <span className={cn('flex items-center gap-1 px-0.5 font-medium text-foreground tabular-nums', endFlash && 'live-flash')} data-testid="slot-time-left">
            <Clock className="size-3.5" aria-hidden="true" /> {open ? timeLeft(slot.auctionEnd, now) : 'Auction closed'}
          </span>
          <span>{open ? 'Ends' : 'Ended'} {fmtShortDateTime(slot.auctionEnd)}</span>
        </div>
        <div className="min-w-0">
          <h3 id={`slot-${slot.id}-title`} className="truncate font-semibold">
            {slot.title}
          </h3>
          <p className="truncate text-sm text-muted-foreground">
            {slot.user.name}
            {slot.user.instagramHandle && <> · @{slot.user.instagramHandle}</>}
          </p>
          <p className="mt-1 line-clamp-2 text-sm">{slot.description || slot.title}</p>
          <CreatorRecord record={slot.user.record} />
        </div>
        <dl className="grid grid-cols-3 gap-1.5 text-center text-xs">
          <Stat icon={Eye} label="Avg. views" value={compactNumber(profile.avgViews)} />
          <Stat icon={Users} label="Followers" value={compactNumber(profile.followers)} />
          <Stat icon={Heart} label="Engagement" value={`${profile.avgEngagement.toFixed(1)}%`} />
        </dl>
        <div className="mt-auto flex items-end justify-between gap-2">
          <div>
            <p className="text-xs text-muted-foreground">Current bid</p>
            <p className={cn('-mx-1 px-1 text-lg font-bold tabular-nums', bidFlash && 'live-flash')} data-testid="slot-current-bid">
              {slot.currentBid != null ? formatMoney(slot.currentBid) : 'No bids yet'}
            </p>
            {showMinBid && <p className="text-xs text-muted-foreground">Min. bid {formatMoney(slot.minBid)}</p>}
          </div>
          <p className={cn('px-1 text-xs text-muted-foreground tabular-nums', countFlash && 'live-flash')} data-testid="slot-bid-count">
            {slot.bidderCount} {slot.bidderCount === 1 ? 'bid' : 'bids'}
          </p>
        </div>
        <Button onClick={() => onBid(slot)} disabled={!open} className="w-full" aria-label={`${open ? buttonText : 'Auction closed'}: ${slot.title}`}>
          {open ? buttonText : 'Auction closed'}
        </Button>
      </div>
    </article>
  )
}

function Stat({ icon: Icon, label, value }: { icon: LucideIcon; label: string; value: string }) {
  return (
    <div className="min-w-0 rounded-md bg-muted/60 px-1 py-2">
      <dt className="flex items-center justify-center gap-1 truncate text-[11px] text-muted-foreground">
        <Icon className="hidden size-3 shrink-0 min-[1400px]:block" aria-hidden="true" />
        <span className="truncate">{label}</span>
      </dt>
      <dd className="mt-0.5 font-semibold">{value}</dd>
    </div>
  )
}

/** The creator's reliability in one line: placements kept to the end, and how fast they decide; "New creator"
 * before any placement finished. The title tells what each figure means. */
export function CreatorRecord({ record }: { record: Slot['user']['record'] }) {
  if (record.keptPercent == null) {
    return <p className="mt-1 text-xs text-muted-foreground" title="No placement of this creator has finished yet.">New creator</p>
  }
  const decides = record.responseMinutes == null ? null : record.responseMinutes < 90 ? `${record.responseMinutes} min` : `${Math.round(record.responseMinutes / 60)} h`
  return (
    <p
      className="mt-1 flex items-center gap-1 text-xs text-muted-foreground"
      title="Of this creator's finished placements, the share kept pinned for the whole duration; and how long they usually take to approve a winning bid."
    >
      <ShieldCheck className="size-3.5 text-success" aria-hidden="true" />
      <span>
        <b className="text-foreground">{record.keptPercent}% kept</b> · {record.placements} {record.placements === 1 ? 'placement' : 'placements'}
        {decides && <> · decides in {decides}</>}
      </span>
    </p>
  )
}
