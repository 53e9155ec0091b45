import { api, type Schemas } from '@/api/client'
import { unwrap } from '@/api/errors'
import type { SlotQuery } from '@/lib/filters'

export type Slot = Schemas['SlotOut']
export type Bid = Schemas['BidOut']
export type Post = Schemas['InstagramPostOut']
export type Payout = Schemas['PayoutOut']

export const KEYS = {
  buyerDashboard: ['buyer', 'dashboard'] as const,
  buyerBids: ['buyer', 'bids'] as const,
  slots: (q: unknown) => ['marketplace', 'slots', q] as const,
  slotsAll: ['marketplace', 'slots'] as const,
  slot: (id: string) => ['marketplace', 'slot', id] as const,
  categories: ['marketplace', 'categories'] as const,
  comments: (slotId: string) => ['instagram', 'comments', slotId] as const,
  influencerDashboard: ['influencer', 'dashboard'] as const,
  activeSlots: ['influencer', 'active-slots'] as const,
  approvals: ['influencer', 'approvals'] as const,
  posts: ['instagram', 'posts'] as const,
  earnings: ['influencer', 'earnings'] as const,
  payouts: ['influencer', 'payouts'] as const,
  payoutSettings: ['influencer', 'payout-settings'] as const,
  influencerBids: ['influencer', 'bids'] as const,
  notificationsAll: ['notifications'] as const,
  notifications: ['notifications', 'list'] as const,
  notificationsUnread: ['notifications', 'unread'] as const,
  instagramConnection: ['instagram', 'connection'] as const,
  creatorRecord: ['influencer', 'record'] as const,
}

export const fetchSlots = async (query: SlotQuery) => unwrap(await api().GET('/marketplace/slots', { params: { query } }))
export const fetchSlot = async (slotId: string) => unwrap(await api().GET('/marketplace/slots/{slot_id}', { params: { path: { slot_id: slotId } } }))
export const fetchCreatorRecord = async () => unwrap(await api().GET('/influencer/record'))
export const fetchInstagramConnection = async () => unwrap(await api().GET('/instagram/connection'))
export const fetchCategories = async () => unwrap(await api().GET('/marketplace/categories'))
export const fetchBuyerDashboard = async () => unwrap(await api().GET('/buyer/dashboard'))
export const fetchBuyerBids = async () => unwrap(await api().GET('/buyer/bids'))
export const fetchComments = async (slotId: string) => unwrap(await api().GET('/instagram/comments/{pin_slot_id}', { params: { path: { pin_slot_id: slotId } } }))
export const fetchInfluencerDashboard = async () => unwrap(await api().GET('/influencer/dashboard'))
export const fetchActiveSlots = async () => unwrap(await api().GET('/influencer/pin-slots/active'))
export const fetchApprovals = async () => unwrap(await api().GET('/influencer/approvals'))
export const fetchPosts = async () => unwrap(await api().GET('/instagram/posts'))
export const fetchEarnings = async () => unwrap(await api().GET('/influencer/earnings'))
export const fetchPayouts = async () => unwrap(await api().GET('/influencer/payouts'))
export const fetchPayoutSettings = async () => unwrap(await api().GET('/influencer/payout-settings'))
export const fetchInfluencerBids = async () => unwrap(await api().GET('/influencer/bids'))
export const fetchNotifications = async () => unwrap(await api().GET('/notifications'))
export const fetchUnreadCount = async () => unwrap(await api().GET('/notifications/unread-count'))
