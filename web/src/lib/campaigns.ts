/** A brand's campaign in words and figures (issue 36): its state, the bar of its budget, its audience, and the
 *  checks the form makes before sending (the server checks again and has the last word). */
import type { CampaignBid, CampaignEdit, CampaignFilters, CampaignStatus } from '@/api/types'
import { audienceFilters, DEFAULT_FILTERS, KEPT_OPTIONS, MIN_VIEWS_OPTIONS, PRICE_MAX, PRICE_MIN, type AudienceFilters, type Filters } from './filters'
import { formatCents, formatMoney, MAX_PRICE_CENTS, readMoney } from './money'
import { capitalize } from './utils'
import { maxNewCommentLength } from './disclosure'

/** The longest campaign name the server keeps. */
export const CAMPAIGN_NAME_MAX = 80
/** The largest budget the server takes (marketplace's domain/money.py MAX_AMOUNT, the bound of every money field). */
export const BUDGET_MAX_CENTS = MAX_PRICE_CENTS
/** The longest a campaign runs (marketplace's domain/campaigns.py MAX_LENGTH). */
export const MAX_RUN_DAYS = 366

export const STATUS_LABELS: Record<CampaignStatus, string> = {
  DRAFT: 'Not funded',
  ACTIVE: 'Active',
  PAUSED: 'Paused',
  OUT_OF_BUDGET: 'Out of budget',
  ENDED: 'Ended',
}

export type BadgeTone = 'success' | 'secondary' | 'destructive' | 'soft'

export const STATUS_TONES: Record<CampaignStatus, BadgeTone> = {
  DRAFT: 'soft',
  ACTIVE: 'success',
  PAUSED: 'secondary',
  OUT_OF_BUDGET: 'destructive',
  ENDED: 'secondary',
}

export const campaignStatusLabel = (status: string) => STATUS_LABELS[status as CampaignStatus] ?? capitalize(status.toLowerCase().replace(/_/g, ' '))

/** Why a campaign is where it is, in one sentence a brand can act on. `reason` is the server's word for why it
 *  stopped bidding ("paused", "budget", "ends_at", "ended_by_brand", "funding_reversed"). */
export function statusSentence(c: { status: string; reason: string | null; startsAt: string; endsAt: string; available: number }, now: Date = new Date()): string {
  switch (c.reason) {
    case 'funding_reversed':
      return 'The payment that funded it was taken back, so it stopped bidding.'
    case 'ends_at':
      return 'It reached its end date and stopped bidding.'
    case 'ended_by_brand':
      return 'You ended it. Bids it already placed run to their close; what is left of the budget comes back to you.'
  }
  switch (c.status) {
    case 'DRAFT':
      return 'Fund the budget to start bidding.'
    case 'ACTIVE':
      if (Date.parse(c.startsAt) > now.getTime()) return `Funded. Bidding starts ${new Date(c.startsAt).toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' })}.`
      return 'Bidding on every open slot that fits, as new ones are listed too.'
    case 'PAUSED':
      return 'Paused: it places no new bids until you resume it. Bids already placed stay in their auctions.'
    case 'OUT_OF_BUDGET':
      return c.available > 0
        ? `Out of budget: ${formatMoney(c.available)} is left, less than the most per comment. Raise the budget or fund more to keep bidding.`
        : 'Out of budget: everything is spent or committed to bids. Raise the budget and fund it to keep bidding.'
    case 'ENDED':
      return 'Ended: it places no new bids.'
    default:
      return ''
  }
}

/** What a brand may do to a campaign in its state (the server refuses the rest with 409). */
export function campaignActions(c: { status: string; budget: number; funded: number }) {
  const ended = c.status === 'ENDED'
  return {
    fund: !ended && c.funded < c.budget,
    pause: c.status === 'ACTIVE' || c.status === 'OUT_OF_BUDGET',
    resume: c.status === 'PAUSED',
    end: !ended,
    edit: !ended,
  }
}

