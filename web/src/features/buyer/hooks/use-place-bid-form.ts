import * as React from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { api } from '@/api/client'
import { ApiError, serverMessage, unwrap } from '@/api/errors'
import { bidMaximum, buildBidBody, defaultBidAmount, largeBidRatio, liveBidOn, money2, validateBidAmount, validateComment, validateMaxAutoBid, type CommentMode } from '@/lib/bids'
import { readMoney } from '@/lib/money'
import { brandLabel } from '@/lib/disclosure'
import { useAuth } from '@/auth/session'
import { KEYS } from '@/api/keys'
import type { Slot } from '@/api/types'
import { buyerBidsQuery, commentsQuery } from '../api/queries'
import { connectReturn } from '@/lib/return-notes'
import { type LargeBid } from '../LargeBidDialog'
import { useNow } from '@/hooks/use-motion'
import { learnCurrentBid, useLiveSlot } from '@/api/live/slots'

import { BID_FAILED, bidPlacedText, tooLowWarning } from '../place-bid'

/** The bid panel's state and its three calls (bid, Buy Now, connect Instagram): what the panel shows comes from here. */
export function usePlaceBidForm(opened: Slot, onDone: () => void) {
  const queryClient = useQueryClient()
  const slot = useLiveSlot(opened)
  const now = useNow()
  const [openedAt] = React.useState(opened.currentBid)
  const [typed, setAmount] = React.useState<string | null>(null)
  // until the buyer types, the suggested amount follows the live current bid
  const amount = typed ?? money2(defaultBidAmount(slot))
  const warning = tooLowWarning(amount, slot, openedAt)
  const closed = slot.status !== 'ACTIVE' || new Date(slot.auctionEnd).getTime() <= now.getTime()
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

  return {
    slot, now, closed, amount, setAmount, warning, autoBid, setAutoBid, maxAutoBid, setMaxAutoBid, largeBid, setLargeBid,
    comments, mine, myMaximum, keepable, notConnected, mode2, setMode, selected, setSelected, text, setText, brand,
    place, buyNow, connect, onSubmit, onBuyNow, typedReading, busy, canBuyNow,
  }
}
