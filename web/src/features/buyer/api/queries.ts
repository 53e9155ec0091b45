import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/api/client'
import { retryUnlessNotFound, unwrap } from '@/api/errors'
import { KEYS } from '@/api/keys'
import { buyerBidsQuery } from '@/api/queries'
import type { SlotQuery } from '@/lib/filters'

export const fetchSlots = async (query: SlotQuery) => unwrap(await api().GET('/marketplace/slots', { params: { query } }))

export const slotsQuery = (query: SlotQuery) => queryOptions({ queryKey: KEYS.slots(query), queryFn: () => fetchSlots(query) })

export const buyerDashboardQuery = () => queryOptions({ queryKey: KEYS.buyerDashboard, queryFn: async () => unwrap(await api().GET('/buyer/dashboard')) })

/** The brand's own comments on the slot's post (401 when its Instagram is not connected). */
export const commentsQuery = (slotId: string) =>
  queryOptions({
    queryKey: KEYS.comments(slotId),
    queryFn: async () => unwrap(await api().GET('/instagram/comments/{pin_slot_id}', { params: { path: { pin_slot_id: slotId } } })),
  })

/** A pinned placement's figures and its short link; a 404 (no placement yet) is not asked again. */
export const placementResultsQuery = (bidId: string) =>
  queryOptions({
    queryKey: KEYS.placementResults(bidId),
    queryFn: async () => unwrap(await api().GET('/instagram/placements/{bid_id}/results', { params: { path: { bid_id: bidId } } })),
    retry: retryUnlessNotFound,
  })

export const useBuyerDashboard = () => useQuery(buyerDashboardQuery())
export const useBuyerBids = () => useQuery(buyerBidsQuery())
