import * as React from 'react'
import { BID_STEP, creatorSharePercent, pinDurationSpan, platformFeePercent, round2 } from '@/lib/bids'
import { daysText } from '@/lib/spans'
import { Gavel, Heart, MessageCircle, Pin, RotateCcw, Timer, Trophy } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Badge } from '@/components/ui/badge'
import { MoneyInput } from '@/components/money-input'
import { Label } from '@/components/ui/label'
import { formatMoney, readMoney } from '@/lib/money'
import { cn } from '@/lib/utils'
import { currentPrice, rank, RESERVE, secondPrice, split, type DemoBidder } from './auction'
import { useHydrated } from '@/hooks/use-hydrated'

/** The demo slot's length: the longest a slot may be pinned (served). */
const demoDays = () => daysText(pinDurationSpan().longest)

const AUCTION_SECONDS = 45

const RIVALS: DemoBidder[] = [
  { id: 'glow', name: 'GlowSkin Co.', ceiling: 58, seq: 1 },
  { id: 'trail', name: 'TrailFuel', ceiling: 44, seq: 2 },
]

type Phase = 'open' | 'closed'

export function AuctionDemo() {
  const hydrated = useHydrated()
  const [bidders, setBidders] = React.useState<DemoBidder[]>(RIVALS)
  const [seq, setSeq] = React.useState(3)
  const [amount, setAmount] = React.useState('')
  const [error, setError] = React.useState<string | null>(null)
  const [phase, setPhase] = React.useState<Phase>('open')
  const [secondsLeft, setSecondsLeft] = React.useState<number | null>(null)
  const [log, setLog] = React.useState<string[]>(['GlowSkin Co. and TrailFuel are bidding with hidden maximums.'])
  const inputId = React.useId()

  const ranked = rank(bidders)
  const price = currentPrice(bidders)
  const you = bidders.find((b) => b.isYou)
  const youLead = ranked[0]?.isYou === true
  // the app's accepting rule: more than the current price (a cent above), at least the reserve
  const minNext = round2(price + BID_STEP)

  React.useEffect(() => {
    if (secondsLeft === null || phase !== 'open') return
    if (secondsLeft <= 0) {
      setPhase('closed')
      return
    }
    const t = window.setTimeout(() => setSecondsLeft((s) => (s === null ? s : s - 1)), 1000)
    return () => window.clearTimeout(t)
  }, [secondsLeft, phase])

  function placeBid(e: React.FormEvent) {
    e.preventDefault()
    const reading = readMoney(amount)
    if (!reading.ok) {
      setError(amount.trim() ? reading.message : 'Enter your maximum bid in dollars.')
      return
    }
    const value = reading.cents / 100
    if (value < minNext && !youLead) {
      setError(`Your bid must be higher than the current bid (${formatMoney(price)}): at least ${formatMoney(minNext)}.`)
      return
    }
    if (you && value <= you.ceiling) {
      setError(`You already bid up to ${formatMoney(you.ceiling)}. Enter a higher maximum.`)
      return
    }
    setError(null)
    const next = [...bidders.filter((b) => !b.isYou), { id: 'you', name: 'You', ceiling: value, seq, isYou: true }]
    setSeq((s) => s + 1)
    setBidders(next)
    if (secondsLeft === null) setSecondsLeft(AUCTION_SECONDS)
    const leader = rank(next)[0]
    const shown = currentPrice(next)
    setLog((l) => [
      leader.isYou
        ? `You lead: you would pay ${formatMoney(shown)} if it ended now. Your maximum of ${formatMoney(value)} stays hidden.`
        : `${leader.name}'s auto-bid outbid you. Current bid: ${formatMoney(shown)}, what ${leader.name} would pay now.`,
      ...l,
    ].slice(0, 4))
    setAmount('')
  }

  function endNow() {
    setPhase('closed')
  }

  function reset() {
    setBidders(RIVALS)
    setSeq(3)
    setAmount('')
    setError(null)
    setPhase('open')
    setSecondsLeft(null)
    setLog(['GlowSkin Co. and TrailFuel are bidding with hidden maximums.'])
  }

  const winner = ranked[0]
  const pays = secondPrice(bidders)
  const { fee, net } = split(pays)

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,0.9fr)_minmax(0,1.1fr)]">
      {/* The post being auctioned */}
      <div className="overflow-hidden rounded-2xl border bg-card shadow-sm">
        <div className="flex items-center gap-3 px-4 py-3">
          <div className="flex size-9 items-center justify-center rounded-full bg-gradient-to-br from-amber-400 to-pink-500 text-sm font-bold text-white">M</div>
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold">maya.moves</p>
            <p className="text-xs text-muted-foreground">248K followers · Fitness</p>
          </div>
        </div>
        <div aria-hidden="true" className="relative aspect-[4/3] bg-gradient-to-br from-violet-500 via-fuchsia-500 to-orange-400">
          <div className="absolute inset-0 flex items-center justify-center text-5xl font-black tracking-tight text-white/90 drop-shadow">
            5AM CLUB
          </div>
        </div>
        <div className="space-y-3 p-4 text-sm">
          <div className="flex gap-4 text-muted-foreground">
            <span className="inline-flex items-center gap-1">
              <Heart className="size-4" /> 18.4K
            </span>
            <span className="inline-flex items-center gap-1">
              <MessageCircle className="size-4" /> 612
            </span>
          </div>
          <div className={cn('rounded-xl border border-dashed p-3', phase === 'closed' && 'border-solid border-primary/40 bg-primary/5 animate-pop')}>
            <p className="mb-1 inline-flex items-center gap-1 text-xs font-medium text-primary">
              <Pin className="size-3.5" /> Pinned comment
            </p>
            {phase === 'closed' ? (
              <p>
                <span className="font-semibold">{winner.isYou ? 'yourbrand' : winner.id === 'glow' ? 'glowskin.co' : 'trailfuel'}</span>{' '}
                {winner.isYou ? `Your message sits at the top of the conversation for ${demoDays()}. #ad` : 'Hydration that keeps up with your 5AM. #ad'}
              </p>
            ) : (
              <p className="text-muted-foreground">This spot goes to the winning brand, for {demoDays()}.</p>
            )}
          </div>
        </div>
      </div>

      {/* The auction */}
      <div className="flex flex-col gap-4 rounded-2xl border bg-card p-5 shadow-sm sm:p-6">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <p className="text-sm text-muted-foreground">{phase === 'closed' ? 'Final price' : 'Current bid'}</p>
            <p className="text-3xl font-bold tabular-nums" aria-live="polite">
              {formatMoney(phase === 'closed' ? pays : price)}
            </p>
            <p className="text-xs text-muted-foreground">
              {phase === 'closed' ? 'The price shown while it ran: the second-highest maximum' : `Reserve ${formatMoney(RESERVE)} · what the leader pays if it ends now`}
            </p>
          </div>
          <Badge variant={phase === 'closed' ? 'secondary' : 'soft'} className="gap-1.5 px-3 py-1 text-sm">
            <Timer />
            {phase === 'closed' ? 'Auction ended' : secondsLeft === null ? 'Waiting for your bid' : `0:${String(secondsLeft).padStart(2, '0')} left`}
          </Badge>
        </div>

        <ol aria-label="Bidders, highest first" className="divide-y rounded-xl border">
          {ranked.map((b, i) => (
            <li key={b.id} className={cn('flex items-center justify-between gap-3 px-4 py-2.5 text-sm', b.isYou && 'bg-primary/5')}>
              <span className="flex items-center gap-2">
                <span className="w-4 text-xs text-muted-foreground tabular-nums">{i + 1}</span>
                <span className={cn(b.isYou && 'font-semibold')}>{b.name}</span>
                {i === 0 && <Badge variant={phase === 'closed' ? 'success' : 'soft'}>{phase === 'closed' ? 'Winner' : 'Leading'}</Badge>}
              </span>
              <span className="whitespace-nowrap text-muted-foreground tabular-nums">
                {phase === 'closed' || b.isYou ? `max ${formatMoney(b.ceiling)}` : 'max hidden'}
              </span>
            </li>
          ))}
        </ol>

        {phase === 'open' ? (
          <form inert={!hydrated} onSubmit={placeBid} noValidate className="grid gap-2">
            <Label htmlFor={inputId}>Your maximum bid (USD)</Label>
            <div className="flex gap-2">
              <div className="flex-1">
                <MoneyInput id={inputId} placeholder={String(Math.ceil(minNext))} value={amount} onValueChange={setAmount} problem={error} />
              </div>
              <Button type="submit">
                <Gavel /> Place Bid
              </Button>
            </div>
            <div className="flex flex-wrap items-center gap-2 pt-1">
              {[50, 65, 80].map((v) => (
                <Button key={v} type="button" size="sm" variant="outline" onClick={() => setAmount(String(v))}>
                  {formatMoney(v)}
                </Button>
              ))}
              {secondsLeft !== null && (
                <Button type="button" size="sm" variant="ghost" onClick={endNow} className="ml-auto">
                  End auction now
                </Button>
              )}
            </div>
          </form>
        ) : (
          <div role="status" className="space-y-3 rounded-xl bg-muted/60 p-4 text-sm">
            <p className="flex items-center gap-2 font-semibold">
              <Trophy className="size-4 text-amber-500" />
              {winner.isYou ? 'You won the pinned comment!' : `${winner.name} won the pinned comment.`}
            </p>
            <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1.5">
              <dt className="text-muted-foreground">Winner’s maximum</dt>
              <dd className="text-right tabular-nums">{formatMoney(winner.ceiling)}</dd>
              <dt className="text-muted-foreground">Winner pays (second-highest bid)</dt>
              <dd className="text-right font-semibold tabular-nums">{formatMoney(pays)}</dd>
              <dt className="text-muted-foreground">Platform fee ({platformFeePercent()}%)</dt>
              <dd className="text-right tabular-nums">−{formatMoney(fee)}</dd>
              <dt className="font-medium">Creator receives ({creatorSharePercent()}%)</dt>
              <dd className="text-right font-bold text-success tabular-nums">{formatMoney(net)}</dd>
            </dl>
            <Button type="button" variant="outline" size="sm" onClick={reset}>
              <RotateCcw /> Run it again
            </Button>
          </div>
        )}

        <ul aria-live="polite" aria-label="Auction activity" className="space-y-1 text-xs text-muted-foreground">
          {log.map((line, i) => (
            <li key={`${i}-${line}`} className={cn(i === 0 && 'text-foreground')}>
              {line}
            </li>
          ))}
        </ul>
      </div>
    </div>
  )
}
