/** The rules the web shows before it asks, as the server enforces them (pinbid_kit/web_rules.py): the fee, the bid
 * increments and the trust windows as this run's services are set, the rest from the code the services enforce
 * them with. The gateway serves them in /runtime-config.json; rules.json, written by `make contracts`, is the
 * fallback with the default settings. Checked by hand rather than with zod: this runs in the landing page's entry.
 * No number of hours, days or megabytes is written in the web (tests/test_web_rules_said_once.py): read it here. */
import generated from './rules.json'

export interface WebRules {
  platformFeePercent: number
  disclosureStart: { source: string; flags: string }
  handlePattern: string
  maxCommentLength: number
  maxNewCommentLength: number
  maxHashtags: number
  maxMentions: number
  passwordMinLength: number
  reasonMaxLength: number
  /** the longest question the AI search box takes */
  askMaxLength: number
  /** a screenshot's accepted content types, each with the name people read, and its largest size */
  screenshot: { types: { type: string; name: string }[]; maxBytes: number }
  /** the suggested raise over the current bid (marketplace's proxy step), and Bid Again's */
  bidIncrement: number
  bidAgainIncrement: number
  /** a new slot's choices, with the one chosen at first */
  auctionLengthHours: { choices: number[]; default: number }
  pinDurationDays: { choices: number[]; default: number }
  /** the search's "ending within" filter: its value in the query -> hours */
  timeLeftHours: Record<string, number>
  /** social's trust windows: the brand's acceptance, the creator's answer to a fresh-screenshot request and to a dispute */
  trustWindowHours: { acceptance: number; recheckAnswer: number; disputeAnswer: number }
}

const COUNTS = ['platformFeePercent', 'maxCommentLength', 'maxNewCommentLength', 'maxHashtags', 'maxMentions', 'passwordMinLength', 'reasonMaxLength', 'askMaxLength'] as const

const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0
const isAmount = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value > 0
const isCounts = (value: unknown) => Array.isArray(value) && value.length > 0 && value.every((v) => isCount(v) && v > 0)
const isChoices = (value: unknown) => {
  const choices = value as { choices?: unknown; default?: unknown } | undefined
  return isCounts(choices?.choices) && (choices!.choices as number[]).includes(choices!.default as number)
}

export function isWebRules(value: unknown): value is WebRules {
  if (!value || typeof value !== 'object') return false
  const rules = value as Record<string, unknown>
  const disclosure = rules.disclosureStart as Record<string, unknown> | undefined
  const screenshot = rules.screenshot as Record<string, unknown> | undefined
  const windows = rules.trustWindowHours as Record<string, unknown> | undefined
  const timeLeft = rules.timeLeftHours as Record<string, unknown> | undefined
  return (
    COUNTS.every((key) => isCount(rules[key])) &&
    (rules.platformFeePercent as number) <= 100 &&
    typeof rules.handlePattern === 'string' &&
    typeof disclosure?.source === 'string' &&
    typeof disclosure.flags === 'string' &&
    Array.isArray(screenshot?.types) &&
    screenshot.types.length > 0 &&
    (screenshot.types as unknown[]).every((t) => typeof (t as { type?: unknown })?.type === 'string' && typeof (t as { name?: unknown }).name === 'string') &&
    isCount(screenshot.maxBytes) &&
    isAmount(rules.bidIncrement) &&
    isAmount(rules.bidAgainIncrement) &&
    isChoices(rules.auctionLengthHours) &&
    isChoices(rules.pinDurationDays) &&
    !!timeLeft &&
    typeof timeLeft === 'object' &&
    isCounts(Object.values(timeLeft)) &&
    !!windows &&
    isCounts([windows.acceptance, windows.recheckAnswer, windows.disputeAnswer])
  )
}

export const FALLBACK_RULES: WebRules = generated
