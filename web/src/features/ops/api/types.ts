import type { Schemas } from '@/api/client'

/** identity's answers (generated from its OpenAPI) */
export type OpsUser = Schemas['OpsUserOut']
export type AuditEntry = Schemas['AuditEntryOut']

/** The other services' /ops answers, as the trust design's HTTP contract gives them (docs: issue 22). */
export type DisputeStatus = 'OPEN' | 'DECIDED'
export type Outcome = 'CONTINUE' | 'REFUND_UNEARNED' | 'REFUND_ALL'

export interface Dispute {
  id: string
  bidId: string
  slotId: string
  status: DisputeStatus
  reason: string
  reporter: 'BRAND' | 'SYSTEM'
  reportedAt: string
  answeredAt: string | null
  answerBy: string | null
  creatorId: string
  creatorName: string
  buyerId: string
  buyerName: string
  amount: number
  postUrl: string | null
  outcome: Outcome | null
  decidedAt: string | null
}

export interface Evidence {
  id: string
  kind: 'PIN' | 'RECHECK' | 'ANSWER'
  uploadedAt: string
  url: string
}

export interface DisputeDetail extends Dispute {
  evidence: Evidence[]
  creatorNote: string | null
  decisionReason: string | null
  history: { at: string; what: string; by: string }[]
}

export type FlagStatus = 'OPEN' | 'CLEARED'

export interface Flag {
  id: string
  userId: string
  userName: string
  creatorId: string
  creatorName: string
  score: number
  reasons: string[]
  createdAt: string
  status: FlagStatus
}

export interface OpsPayment {
  id: string
  bidId: string
  buyerId: string
  creatorId: string
  amount: number
  status: string
  refunded: number
  released: number
  paidAt: string | null
}

export const OUTCOMES: { value: Outcome; label: string; hint: string }[] = [
  { value: 'CONTINUE', label: 'Keep going', hint: 'The placement goes on; releases resume with what accrued.' },
  { value: 'REFUND_UNEARNED', label: 'Refund the unearned share', hint: 'The brand gets back the days not yet earned; the placement ends.' },
  { value: 'REFUND_ALL', label: 'Refund all', hint: 'The brand gets everything back; what was released is recovered from the creator.' },
]
