import { useQuery, type QueryClient } from '@tanstack/react-query'
import { fetchSlot, KEYS, type Slot } from '../queries'
import { applySlotEvent } from './cache'
import { useLiveSlots } from './LiveProvider'

/** The slot as the stream last described it: for a panel opened from a card, whose copy would otherwise freeze. */
export function useLiveSlot(slot: Slot): Slot {
  useLiveSlots([slot.id])
  const query = useQuery({ queryKey: KEYS.slot(slot.id), queryFn: () => fetchSlot(slot.id), initialData: slot })
  return query.data ?? slot
}

/** A too-low refusal says what the current bid is: every copy of the slot on screen learns it at once. */
export function learnCurrentBid(client: QueryClient, slot: Slot, currentBid: number) {
  if (slot.currentBid != null && currentBid <= slot.currentBid) return
  applySlotEvent(client, { id: slot.id, currentBid, bidCount: slot.bidCount, auctionEnd: slot.auctionEnd, status: slot.status }, 'BUYER')
}
