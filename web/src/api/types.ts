import type { Schemas } from './client'

export type Slot = Schemas['SlotOut']
export type Bid = Schemas['BidOut']
export type Post = Schemas['InstagramPostOut']
export type Payout = Schemas['PayoutOut']