export interface BudgetBar {
  budgetCents: number
  spentCents: number
  /** committed beyond what is spent: live bids' maxima and wins not yet paid */
  heldCents: number
  freeCents: number
  /** the three shares of the bar, in percent of the budget (they add up to 100 at most) */
  spentPercent: number
  heldPercent: number
}

const cents = (dollars: number) => Math.round(dollars * 100)
const percentOf = (part: number, whole: number) => (whole > 0 ? Math.min(100, Math.max(0, (part * 100) / whole)) : 0)

/** The bar of a campaign's budget: spent, then committed and not yet spent, then free; in cents, so the figures
 *  shown beside it add up exactly. Committed includes what is spent (it is what the campaign has reserved). */
export function budgetBar(c: { budget: number; committed: number; spent: number }): BudgetBar {
  const budgetCents = cents(c.budget)
  const spentCents = cents(c.spent)
  const heldCents = Math.max(0, cents(c.committed) - spentCents)
  const freeCents = Math.max(0, budgetCents - spentCents - heldCents)
  const spentPercent = percentOf(spentCents, budgetCents)
  const heldPercent = Math.min(100 - spentPercent, percentOf(heldCents, budgetCents))
  return { budgetCents, spentCents, heldCents, freeCents, spentPercent, heldPercent }
}

/** The bar in one sentence, for its accessible name. */
export function budgetSentence(bar: BudgetBar): string {
  return `${formatCents(bar.spentCents)} spent and ${formatCents(bar.heldCents)} committed to bids, of a ${formatCents(bar.budgetCents)} budget; ${formatCents(bar.freeCents)} free.`
}

/** A campaign's bid in the words of its slot's state. */
export type SlotState = 'leading' | 'outbid' | 'won' | 'pinned' | 'lost'

export function slotState(bid: Pick<CampaignBid, 'status'>): SlotState {
  switch (bid.status) {
    case 'ACTIVE':
      return 'leading'
    case 'OUTBID':
      return 'outbid'
    case 'PENDING_INFLUENCER_APPROVAL':
    case 'APPROVED':
    case 'AWAITING_PAYMENT':
    case 'WON':
      return 'won'
    case 'PINNED':
      return 'pinned'
    default:
      return 'lost'
  }
}

export const SLOT_STATE_LABELS: Record<SlotState, string> = {
  leading: 'Leading',
  outbid: 'Outbid',
  won: 'Won',
  pinned: 'Pinned',
  lost: 'Ended',
}

/** Why a campaign placed no bid on a slot that fits (the detail's `skipped`). */
export const SKIPPED_REASONS: Record<string, string> = {
  BELOW_MINIMUM: 'its minimum bid is above the most per comment',
  OWN_BID: 'you already bid there yourself',
  ASSOCIATED: 'you may not bid on this creator',
  CLOSED: 'its auction ended first',
}

/** The audience in the form: the marketplace's own filter controls (Filters), or a question. */
export function formFilters(f: CampaignFilters | null | undefined): Filters {
  const views = MIN_VIEWS_OPTIONS.find((o) => o.views != null && o.views === f?.minViews)
  const kept = KEPT_OPTIONS.find((o) => o.percent > 0 && o.percent === f?.minKeptPercent)
  return {
    ...DEFAULT_FILTERS,
    price: [f?.minPrice ?? PRICE_MIN, f?.maxPrice ?? PRICE_MAX],
    minViews: views?.value ?? 'any',
    verified: Boolean(f?.verified),
    category: f?.category || 'all',
    minKept: kept?.value ?? 'any',
  }
}

/** The campaign's filters from the marketplace's: only what narrows the audience is sent (the time left of an
 *  auction does not describe who to reach). */
export type AudienceQuery = AudienceFilters & { search?: string }

export function campaignFilters(f: Filters, search = ''): AudienceQuery {
  return search.trim() ? { search: search.trim(), ...audienceFilters(f) } : audienceFilters(f)
}

