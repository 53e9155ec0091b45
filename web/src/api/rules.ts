/** The rules the web shows before it asks, as the server enforces them (pinbid_kit/web_rules.py). The gateway
 * serves them in /runtime-config.json with the fee as set; rules.json, written by `make contracts`, is the
 * fallback with the default fee. Checked by hand rather than with zod: this runs in the landing page's entry. */
import generated from './rules.json'

export interface WebRules {
  platformFeePercent: number
  disclosureStart: { source: string; flags: string }
  handlePattern: string
  maxCommentLength: number
  maxNewCommentLength: number
  maxHashtags: number
  maxMentions: number
}

const COUNTS = ['platformFeePercent', 'maxCommentLength', 'maxNewCommentLength', 'maxHashtags', 'maxMentions'] as const

export function isWebRules(value: unknown): value is WebRules {
  if (!value || typeof value !== 'object') return false
  const rules = value as Record<string, unknown>
  const disclosure = rules.disclosureStart as Record<string, unknown> | undefined
  return (
    COUNTS.every((key) => Number.isInteger(rules[key]) && (rules[key] as number) >= 0) &&
    (rules.platformFeePercent as number) <= 100 &&
    typeof rules.handlePattern === 'string' &&
    typeof disclosure?.source === 'string' &&
    typeof disclosure.flags === 'string'
  )
}

export const FALLBACK_RULES: WebRules = generated
