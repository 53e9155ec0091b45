import { useQuery, type QueryClient } from '@tanstack/react-query'
import { slotDetailsQuery } from '@/api/queries'
import type { Slot } from '@/api/types'
import { applySlotEvent } from './cache'
import { useLiveSlots } from './LiveProvider'

/** The slot as the stream last described it: for a panel opened from a card, whose copy would otherwise freeze. */
export function useLiveSlot(slot: Slot): Slot {
  useLiveSlots([slot.id])
  const query = useQuery({ ...slotDetailsQuery(slot.id), initialData: slot })
  return query.data ?? slot
}

/** A too-low refusal says what the current bid is: every copy of the slot on screen learns it at once. */
export function learnCurrentBid(client: QueryClient, slot: Slot, currentBid: number) {
  if (slot.currentBid != null && currentBid <= slot.currentBid) return
  applySlotEvent(client, { id: slot.id, currentBid, bidCount: slot.bidCount, auctionEnd: slot.auctionEnd, status: slot.status }, 'BUYER')
}
