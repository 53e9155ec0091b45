import * as React from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { Camera, Zap } from 'lucide-react'
import { api } from '@/api/client'
import { ApiError, serverMessage, unwrap } from '@/api/errors'
import { Button } from '@/components/ui/button'
import { Label } from '@/components/ui/label'
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet'
import { Spinner } from '@/components/ui/spinner'
import { Switch } from '@/components/ui/switch'
import { Textarea } from '@/components/ui/textarea'
import { bidMaximum, buildBidBody, defaultBidAmount, largeBidRatio, liveBidOn, minimumNextBid, money2, timeLeft, validateBidAmount, validateComment, validateMaxAutoBid, type Bid, type CommentMode } from '@/lib/bids'
import { formatCents, readMoney } from '@/lib/money'
import { MoneyInput } from '@/components/money-input'
import { brandLabel, disclosed, maxNewCommentLength, startsWithDisclosure } from '@/lib/disclosure'
import { cn } from '@/lib/utils'
import { useAuth } from '@/auth/session'
import { fmtDateTime, fmtMoney } from '@/components/common'
import { useFocusReturn } from '@/hooks/use-focus-return'
import { KEYS } from '@/api/keys'
import type { Slot } from '@/api/types'
import { buyerBidsQuery, commentsQuery } from './api/queries'
import { connectReturn } from '@/lib/return-notes'
import { CreatorRecord } from './SlotCard'
import { LargeBidDialog, type LargeBid } from './LargeBidDialog'
import { useFlash, useNow } from '@/hooks/use-motion'
import { learnCurrentBid, useLiveSlot } from '@/api/live/slots'

export const BID_FAILED = 'There was an error placing your bid.'

/** The success toast's words: a leader's raise moves only the maximum, so say so rather than repeat the price. */
type BidFigures = Pick<Bid, 'status' | 'amount' | 'maxAutoBid' | 'autoBidEnabled'>

/** Said beside the amount, before the buyer submits, when the amount typed no longer beats the current bid. An
 *  amount that cannot be read is not also called too low: the field says how to type it. */
export function tooLowWarning(raw: string, slot: Pick<Slot, 'currentBid' | 'minBid'>, openedAt: number | null): string | null {
  if (!readMoney(raw).ok || !validateBidAmount(raw, slot)) return null
  const least = `Bid at least ${fmtMoney(minimumNextBid(slot))}.`
  if (slot.currentBid != null && slot.currentBid !== openedAt) return `Too low: the current bid is now ${fmtMoney(slot.currentBid)}. ${least}`
  return `Too low. ${least}`
}

export function bidPlacedText(placed: BidFigures, before?: BidFigures): string {
  const max = bidMaximum(placed)
  if (before?.status === 'ACTIVE' && placed.status === 'ACTIVE' && placed.amount === before.amount && max != null) {
    const stays = `Your visible bid stays at ${fmtMoney(placed.amount)} until someone bids against you.`
    if (max > (bidMaximum(before) ?? before.amount)) return `Your maximum is now ${fmtMoney(max)}. ${stays}`
    return `Your maximum stays at ${fmtMoney(max)}, above this amount. ${stays}`
  }
  if (placed.status !== 'ACTIVE') return `Your bid of ${fmtMoney(placed.amount)} was placed, but another bidder's maximum is higher.`
  return `You are the highest bidder at ${fmtMoney(placed.amount)}${max != null ? `, with a maximum of ${fmtMoney(max)}` : ''}.`
}

export function PlaceBidSheet({ slot, onOpenChange }: { slot: Slot | null; onOpenChange: (open: boolean) => void }) {
  const focusReturn = useFocusReturn()
  return (
    <Sheet open={slot !== null} onOpenChange={onOpenChange}>
      <SheetContent className="w-full overflow-y-auto sm:max-w-md" aria-describedby={undefined} {...focusReturn}>
        {slot && <PlaceBidForm key={slot.id} slot={slot} onDone={() => onOpenChange(false)} />}
      </SheetContent>
    </Sheet>
  )
}

