import { OUTCOMES } from './api/types'

/** social and marketplace answer a person's name as null when they do not know it (an account whose profile
 *  never reached them): the desk says so rather than printing "null". */
export const brandName = (name: string | null) => name ?? 'Unknown brand'
export const creatorName = (name: string | null) => name ?? 'unknown creator'
export const accountName = (name: string | null) => name ?? 'Unknown account'

export const disputeTitle = (d: { buyerName: string | null; creatorName: string | null }) => `${brandName(d.buyerName)} vs ${creatorName(d.creatorName)}`

// social writes a dispute's history with codes: who as BRAND, CREATOR, SYSTEM, PAYMENTS or "OPERATOR <id>", and a
// decision as "Decided CONTINUE: <reason>". The desk says them in words (which operator: the audit log).
const STEP_AUTHORS: Record<string, string> = { BRAND: 'the brand', CREATOR: 'the creator', SYSTEM: 'Pinbid', PAYMENTS: 'Pinbid payments' }
export const stepAuthor = (by: string) => (by.startsWith('OPERATOR') ? 'an operator' : (STEP_AUTHORS[by] ?? by))
export const stepText = (what: string) =>
  what.replace(/^Decided ([A-Z_]+):/, (code, outcome: string) => {
    const label = OUTCOMES.find((o) => o.value === outcome)?.label
    return label ? `Decided “${label}”:` : code
  })
