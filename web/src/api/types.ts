import type { Schemas } from './client'

export type Slot = Schemas['SlotOut']
export type Bid = Schemas['BidOut']
export type Post = Schemas['InstagramPostOut']
export type Payout = Schemas['PayoutOut']

/* The campaign routes (issue 36), typed by hand until marketplace regenerates the contract. */
export type CampaignStatus = 'DRAFT' | 'ACTIVE' | 'PAUSED' | 'OUT_OF_BUDGET' | 'ENDED'

/** The listing's own parameters, as the campaign keeps them. */
export interface CampaignFilters {
  category?: string | null
  minPrice?: number | null
  maxPrice?: number | null
  minViews?: number | null
  verified?: boolean | null
  minKeptPercent?: number | null
}

export interface CampaignCounts {
  bidding: number
  leading: number
  outbid: number
  won: number
  pinned: number
}

export interface Campaign {
  id: string
  name: string
  status: CampaignStatus
  reason: string | null
  filters: CampaignFilters
  ask: string | null
  budget: number
  maxPerSlot: number
  funded: number
  committed: number
  spent: number
  available: number
  commentText: string
  startsAt: string
  endsAt: string
  createdAt: string
  updatedAt: string
  version: number
  counts: CampaignCounts
}

export interface CampaignBid {
  id: string
  slotId: string
  slotTitle: string
  creatorName: string | null
  status: string
  amount: number
  maxAutoBid: number | null
  finalPrice: number | null
  clicks: number | null
  costPerClick: number | null
  updatedAt: string
}

export interface CampaignDetail extends Campaign {
  bids: CampaignBid[]
  spendOverTime: { at: string; spent: number; committed: number }[]
}

export interface CampaignBody {
  name: string
  filters: CampaignFilters
  ask?: string | null
  budget: number
  maxPerSlot: number
  commentText: string
  startsAt?: string | null
  endsAt: string
}

export type CampaignEdit = Partial<Pick<CampaignBody, 'name' | 'budget' | 'maxPerSlot' | 'commentText' | 'endsAt' | 'filters'>>