function PlaceBidForm({ slot: opened, onDone }: { slot: Slot; onDone: () => void }) {
  const queryClient = useQueryClient()
  const slot = useLiveSlot(opened)
  const now = useNow()
  const [openedAt] = React.useState(opened.currentBid)
  const [typed, setAmount] = React.useState<string | null>(null)
  // until the buyer types, the suggested amount follows the live current bid
  const amount = typed ?? money2(defaultBidAmount(slot))
  const warning = tooLowWarning(amount, slot, openedAt)
  const closed = slot.status !== 'ACTIVE' || new Date(slot.auctionEnd).getTime() <= now.getTime()
  const bidFlash = useFlash(slot.currentBid)
  const endFlash = useFlash(slot.auctionEnd)
  const [autoBid, setAutoBid] = React.useState(false)
  const [maxAutoBid, setMaxAutoBid] = React.useState('')
  const [largeBid, setLargeBid] = React.useState<(LargeBid & { body: ReturnType<typeof buildBidBody> }) | null>(null)
  const comments = useQuery({ ...commentsQuery(slot.id), retry: false, staleTime: 0 })
  const myBids = useQuery({ ...buyerBidsQuery(), staleTime: 0 })
  const mine = liveBidOn(myBids.data, slot.id)
  const myMaximum = mine ? bidMaximum(mine) : null
  const keepable = Boolean(mine?.comment || mine?.commentId)
  const notConnected = comments.error instanceof ApiError && comments.error.status === 401
  const hasComments = (comments.data?.length ?? 0) > 0
  const [mode, setMode] = React.useState<CommentMode | null>(null)
  const effectiveMode: CommentMode = mode ?? (keepable ? 'keep' : hasComments ? 'existing' : 'new')
  const [selected, setSelected] = React.useState<string | null>(null)
  const [text, setText] = React.useState('')
  const { user } = useAuth()
  const brand = brandLabel(user?.instagramHandle, user?.businessName, user?.name)

  const invalidate = () => {
    void queryClient.invalidateQueries({ queryKey: KEYS.slotsAll })
    void queryClient.invalidateQueries({ queryKey: KEYS.buyerBids })
    void queryClient.invalidateQueries({ queryKey: KEYS.buyerDashboard })
  }

  const place = useMutation({
    mutationFn: async (body: ReturnType<typeof buildBidBody>) => unwrap(await api().POST('/buyer/bids', { body })),
    onSuccess: (bid) => {
      toast.success('Bid Placed Successfully!', { description: bidPlacedText(bid, mine) })
      invalidate()
      onDone()
    },
    onError: (err) => {
      const told = err instanceof ApiError ? err.body?.currentBid : undefined
      if (typeof told === 'number') learnCurrentBid(queryClient, slot, told)
      toast.error('Bid Failed', { description: serverMessage(err, BID_FAILED) })
    },
  })

  const buyNow = useMutation({
    mutationFn: async (body: { pinSlotId: string; commentId?: string; commentUsername?: string; commentText?: string; newCommentText?: string }) =>
      unwrap(await api().POST('/buyer/buy-now', { body })),
    onSuccess: () => {
      toast.success('Purchase Successful', { description: 'The slot is yours. The creator will review it before you pay.' })
      invalidate()
      onDone()
    },
    onError: (err) => toast.error('Buy Now Failed', { description: serverMessage(err, 'There was an error buying this slot.') }),
  })

  const connect = useMutation({
    mutationFn: async () => unwrap(await api().GET('/instagram/connect')),
    onSuccess: ({ url }) => {
      connectReturn.remember(slot.id)
      window.location.assign(url)
    },
    onError: (err) => toast.error('Could not connect Instagram', { description: serverMessage(err, 'Failed to start the Instagram connection. Please try again.') }),
  })

  const mode2: CommentMode = notConnected && effectiveMode === 'existing' ? (keepable ? 'keep' : 'new') : effectiveMode
  const selectedComment = comments.data?.find((c) => c.id === selected)

  function commentProblem() {
    return validateComment(mode2, selected, text)
  }

  function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    const amountError = validateBidAmount(amount, slot)
    const reading = readMoney(amount)
    if (amountError || !reading.ok) {
      toast.error('Invalid Bid Amount', { description: amountError ?? BID_FAILED })
      return
    }
    const maxReading = autoBid ? readMoney(maxAutoBid) : null
    if (maxReading) {
      const maxError = validateMaxAutoBid(maxAutoBid, reading.cents)
      if (maxError || !maxReading.ok) {
        toast.error('Invalid Maximum Bid', { description: maxError ?? BID_FAILED })
        return
      }
    }
    const problem = commentProblem()
    if (problem) {
      toast.error(problem.title, { description: problem.description })
      return
    }
    const maxCents = maxReading?.ok ? maxReading.cents : null
    const body = buildBidBody({
      slotId: slot.id,
      amount: reading.cents / 100,
      autoBid,
      maxAutoBid: maxCents != null ? maxCents / 100 : null,
      mode: mode2,
      commentId: selected,
      commentUsername: selectedComment?.username,
      commentText: selectedComment?.comment,
      text,
    })
    const highestCents = Math.max(reading.cents, maxCents ?? 0)
    const ratio = largeBidRatio(highestCents, slot)
    if (ratio != null) setLargeBid({ body, highestCents, automatic: maxCents != null && maxCents > reading.cents, ratio, price: slot.currentBid ?? slot.minBid })
    else place.mutate(body)
  }

  function onBuyNow() {
    const problem = commentProblem()
    if (problem) {
      toast.error(problem.title, { description: problem.description })
      return
    }
    buyNow.mutate({
      pinSlotId: slot.id,
      ...(mode2 === 'existing' && selected ? { commentId: selected, commentUsername: selectedComment?.username, commentText: selectedComment?.comment } : {}),
      ...(mode2 === 'new' && text.trim() ? { newCommentText: text.trim() } : {}),
    })
  }

  const typedReading = readMoney(amount)
  const busy = place.isPending || buyNow.isPending
  const canBuyNow = !closed && slot.buyNowPrice != null && slot.bidCount === 0

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-1 flex-col">
      <SheetHeader className="border-b pr-10">
        <SheetTitle className="text-lg">Place a Bid</SheetTitle>
        <SheetDescription className="sr-only">Bid on {slot.title}</SheetDescription>
        <p className="font-medium">{slot.title}</p>
        <p className="text-sm text-muted-foreground">{slot.user.name}</p>
        <CreatorRecord record={slot.user.record} />
        <dl className="mt-2 grid grid-cols-2 gap-2 text-sm">
          <div className="rounded-md bg-muted/60 p-2">
            <dt className="text-xs text-muted-foreground">Current bid</dt>
            <dd className={cn('-mx-1 px-1 font-semibold tabular-nums', bidFlash && 'live-flash')} data-testid="panel-current-bid">
              {slot.currentBid != null ? fmtMoney(slot.currentBid) : 'No bids yet'}
            </dd>
          </div>
          <div className="rounded-md bg-muted/60 p-2">
            <dt className="text-xs text-muted-foreground">{slot.currentBid != null ? 'Minimum next bid' : 'Minimum bid'}</dt>
            <dd className={cn('-mx-1 px-1 font-semibold tabular-nums', bidFlash && 'live-flash')} data-testid="panel-minimum-next">
              {fmtMoney(minimumNextBid(slot))}
            </dd>
          </div>
          {mine && (
            <>
              <div className="rounded-md bg-primary/5 p-2">
                <dt className="text-xs text-muted-foreground">Your bid</dt>
                <dd className="font-semibold">{fmtMoney(mine.amount)}</dd>
              </div>
              <div className="rounded-md bg-primary/5 p-2">
                <dt className="text-xs text-muted-foreground">Your maximum</dt>
                <dd className="font-semibold">{fmtMoney(myMaximum ?? mine.amount)}</dd>
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
          <p className="mt-2 text-xs text-muted-foreground">You are leading. A higher amount raises your maximum; your visible bid stays where it is until someone bids against you.</p>
        )}
      </SheetHeader>

      <div className="flex flex-1 flex-col gap-6 p-4">
        <section className="grid gap-3" aria-labelledby="bid-step-1">
          <h3 id="bid-step-1" className="text-sm font-semibold">
            Step 1: Your bid amount
          </h3>
          <div className="grid gap-2">
            <Label htmlFor="bid-amount">Bid amount (USD)</Label>
            <MoneyInput id="bid-amount" value={amount} onValueChange={setAmount} problem={warning} />
          </div>
          <div className="flex items-center justify-between gap-3 rounded-lg border p-3">
            <div>
              <Label htmlFor="auto-bid" className="flex items-center gap-1">
                <Zap className="size-4 text-primary" aria-hidden="true" /> Automatic bidding
              </Label>
              <p className="text-xs text-muted-foreground">We bid for you, one step at a time, up to your maximum.</p>
            </div>
            <Switch id="auto-bid" checked={autoBid} onCheckedChange={setAutoBid} />
          </div>
          {autoBid && (
            <div className="grid gap-2">
              <Label htmlFor="max-auto-bid">Maximum auto-bid (USD)</Label>
              <MoneyInput id="max-auto-bid" value={maxAutoBid} onValueChange={setMaxAutoBid} />
            </div>
          )}
        </section>

        <section className="grid gap-3" aria-labelledby="bid-step-2">
          <h3 id="bid-step-2" className="text-sm font-semibold">
            Step 2: Your comment
          </h3>
          {comments.isPending ? (
            <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
              <Spinner /> Loading your comments...
            </p>
          ) : notConnected ? (
            <div className="rounded-lg border border-amber-300/60 bg-amber-50 p-3 text-sm">
              <p className="flex items-center gap-2 font-medium">
                <Camera className="size-4" aria-hidden="true" /> Connect Instagram to use one of your comments
              </p>
              <p className="mt-1 text-muted-foreground">You can still bid now: write a new comment below, or add it later from My Bids.</p>
              <Button type="button" variant="outline" size="sm" className="mt-2 bg-background" onClick={() => connect.mutate()} disabled={connect.isPending}>
                {connect.isPending && <Spinner />} Connect Instagram
              </Button>
            </div>
          ) : null}
          {!comments.isPending && (
            <fieldset className="grid gap-2">
              <legend className="sr-only">Comment choice</legend>
              {keepable && mine && (
                <ModeOption
                  name="comment-mode"
                  value="keep"
                  checked={mode2 === 'keep'}
                  onChange={setMode}
                  label={
                    <>
                      Keep my comment: <span className="text-muted-foreground">{mine.comment ? `“${mine.comment}”` : 'the one I chose'}</span>
                    </>
                  }
                />
              )}
              {!notConnected && (
                <ModeOption name="comment-mode" value="existing" checked={mode2 === 'existing'} onChange={setMode} label="Use a previous comment" />
              )}
              {mode2 === 'existing' && !notConnected && (
                <div className="ml-6 grid gap-2">
                  {hasComments ? (
                    comments.data?.map((c) => {
                      const disclosedAtStart = startsWithDisclosure(c.comment ?? '')
                      return (
                        <label key={c.id} className={cn('flex gap-2 rounded-md border p-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/5', disclosedAtStart ? 'cursor-pointer' : 'cursor-not-allowed opacity-70')}>
                          <input type="radio" name="comment-id" value={c.id} checked={selected === c.id} disabled={!disclosedAtStart} onChange={() => setSelected(c.id)} className="mt-1 accent-[var(--primary)]" />
                          <span>
                            <span className="font-medium">@{c.username}</span> {c.comment}
                            {!disclosedAtStart && (
                              <span className="mt-1 block text-xs text-muted-foreground">Needs an ad disclosure at its start (for example “#ad …”) before it can be pinned: edit it on Instagram, or write a new comment.</span>
                            )}
                          </span>
                        </label>
                      )
                    })
                  ) : (
                    <p className="text-sm text-muted-foreground">You have no comments on this post yet.</p>
                  )}
                </div>
              )}
              <ModeOption name="comment-mode" value="new" checked={mode2 === 'new'} onChange={setMode} label="Write a new comment" />
              {mode2 === 'new' && (
                <div className="ml-6 grid gap-1">
                  <Label htmlFor="new-comment" className="sr-only">
                    New comment
                  </Label>
                  <Textarea id="new-comment" value={text} onChange={(e) => setText(e.target.value)} maxLength={maxNewCommentLength()} placeholder="What should the pinned comment say?" aria-describedby="new-comment-preview" />
                  <p id="new-comment-preview" className="text-xs text-muted-foreground">
                    Posted from the creator's account with the disclosure first: <span className="font-medium text-foreground">{disclosed(text || '…', brand)}</span>
                    <span className="block tabular-nums">{maxNewCommentLength() - text.length} characters left</span>
                  </p>
                </div>
              )}
              <ModeOption name="comment-mode" value="later" checked={mode2 === 'later'} onChange={setMode} label="Add my comment later" />
            </fieldset>
          )}
        </section>
      </div>

      <div className="sticky bottom-0 grid gap-2 border-t bg-background p-4">
        {closed && (
          <p role="status" className="text-center text-sm font-medium text-muted-foreground">
            This auction has closed.
          </p>
        )}
        <Button type="submit" disabled={busy || closed} className="w-full">
          {place.isPending && <Spinner />}
          {place.isPending ? 'Placing Bid...' : `Place Bid: ${typedReading.ok ? formatCents(typedReading.cents) : '$0.00'}`}
        </Button>
        {canBuyNow && (
          <Button type="button" variant="outline" disabled={busy} className="w-full" onClick={onBuyNow}>
            {buyNow.isPending && <Spinner />} Buy Now for {fmtMoney(slot.buyNowPrice)}
          </Button>
        )}
      </div>
      <LargeBidDialog
        bid={largeBid}
        onCancel={() => setLargeBid(null)}
        onConfirm={() => {
          if (largeBid) place.mutate(largeBid.body)
          setLargeBid(null)
        }}
      />
    </form>
  )
}

function ModeOption({ name, value, checked, onChange, label }: { name: string; value: CommentMode; checked: boolean; onChange: (m: CommentMode) => void; label: React.ReactNode }) {
  return (
    <label className="flex cursor-pointer items-start gap-2 text-sm">
      <input type="radio" name={name} value={value} checked={checked} onChange={() => onChange(value)} className="mt-0.5 accent-[var(--primary)]" />
      <span>{label}</span>
    </label>
  )
}