/** The audience in words: "Fitness · $20 – $100 · 10K+ views · verified · 80%+ placements kept". */
export function audienceWords(f: CampaignFilters | null | undefined, ask?: string | null): string {
  const parts: string[] = []
  if (ask?.trim()) parts.push(`“${ask.trim()}”`)
  if (f?.search?.trim()) parts.push(`“${f.search.trim()}”`)
  if (f?.category) parts.push(capitalize(f.category))
  if (f?.minPrice != null && f?.maxPrice != null) parts.push(`${formatMoney(f.minPrice)} – ${formatMoney(f.maxPrice)}`)
  else if (f?.minPrice != null) parts.push(`from ${formatMoney(f.minPrice)}`)
  else if (f?.maxPrice != null) parts.push(`up to ${formatMoney(f.maxPrice)}`)
  const views = MIN_VIEWS_OPTIONS.find((o) => o.views != null && o.views === f?.minViews)
  if (views) parts.push(`${views.label} views`)
  else if (f?.minViews) parts.push(`${f.minViews.toLocaleString('en-US')}+ views`)
  if (f?.verified) parts.push('verified')
  if (f?.minKeptPercent) parts.push(`${f.minKeptPercent}%+ placements kept`)
  return parts.length ? parts.join(' · ') : 'Every open slot'
}

/** What the form holds, as typed. */
export interface CampaignFormValues {
  name: string
  audience: 'filters' | 'question'
  filters: Filters
  /** the marketplace's search words, part of the filters */
  search: string
  ask: string
  budget: string
  maxPerSlot: string
  commentText: string
  startsAt: string
  endsAt: string
}

export const CAMPAIGN_MESSAGES = {
  nameRequired: 'Give the campaign a name.',
  get nameTooLong() {
    return `The name must be at most ${CAMPAIGN_NAME_MAX} characters.`
  },
  askRequired: 'Ask a question, or choose filters instead.',
  budgetRequired: 'Enter the total budget.',
  maxPerSlotRequired: 'Enter the most you will pay for one comment.',
  maxAboveBudget: (most: number, budget: number) => `The most per comment (${formatCents(most)}) cannot be above the budget (${formatCents(budget)}).`,
  matchesNothing: (minPrice: number, most: number) => `No slot can fit: the filters ask for slots priced from ${formatMoney(minPrice)}, above the most per comment (${formatCents(most)}).`,
  notPositive: (what: string) => `${what} must be more than zero.`,
  tooLarge: (what: string) => `${what} must be at most ${formatCents(BUDGET_MAX_CENTS)}.`,
  commentRequired: 'Write the comment to pin.',
  get commentTooLong() {
    return `A new comment can have at most ${maxNewCommentLength()} characters (Pinbid adds the ad disclosure in front of it).`
  },
  endsRequired: 'Choose when the campaign ends.',
  endsInPast: 'The end date must be in the future.',
  datesReversed: 'The end date must be after the start date.',
  tooLong: 'A campaign can run for at most a year.',
  unreadableDate: 'Choose a date and time.',
} as const

/** A money field read as the server would check it: its own sentences for zero and too much. */
function moneyProblem(text: string, what: string, required: string): { message: string } | { cents: number } {
  if (!text.trim()) return { message: required }
  const reading = readMoney(text, BUDGET_MAX_CENTS)
  if (reading.ok) return { cents: reading.cents }
  if (reading.problem === 'not_positive') return { message: CAMPAIGN_MESSAGES.notPositive(what) }
  if (reading.problem === 'too_large') return { message: CAMPAIGN_MESSAGES.tooLarge(what) }
  return { message: reading.message }
}

/** A date and time as a local input holds it ("2026-12-31T18:00") → an ISO instant; null when unreadable. */
export function localToIso(local: string): string | null {
  if (!local.trim()) return null
  const time = new Date(local).getTime()
  return Number.isNaN(time) ? null : new Date(time).toISOString()
}

