import * as React from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { toldByAction } from '@/lib/told'
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from '@/lib/zod'
import { ApiError, serverMessage } from '@/api/errors'
import { bidAgainAmount, bidMaximum, buildBidBody, defaultBidAmount, largeBidRatio, liveBidOn, money2, validateComment, type CommentMode } from '@/lib/bids'
import { readMoney } from '@/lib/money'
import { brandLabel } from '@/lib/disclosure'
import { useAuth } from '@/auth/session'
import { KEYS } from '@/api/keys'
import type { Slot } from '@/api/types'
import { buyerBidsQuery } from '@/api/queries'
import { commentsQuery } from '../api/queries'
import { buyNowSlot, placeBid } from '../api/mutations'
import { connectInstagram, instagramConnectionQuery } from '@/api/queries'
import { connectReturn } from '@/lib/return-notes'
import { type LargeBid } from '../LargeBidDialog'
import { useNow } from '@/hooks/use-motion'
import { learnCurrentBid, useLiveSlot } from '@/api/live/slots'

import { BID_FAILED, bidPlacedText, bidProblem, tooLowWarning, type BidInput } from '../place-bid'

interface BidFormValues {
  typedAmount: string | null
  autoBid: boolean
  maxAutoBid: string
  mode: CommentMode | null
  selected: string | null
  text: string
}

const EMPTY_BID: BidFormValues = { typedAmount: null, autoBid: false, maxAutoBid: '', mode: null, selected: null, text: '' }

/** What the panel suggests until the brand types: the next bid (current + 1), or for Bid Again the spec's current + 10. */
export type BidSuggestion = 'next' | 'again'
const SUGGESTED: Record<BidSuggestion, (slot: Slot) => number> = { next: defaultBidAmount, again: bidAgainAmount }

/** The panel's schema: its fields, and bidProblem's rule on the amount as it stands (typed, or the live suggestion). */
function bidFormSchema(slot: Slot, mode: CommentMode, suggest: BidSuggestion) {
  return z
    .object({ typedAmount: z.string().nullable(), autoBid: z.boolean(), maxAutoBid: z.string(), mode: z.enum(['keep', 'existing', 'new', 'later']).nullable(), selected: z.string().nullable(), text: z.string() })
    .superRefine((values, ctx) => {
      const amount = values.typedAmount ?? money2(SUGGESTED[suggest](slot))
      const problem = bidProblem({ amount, autoBid: values.autoBid, maxAutoBid: values.maxAutoBid, mode, selected: values.selected, text: values.text }, slot)
      if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.description })
    })
}

