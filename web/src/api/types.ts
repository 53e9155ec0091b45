import type { Schemas } from './client'

export type Slot = Schemas['SlotOut']
export type Bid = Schemas['BidOut']
export type Post = Schemas['InstagramPostOut']
export type Payout = Schemas['PayoutOut']

export type Campaign = Schemas['CampaignOut']
export type CampaignDetail = Schemas['CampaignDetailOut']
export type CampaignBid = Schemas['CampaignBidOut']
export type CampaignSkipped = Schemas['CampaignSkippedOut']
export type CampaignFilters = Schemas['CampaignFilters']
export type CampaignCounts = Schemas['CampaignCountsOut']
export type CampaignStatus = Campaign['status']
export type CampaignBody = Schemas['CampaignIn']
export type CampaignEdit = Schemas['CampaignChangesIn']
