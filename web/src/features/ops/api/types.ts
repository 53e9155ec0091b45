import type { Schemas } from '@/api/client'

/** The /ops answers of identity, social, marketplace and payments, as generated from their OpenAPI. */
export type OpsUser = Schemas['OpsUserOut']
export type AuditEntry = Schemas['AuditEntryOut']
export type Dispute = Schemas['DisputeListItemOut']
export type DisputeDetail = Schemas['DisputeDetailOut']
export type DisputeStatus = Dispute['status']
export type Outcome = Schemas['DisputeDecisionIn']['outcome']
export type Flag = Schemas['FlagOut']
export type FlagStatus = Flag['status']
export type OpsPayment = Schemas['OpsPaymentOut']
export type LinkChange = Schemas['LinkChangeOut']
export type DisputeMoney = Schemas['DisputeMoneyOut']
export type OutcomeMoves = Schemas['OutcomeMovesOut']

/** The operator's words for each outcome the contract has (pinbid_kit.events.trust.DisputeOutcome): keyed by its
 *  type, so the compiler says when the server adds or drops one. */
const OUTCOME_WORDS: Record<Outcome, { label: string; hint: string }> = {
  CONTINUE: { label: 'Keep going', hint: 'The placement goes on; releases resume with what accrued.' },
  REFUND_UNEARNED: { label: 'Refund the unearned share', hint: 'The brand gets back the days not yet earned; the placement ends.' },
  REFUND_ALL: { label: 'Refund all', hint: 'The brand gets everything back; what was released is recovered from the creator.' },
}
export const OUTCOME_VALUES = Object.keys(OUTCOME_WORDS) as [Outcome, ...Outcome[]]
export const OUTCOMES: { value: Outcome; label: string; hint: string }[] = OUTCOME_VALUES.map((value) => ({ value, ...OUTCOME_WORDS[value] }))

/** payments' OpsPaymentOut.status is a plain string; these are the values it documents. Only a COMPLETED payment
 *  can be refunded: REFUNDING already has its full refund ordered (the server answers 409 already_refunded). */
export const refundable = (p: OpsPayment) => p.status === 'COMPLETED' && p.refunded < p.amount