/** The bid panel's state and its three calls (bid, Buy Now, connect Instagram): what the panel shows comes from here. */
export function usePlaceBidForm(opened: Slot, onDone: () => void, suggest: BidSuggestion = 'next') {
  const queryClient = useQueryClient()
  const slot = useLiveSlot(opened)
  const now = useNow()
  const [openedAt] = React.useState(opened.currentBid)
  // the schema reads the live slot and the comment mode in force, both known only at submit time
  const form = useForm<BidFormValues>({ resolver: (values, context, options) => zodResolver(bidFormSchema(slot, mode2, suggest))(values, context, options), defaultValues: EMPTY_BID })
  const [typed, autoBid, maxAutoBid, mode, selected, text] = useWatch({ control: form.control, name: ['typedAmount', 'autoBid', 'maxAutoBid', 'mode', 'selected', 'text'] })
  const setAmount = (value: string) => form.setValue('typedAmount', value)
  const setAutoBid = (value: boolean) => form.setValue('autoBid', value)
  const setMaxAutoBid = (value: string) => form.setValue('maxAutoBid', value)
  const setMode = (value: CommentMode) => form.setValue('mode', value)
  const setSelected = (value: string) => form.setValue('selected', value)
  const setText = (value: string) => form.setValue('text', value)
  // until the buyer types, the suggested amount follows the live current bid
  const amount = typed ?? money2(SUGGESTED[suggest](slot))
  const warning = tooLowWarning(amount, slot, openedAt)
  const closed = slot.status !== 'ACTIVE' || new Date(slot.auctionEnd).getTime() <= now.getTime()
  const [largeBid, setLargeBid] = React.useState<(LargeBid & { body: ReturnType<typeof buildBidBody> }) | null>(null)
  // the brand's comments are not asked for when Instagram is known not to be connected (a 401 each time); a
  // connection that could not be read leaves the comments' own answer to say it
  const connection = useQuery(instagramConnectionQuery())
  const askComments = !connection.isPending && connection.data?.connected !== false
  const comments = useQuery({ ...commentsQuery(slot.id), retry: false, staleTime: 0, enabled: askComments })
  const myBids = useQuery({ ...buyerBidsQuery(), staleTime: 0 })
  const mine = liveBidOn(myBids.data, slot.id)
  const myMaximum = mine ? bidMaximum(mine) : null
  const keepable = Boolean(mine?.comment || mine?.commentId)
  // not connected, or connected with a token Instagram no longer takes (social answers 401 then)
  const notConnected = connection.data?.connected === false || (comments.error instanceof ApiError && comments.error.status === 401)
  const commentsLoading = connection.isPending || (askComments && comments.isPending)
  const hasComments = (comments.data?.length ?? 0) > 0
  const effectiveMode: CommentMode = mode ?? (keepable ? 'keep' : hasComments ? 'existing' : 'new')
  const { user } = useAuth()
  const brand = brandLabel(user?.instagramHandle, user?.businessName, user?.name)

  const invalidate = () => {
    void queryClient.invalidateQueries({ queryKey: KEYS.slotsAll })
    void queryClient.invalidateQueries({ queryKey: KEYS.buyerBids })
    void queryClient.invalidateQueries({ queryKey: KEYS.buyerDashboard })
  }

  const place = useMutation({
    mutationFn: placeBid,
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
    mutationFn: buyNowSlot,
    onSuccess: () => {
      toldByAction(['auction.won']) // "You won the auction" says the same
      toast.success('Purchase Successful', { description: 'The slot is yours. The creator will review it before you pay.' })
      invalidate()
      onDone()
    },
    onError: (err) => toast.error('Buy Now Failed', { description: serverMessage(err, 'There was an error buying this slot.') }),
  })

  const connect = useMutation({
    mutationFn: connectInstagram,
    onSuccess: ({ url }) => {
      connectReturn.remember(slot.id)
      window.location.assign(url)
    },
    onError: (err) => toast.error('Could not connect Instagram', { description: serverMessage(err, 'Failed to start the Instagram connection. Please try again.') }),
  })

  const mode2: CommentMode = notConnected && effectiveMode === 'existing' ? (keepable ? 'keep' : 'new') : effectiveMode
  const selectedComment = comments.data?.find((c) => c.id === selected)

  const input = (): BidInput => ({ amount, autoBid, maxAutoBid, mode: mode2, selected, text })

  function send() {
    const reading = readMoney(amount)
    if (!reading.ok) return
    const maxReading = autoBid ? readMoney(maxAutoBid) : null
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

  function tellProblem() {
    const problem = bidProblem(input(), slot)
    if (problem) toast.error(problem.title, { description: problem.description })
  }

  const onSubmit = form.handleSubmit(send, tellProblem)

  function onBuyNow() {
    const problem = validateComment(mode2, selected, text)
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
  const canBuyNow = !closed && slot.buyNowPrice != null && slot.bidderCount === 0

  return {
    slot, now, closed, amount, setAmount, warning, autoBid, setAutoBid, maxAutoBid, setMaxAutoBid, largeBid, setLargeBid,
    comments, commentsLoading, mine, myMaximum, keepable, notConnected, mode2, setMode, selected, setSelected, text, setText, brand,
    place, buyNow, connect, onSubmit, onBuyNow, typedReading, busy, canBuyNow,
  }
}
