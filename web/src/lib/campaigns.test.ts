import { describe, expect, it } from 'vitest'
import { DEFAULT_FILTERS } from './filters'
import {
  audienceWords,
  budgetBar,
  budgetSentence,
  CAMPAIGN_MESSAGES,
  campaignActions,
  campaignBody,
  campaignEdit,
  campaignFilters,
  campaignProblems,
  commentsUsedBefore,
  formFilters,
  isoToLocal,
  readDraft,
  slotState,
  statusSentence,
  type CampaignFormValues,
} from './campaigns'

const NOW = new Date('2026-11-27T12:00:00Z')
const later = isoToLocal('2026-12-31T18:00:00Z')

const values = (over: Partial<CampaignFormValues> = {}): CampaignFormValues => ({
  name: 'Fitness, December',
  audience: 'filters',
  filters: DEFAULT_FILTERS,
  search: '',
  ask: '',
  budget: '2000',
  maxPerSlot: '80',
  commentText: 'Train with us',
  startsAt: '',
  endsAt: later,
  ...over,
})

const problems = (over: Partial<CampaignFormValues>, options = {}) => campaignProblems(values(over), { now: NOW, ...options }).map((p) => `${p.field}: ${p.message}`)

describe('the budget bar', () => {
  it('shows spent, then committed beyond spent, then free, in exact cents', () => {
    const bar = budgetBar({ budget: 2000, committed: 450.1, spent: 120.05 })
    expect(bar).toMatchObject({ budgetCents: 200_000, spentCents: 12_005, heldCents: 33_005, freeCents: 154_990 })
    expect(bar.spentPercent).toBeCloseTo(6.0025)
    expect(bar.heldPercent).toBeCloseTo(16.5025)
    expect(budgetSentence(bar)).toBe('$120.05 spent and $330.05 committed to bids, of a $2,000.00 budget; $1,549.90 free.')
  })

  it('never draws more than the whole bar, and a zero budget draws nothing', () => {
    const over = budgetBar({ budget: 100, committed: 130, spent: 90 })
    expect(over.spentPercent + over.heldPercent).toBe(100)
    expect(over.freeCents).toBe(0)
    expect(budgetBar({ budget: 0, committed: 0, spent: 0 })).toMatchObject({ spentPercent: 0, heldPercent: 0 })
  })
})

describe('the form checks', () => {
  it('takes a good campaign', () => {
    expect(problems({})).toEqual([])
  })

  it("refuses a zero budget, an unreadable or too large one, and a most per comment above the budget, in the server's words", () => {
    expect(problems({ budget: '0' })).toEqual(['budget: The budget must be more than zero.'])
    expect(problems({ budget: '10000000' })).toEqual(['budget: The budget must be at most $1,000,000.00.'])
    expect(problems({ budget: 'ten' })[0]).toMatch(/^budget: Type the amount with digits/)
    expect(problems({ budget: '50', maxPerSlot: '80' })).toEqual(['budget: The most per comment ($80.00) cannot be above the budget ($50.00).'])
    expect(problems({ maxPerSlot: '0,00' })).toEqual(['maxPerSlot: The most per comment must be more than zero.'])
    expect(problems({ budget: '', maxPerSlot: '' })).toEqual([`budget: ${CAMPAIGN_MESSAGES.budgetRequired}`, `maxPerSlot: ${CAMPAIGN_MESSAGES.maxPerSlotRequired}`])
  })

  it('refuses filters no slot can fit: a minimum price above the most per comment', () => {
    expect(problems({ filters: { ...DEFAULT_FILTERS, price: [100, 1000] } })).toEqual(['maxPerSlot: No slot can fit: the filters ask for slots priced from $100.00, above the most per comment ($80.00).'])
  })

  it('refuses dates in the past or reversed, a run over a year, and a missing end', () => {
    expect(problems({ endsAt: isoToLocal('2026-11-01T00:00:00Z') })).toEqual([`endsAt: ${CAMPAIGN_MESSAGES.endsInPast}`])
    expect(problems({ startsAt: isoToLocal('2027-01-05T00:00:00Z') })).toEqual([`endsAt: ${CAMPAIGN_MESSAGES.datesReversed}`])
    expect(problems({ endsAt: isoToLocal('2027-12-31T00:00:00Z') })).toEqual(['endsAt: A campaign can run for at most a year.'])
    expect(CAMPAIGN_MESSAGES.endsInPast).toBe('The end date must be in the future.')
    expect(problems({ endsAt: '' })).toEqual([`endsAt: ${CAMPAIGN_MESSAGES.endsRequired}`])
    // an edit may keep an end as it was
    const kept = isoToLocal('2026-11-01T00:00:00Z')
    expect(problems({ endsAt: kept }, { editing: true, keptEnd: kept })).toEqual([])
  })

  it('refuses a blank or long name, a blank comment, and a question mode without a question', () => {
    expect(problems({ name: '   ' })).toEqual([`name: ${CAMPAIGN_MESSAGES.nameRequired}`])
    expect(problems({ name: 'x'.repeat(81) })).toEqual([`name: ${CAMPAIGN_MESSAGES.nameTooLong}`])
    expect(problems({ commentText: ' \n ' })).toEqual([`commentText: ${CAMPAIGN_MESSAGES.commentRequired}`])
    expect(problems({ audience: 'question', ask: '  ' })).toEqual([`ask: ${CAMPAIGN_MESSAGES.askRequired}`])
  })
})

