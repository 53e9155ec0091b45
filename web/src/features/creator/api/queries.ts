import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
import { KEYS } from '@/api/keys'

export const influencerDashboardQuery = () =>
  queryOptions({ queryKey: KEYS.influencerDashboard, queryFn: async () => unwrap(await api().GET('/influencer/dashboard')) })

export const activeSlotsQuery = () => queryOptions({ queryKey: KEYS.activeSlots, queryFn: async () => unwrap(await api().GET('/influencer/pin-slots/active')) })

export const approvalsQuery = () => queryOptions({ queryKey: KEYS.approvals, queryFn: async () => unwrap(await api().GET('/influencer/approvals')) })

/** The creator's placements waiting for their pin: the method each was paid under and the buttons it allows now. */
export const pinStatesQuery = () => queryOptions({ queryKey: KEYS.pinStates, queryFn: async () => unwrap(await api().GET('/influencer/pin-comment')) })

export const creatorRecordQuery = () => queryOptions({ queryKey: KEYS.creatorRecord, queryFn: async () => unwrap(await api().GET('/influencer/record')) })

export const postsQuery = () => queryOptions({ queryKey: KEYS.posts, queryFn: async () => unwrap(await api().GET('/instagram/posts')) })

export const earningsQuery = () => queryOptions({ queryKey: KEYS.earnings, queryFn: async () => unwrap(await api().GET('/influencer/earnings')) })

export const payoutsQuery = () => queryOptions({ queryKey: KEYS.payouts, queryFn: async () => unwrap(await api().GET('/influencer/payouts')) })

export const payoutSettingsQuery = () =>
  queryOptions({ queryKey: KEYS.payoutSettings, queryFn: async () => unwrap(await api().GET('/influencer/payout-settings')) })

export const influencerBidsQuery = () => queryOptions({ queryKey: KEYS.influencerBids, queryFn: async () => unwrap(await api().GET('/influencer/bids')) })

export const useInfluencerDashboard = () => useQuery(influencerDashboardQuery())
export const useActiveSlots = () => useQuery(activeSlotsQuery())
export const useCreatorRecord = () => useQuery(creatorRecordQuery())
export const usePosts = () => useQuery(postsQuery())
export const useEarnings = () => useQuery(earningsQuery())
export const usePayouts = () => useQuery(payoutsQuery())
export const useInfluencerBids = () => useQuery(influencerBidsQuery())