/** An ISO instant → what a datetime-local input holds, in the visitor's time zone. */
export function isoToLocal(iso: string | null | undefined): string {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

export type FormProblem = { field: keyof CampaignFormValues; message: string }

/** Every problem the form can see before sending, one per field, in the order of the form. `editing` skips the
 *  start and the question (an edit cannot change them); `keptEnd` is the end as it was, not checked again. */
export function campaignProblems(v: CampaignFormValues, { now = new Date(), editing = false, keptEnd }: { now?: Date; editing?: boolean; keptEnd?: string } = {}): FormProblem[] {
  const problems: FormProblem[] = []
  const name = v.name.trim()
  if (!name) problems.push({ field: 'name', message: CAMPAIGN_MESSAGES.nameRequired })
  else if (name.length > CAMPAIGN_NAME_MAX) problems.push({ field: 'name', message: CAMPAIGN_MESSAGES.nameTooLong })
  if (!editing && v.audience === 'question' && !v.ask.trim()) problems.push({ field: 'ask', message: CAMPAIGN_MESSAGES.askRequired })
  const budget = moneyProblem(v.budget, 'The budget', CAMPAIGN_MESSAGES.budgetRequired)
  const most = moneyProblem(v.maxPerSlot, 'The most per comment', CAMPAIGN_MESSAGES.maxPerSlotRequired)
  if ('message' in budget) problems.push({ field: 'budget', message: budget.message })
  if ('message' in most) problems.push({ field: 'maxPerSlot', message: most.message })
  else if ('cents' in budget && most.cents > budget.cents) problems.push({ field: 'budget', message: CAMPAIGN_MESSAGES.maxAboveBudget(most.cents, budget.cents) })
  else if (v.audience === 'filters' && v.filters.price[0] > PRICE_MIN && v.filters.price[0] * 100 > most.cents)
    problems.push({ field: 'maxPerSlot', message: CAMPAIGN_MESSAGES.matchesNothing(v.filters.price[0], most.cents) })
  const comment = v.commentText.trim()
  if (!comment) problems.push({ field: 'commentText', message: CAMPAIGN_MESSAGES.commentRequired })
  else if (comment.length > maxNewCommentLength()) problems.push({ field: 'commentText', message: CAMPAIGN_MESSAGES.commentTooLong })
  const ends = v.endsAt.trim() ? localToIso(v.endsAt) : undefined
  const starts = !editing && v.startsAt.trim() ? localToIso(v.startsAt) : undefined
  if (starts === null) problems.push({ field: 'startsAt', message: CAMPAIGN_MESSAGES.unreadableDate })
  if (ends === undefined) problems.push({ field: 'endsAt', message: CAMPAIGN_MESSAGES.endsRequired })
  else if (ends === null) problems.push({ field: 'endsAt', message: CAMPAIGN_MESSAGES.unreadableDate })
  else if (v.endsAt !== keptEnd && Date.parse(ends) <= now.getTime()) problems.push({ field: 'endsAt', message: CAMPAIGN_MESSAGES.endsInPast })
  else if (starts && Date.parse(starts) >= Date.parse(ends)) problems.push({ field: 'endsAt', message: CAMPAIGN_MESSAGES.datesReversed })
  else if (!editing && Date.parse(ends) - Date.parse(starts ?? now.toISOString()) > MAX_RUN_DAYS * 86_400_000) problems.push({ field: 'endsAt', message: CAMPAIGN_MESSAGES.tooLong })
  return problems
}

/** The body of POST /buyer/campaigns from a form without problems. */
export function campaignBody(v: CampaignFormValues) {
  const budget = readMoney(v.budget, BUDGET_MAX_CENTS)
  const most = readMoney(v.maxPerSlot, BUDGET_MAX_CENTS)
  if (!budget.ok || !most.ok) throw new Error('campaignBody: the form has problems')
  const question = v.audience === 'question' ? v.ask.trim() : ''
  const starts = v.startsAt.trim() ? localToIso(v.startsAt) : null
  return {
    name: v.name.trim(),
    filters: question ? {} : campaignFilters(v.filters, v.search),
    ...(question ? { ask: question } : {}),
    budget: budget.cents / 100,
    maxPerSlot: most.cents / 100,
    commentText: v.commentText.trim(),
    ...(starts ? { startsAt: starts } : {}),
    endsAt: localToIso(v.endsAt)!,
  }
}

/** The body of PATCH /buyer/campaigns/{id}: only what changed from the campaign as it was read, and the version
 *  it was read at (the server refuses an edit of a campaign that moved since). The filters are sent whole when any
 *  changed; what the form does not show (a time left) is kept. */
export function campaignEdit(v: CampaignFormValues, was: { name: string; budget: number; maxPerSlot: number; commentText: string; endsAt: string; filters: CampaignFilters; version: number }) {
  const body = campaignBody({ ...v, audience: 'filters', ask: '', startsAt: '' })
  const edit: CampaignEdit = {}
  if (body.name !== was.name) edit.name = body.name
  if (cents(body.budget) !== cents(was.budget)) edit.budget = body.budget
  if (cents(body.maxPerSlot) !== cents(was.maxPerSlot)) edit.maxPerSlot = body.maxPerSlot
  if (body.commentText !== was.commentText) edit.commentText = body.commentText
  // the input holds minutes: an end left as it was is not sent again (its seconds would be lost)
  if (isoToLocal(was.endsAt) !== v.endsAt) edit.endsAt = body.endsAt
  if (JSON.stringify(body.filters) !== JSON.stringify(campaignFilters(formFilters(was.filters), was.filters.search ?? ''))) {
    edit.filters = { ...(was.filters.timeLeft ? { timeLeft: was.filters.timeLeft } : {}), ...body.filters }
  }
  return Object.keys(edit).length ? { ...edit, version: was.version } : {}
}

/** What "Save this search as a campaign" hands to the new campaign's form (as the navigation's state). */
export interface CampaignDraft {
  filters?: CampaignFilters
  ask?: string
}

/** A navigation's state read as a draft, or null: history state is the browser's, so it is checked, not trusted. */
export function readDraft(state: unknown): CampaignDraft | null {
  if (!state || typeof state !== 'object') return null
  const { filters, ask } = state as Record<string, unknown>
  const draft: CampaignDraft = {}
  if (typeof ask === 'string' && ask.trim()) draft.ask = ask.trim()
  if (filters && typeof filters === 'object') {
    const f = filters as Record<string, unknown>
    const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
    draft.filters = {
      ...(typeof f.category === 'string' && f.category ? { category: f.category } : {}),
      ...(typeof f.search === 'string' && f.search.trim() ? { search: f.search.trim() } : {}),
      ...(number(f.minPrice) != null ? { minPrice: number(f.minPrice) } : {}),
      ...(number(f.maxPrice) != null ? { maxPrice: number(f.maxPrice) } : {}),
      ...(number(f.minViews) != null ? { minViews: number(f.minViews) } : {}),
      ...(f.verified === true ? { verified: true } : {}),
      ...(number(f.minKeptPercent) != null ? { minKeptPercent: number(f.minKeptPercent) } : {}),
    }
  }
  return draft.ask || draft.filters ? draft : null
}

/** The comments the brand's earlier bids carried (newest first, each once, at most `limit`): a campaign may pin one
 *  of them again. Only those a new comment may say (within the length Pinbid leaves beside the disclosure). */
export function commentsUsedBefore(bids: readonly { comment: string | null }[], limit = 5): string[] {
  const seen = new Set<string>()
  for (const { comment } of bids) {
    const text = comment?.trim()
    if (text && text.length <= maxNewCommentLength() && !seen.has(text)) seen.add(text)
    if (seen.size === limit) break
  }
  return [...seen]
}