describe('what is sent', () => {
  it('a new campaign: money read as typed, the filters that narrow, the end as an instant', () => {
    const body = campaignBody(values({ budget: '1.234,50', maxPerSlot: '80,5', filters: { ...DEFAULT_FILTERS, category: 'fitness', price: [20, 1000], verified: true, minViews: '10k', minKept: '80' } }))
    expect(body).toEqual({
      name: 'Fitness, December',
      filters: { category: 'fitness', minPrice: 20, minViews: 10_000, verified: true, minKeptPercent: 80 },
      budget: 1234.5,
      maxPerSlot: 80.5,
      commentText: 'Train with us',
      endsAt: new Date(later).toISOString(),
    })
  })

  it('a question is sent instead of the filters', () => {
    const body = campaignBody(values({ audience: 'question', ask: ' fitness under $30 ', filters: { ...DEFAULT_FILTERS, category: 'tech' } }))
    expect(body).toMatchObject({ ask: 'fitness under $30', filters: {} })
  })

  it('an edit sends only what changed, with the version it was read at; the filters whole, keeping what the form does not show', () => {
    const was = { name: 'A', budget: 2000, maxPerSlot: 80, commentText: 'Hi', endsAt: '2026-12-31T18:00:00Z', filters: { category: 'fitness', search: 'yoga', timeLeft: '7d' as const }, version: 7 }
    const same = values({ name: 'A', budget: '2000.00', maxPerSlot: '80.00', commentText: 'Hi', endsAt: isoToLocal(was.endsAt), filters: formFilters(was.filters), search: 'yoga' })
    expect(campaignEdit(same, was)).toEqual({})
    expect(campaignEdit({ ...same, budget: '1500' }, was)).toEqual({ budget: 1500, version: 7 })
    expect(campaignEdit({ ...same, filters: { ...same.filters, verified: true } }, was)).toEqual({ filters: { timeLeft: '7d', search: 'yoga', category: 'fitness', verified: true }, version: 7 })
    expect(campaignEdit({ ...same, search: '' }, was)).toEqual({ filters: { timeLeft: '7d', category: 'fitness' }, version: 7 })
  })
})

describe('the audience', () => {
  it('goes from the marketplace filters to the campaign and back', () => {
    const f = { ...DEFAULT_FILTERS, category: 'food', price: [10, 200] as [number, number], minViews: '100k', minKept: '95', timeLeft: '24h' as const }
    const sent = campaignFilters(f)
    expect(sent).toEqual({ category: 'food', minPrice: 10, maxPrice: 200, minViews: 100_000, minKeptPercent: 95 })
    expect(formFilters(sent)).toEqual({ ...f, timeLeft: 'all' })
    expect(audienceWords(sent)).toBe('Food · $10.00 – $200.00 · 100K+ views · 95%+ placements kept')
    expect(audienceWords({})).toBe('Every open slot')
    expect(audienceWords({ category: 'tech', search: 'phone' }, 'gadgets under $50')).toBe('“gadgets under $50” · “phone” · Tech')
  })

  it('a draft from the navigation is checked, not trusted', () => {
    expect(readDraft(null)).toBeNull()
    expect(readDraft('x')).toBeNull()
    expect(readDraft({ ask: '  ' })).toBeNull()
    expect(readDraft({ ask: ' yoga ', filters: { category: 'fitness', search: ' mat ', minPrice: '5', maxPrice: Number.NaN, verified: 'yes', minViews: 1000 } })).toEqual({ ask: 'yoga', filters: { category: 'fitness', search: 'mat', minViews: 1000 } })
  })
})

describe('state in words', () => {
  const base = { startsAt: '2026-11-01T00:00:00Z', endsAt: '2026-12-31T00:00:00Z', available: 0, reason: null }
  it('says why a campaign is where it is', () => {
    expect(statusSentence({ ...base, status: 'DRAFT' }, NOW)).toBe('Fund the budget to start bidding.')
    expect(statusSentence({ ...base, status: 'ACTIVE' }, NOW)).toMatch(/^Bidding on every open slot/)
    expect(statusSentence({ ...base, status: 'ACTIVE', startsAt: '2026-12-01T10:00:00Z' }, NOW)).toMatch(/^Funded\. Bidding starts Dec 1/)
    expect(statusSentence({ ...base, status: 'OUT_OF_BUDGET', available: 12.5 }, NOW)).toMatch(/\$12\.50 is left/)
    expect(statusSentence({ ...base, status: 'ENDED', reason: 'ends_at' }, NOW)).toBe('It reached its end date and stopped bidding.')
    expect(statusSentence({ ...base, status: 'PAUSED', reason: 'funding_reversed' }, NOW)).toMatch(/taken back/)
  })

  it('offers the actions its state allows', () => {
    expect(campaignActions({ status: 'DRAFT', budget: 100, funded: 0 })).toEqual({ fund: true, pause: false, resume: false, end: true, edit: true })
    expect(campaignActions({ status: 'ACTIVE', budget: 100, funded: 100 })).toEqual({ fund: false, pause: true, resume: false, end: true, edit: true })
    expect(campaignActions({ status: 'PAUSED', budget: 150, funded: 100 })).toEqual({ fund: true, pause: false, resume: true, end: true, edit: true })
    expect(campaignActions({ status: 'ENDED', budget: 150, funded: 100 })).toEqual({ fund: false, pause: false, resume: false, end: false, edit: false })
  })

  it("names a bid's slot state", () => {
    expect(['ACTIVE', 'OUTBID', 'AWAITING_PAYMENT', 'PINNED', 'EXPIRED'].map((status) => slotState({ status }))).toEqual(['leading', 'outbid', 'won', 'pinned', 'lost'])
  })
})

describe('commentsUsedBefore', () => {
  it('each text once, newest first, trimmed, none empty or longer than a new comment may be, at most the limit', () => {
    const bids = [{ comment: ' Oat latte ' }, { comment: null }, { comment: 'Oat latte' }, { comment: '' }, { comment: 'x'.repeat(5000) }, { comment: 'Cold brew' }, { comment: 'Third' }]
    expect(commentsUsedBefore(bids)).toEqual(['Oat latte', 'Cold brew', 'Third'])
    expect(commentsUsedBefore(bids, 2)).toEqual(['Oat latte', 'Cold brew'])
    expect(commentsUsedBefore([])).toEqual([])
  })
})
