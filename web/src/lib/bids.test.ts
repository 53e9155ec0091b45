import { describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG, setConfig } from '@/config'
import {
  bidAgainAmount,
  bidAmountMessage,
  bidCounters,
  bidders,
  bidMaximum,
  bidTab,
  buildBidBody,
  buyerControls,
  defaultBidAmount,
  groupBids,
  liveBidOn,
  net,
  timeLeft,
  validateBidAmount,
  validateComment,
  validateMaxAutoBid,
  largeBidRatio,
  AUTO_BID_MESSAGE,
  type BidTab,
} from './bids'

const NOW = new Date('2026-06-01T12:00:00Z')
const FUTURE = '2026-06-02T12:00:00Z'
const PAST = '2026-05-31T12:00:00Z'

describe('bid amount', () => {
  it('defaults to the current bid plus 1, or the minimum bid when nobody has bid', () => {
    expect(defaultBidAmount({ currentBid: 40, minBid: 25 })).toBe(41)
    expect(defaultBidAmount({ currentBid: 40.5, minBid: 25 })).toBe(41.5)
    expect(defaultBidAmount({ currentBid: null, minBid: 25 })).toBe(25)
  })

  it("uses the spec's message with both figures to two decimals", () => {
    expect(bidAmountMessage({ currentBid: 40, minBid: 25 })).toBe('Your bid must be higher than the current bid ($40.00) and at least the minimum bid ($25.00).')
  })

  it('with no bid yet speaks of the minimum bid only', () => {
    expect(bidAmountMessage({ currentBid: null, minBid: 9.5 })).toBe('Your bid must be at least the minimum bid ($9.50).')
  })

  it('must not be empty', () => {
    const slot = { currentBid: null, minBid: 25 }
    expect(validateBidAmount('', slot)).toBe(bidAmountMessage(slot))
    expect(validateBidAmount('   ', slot)).toBe(bidAmountMessage(slot))
  })

  it('reads the amount as people type it, and says what to type when it cannot', () => {
    const slot = { currentBid: 40, minBid: 25 }
    expect(validateBidAmount('40,01', slot)).toBeNull()
    expect(validateBidAmount('1.234,56', slot)).toBeNull()
    expect(validateBidAmount('abc', slot)).toBe('Type the amount with digits, for example 12.50 or 12,50.')
    expect(validateBidAmount('40.015', slot)).toMatch(/can be read two ways/)
    expect(validateBidAmount('1e9', slot)).toMatch(/^Type the amount with digits/)
  })

  it('asks before a bid far above the current price', () => {
    expect(largeBidRatio(59_400, { currentBid: 297, minBid: 10 })).toBeNull()
    expect(largeBidRatio(125_000, { currentBid: 297, minBid: 10 })).toBeCloseTo(4.21, 2)
    expect(largeBidRatio(2_001, { currentBid: null, minBid: 10 })).toBeCloseTo(2.0, 2)
    expect(largeBidRatio(2_000, { currentBid: null, minBid: 10 })).toBeNull()
  })

  it('must be at least the minimum bid', () => {
    const slot = { currentBid: null, minBid: 25 }
    expect(validateBidAmount('24.99', slot)).not.toBeNull()
    expect(validateBidAmount('25', slot)).toBeNull()
    expect(validateBidAmount('25.00', slot)).toBeNull()
  })

  it('must exceed the current bid when one exists', () => {
    const slot = { currentBid: 40, minBid: 25 }
    expect(validateBidAmount('40', slot)).toBe(bidAmountMessage(slot))
    expect(validateBidAmount('40.01', slot)).toBeNull()
  })

  it('the automatic maximum must be at least the amount', () => {
    expect(validateMaxAutoBid('', 3000)).not.toBeNull()
    expect(validateMaxAutoBid('29.99', 3000)).toBe(AUTO_BID_MESSAGE)
    expect(validateMaxAutoBid('29,99', 3000)).toBe(AUTO_BID_MESSAGE)
    expect(validateMaxAutoBid('30', 3000)).toBeNull()
    expect(validateMaxAutoBid('1,234', 3000)).toMatch(/can be read two ways/)
  })

  it('Bid Again is the current bid plus 10', () => {
    expect(bidAgainAmount({ currentBid: 41, minBid: 25 })).toBe(51)
    expect(bidAgainAmount({ currentBid: null, minBid: 25 })).toBe(35)
  })

  it('net is 90%', () => {
    expect(net(25)).toBe(22.5)
    expect(net(33.33)).toBe(30)
  })

  it('net follows the fee the server serves', () => {
    setConfig({ ...DEFAULT_CONFIG, rules: { ...DEFAULT_CONFIG.rules, platformFeePercent: 15 } })
    try {
      expect(net(25)).toBe(21.25)
    } finally {
      setConfig(DEFAULT_CONFIG)
    }
  })
})

describe('the increments the server serves', () => {
  it('the default amount and Bid Again follow them', () => {
    setConfig({ ...DEFAULT_CONFIG, rules: { ...DEFAULT_CONFIG.rules, bidIncrement: 2.5, bidAgainIncrement: 20 } })
    try {
      expect(defaultBidAmount({ currentBid: 40, minBid: 25 })).toBe(42.5)
      expect(bidAgainAmount({ currentBid: 40, minBid: 25 })).toBe(60)
    } finally {
      setConfig(DEFAULT_CONFIG)
    }
  })
})

describe('comment choice', () => {
  it('existing mode needs a selection', () => {
    expect(validateComment('existing', null, '')).toEqual({ title: 'No Comment Selected', description: 'Please select one of your previous comments to pin.' })
    expect(validateComment('existing', 'c1', '')).toBeNull()
  })

  it('new mode needs non-blank text', () => {
    expect(validateComment('new', null, '   ')).toEqual({ title: 'Comment is Empty', description: 'Please write a new comment to pin.' })
    expect(validateComment('new', null, 'Hi #ad')).toBeNull()
  })

  it('a bid can be placed without a comment', () => {
    expect(validateComment('later', null, '')).toBeNull()
  })

  it('sends maxAutoBid only when auto bid is on, and commentId or newCommentText', () => {
    const base = { slotId: 's1', amount: 30, maxAutoBid: 50, commentId: 'c1', commentUsername: 'brand', text: ' Hello ' }
    expect(buildBidBody({ ...base, autoBid: false, mode: 'new' })).toEqual({ pinSlotId: 's1', amount: 30, autoBidEnabled: false, newCommentText: 'Hello' })
    expect(buildBidBody({ ...base, autoBid: true, mode: 'existing' })).toEqual({
      pinSlotId: 's1',
      amount: 30,
      autoBidEnabled: true,
      maxAutoBid: 50,
      commentId: 'c1',
      commentUsername: 'brand',
    })
    expect(buildBidBody({ ...base, autoBid: false, mode: 'later' })).toEqual({ pinSlotId: 's1', amount: 30, autoBidEnabled: false })
  })
})

describe('My Bids tabs', () => {
  const b = (tab: BidTab, pinned?: string) => ({ tab, wonAuction: tab === 'won' || pinned !== undefined, pinnedComment: pinned ? { status: pinned } : null })

  it("groups by the server's tab, the one the dashboard counts", () => {
    const bids = [b('active'), b('active'), b('won'), b('live', 'ACTIVE'), b('past'), b('past', 'COMPLETED'), b('past', 'UNPINNED')]
    const g = groupBids(bids)
    expect([g.active.length, g.won.length, g.live.length, g.past.length]).toEqual([2, 1, 1, 3])
    expect(bidTab(bids[3])).toBe('live')
  })

  it('Completed counts placements that ran their course, which sit on the past tab, never on live', () => {
    const bids = [b('live', 'ACTIVE'), b('past', 'COMPLETED'), b('past', 'COMPLETED'), b('past', 'UNPINNED')]
    expect(bidCounters(bids)).toEqual({ active: 0, won: 4, live: 1, completed: 2 })
  })

  it('Won Auctions keeps a won auction once it is paid and pinned (the won tab does not)', () => {
    const bids = [b('won'), b('live', 'ACTIVE'), b('past', 'COMPLETED'), b('past'), b('active')]
    expect(groupBids(bids).won.length).toBe(1)
    expect(bidCounters(bids).won).toBe(3)
  })
})

describe('per-status buyer controls', () => {
  const bid = (status: string, over: Record<string, unknown> = {}) => ({ status, pinSlot: { auctionEnd: FUTURE, currentBid: 40 }, payment: null, pinnedComment: null, ...over })

  it('AWAITING_PAYMENT: Pay Now', () => {
    expect(buyerControls(bid('AWAITING_PAYMENT'), NOW).payNow).toBe(true)
    expect(buyerControls(bid('WON'), NOW).payNow).toBe(false)
  })

  it("PENDING_INFLUENCER_APPROVAL: the 'Pending Approval' badge", () => {
    expect(buyerControls(bid('PENDING_INFLUENCER_APPROVAL'), NOW).pendingApproval).toBe(true)
  })

  it('OUTBID with a future auction end: Bid Again (and Cancel)', () => {
    expect(buyerControls(bid('OUTBID'), NOW)).toMatchObject({ bidAgain: true, cancel: true })
    expect(buyerControls(bid('OUTBID', { pinSlot: { auctionEnd: PAST } }), NOW)).toMatchObject({ bidAgain: false, cancel: false })
    expect(buyerControls(bid('ACTIVE'), NOW)).toMatchObject({ bidAgain: false, cancel: false })
  })

  it('ACTIVE: time remaining', () => {
    expect(buyerControls(bid('ACTIVE'), NOW).timeLeft).toBe(true)
    expect(timeLeft(FUTURE, NOW)).toBe('1d 0h left')
    expect(timeLeft('2026-06-01T14:30:00Z', NOW)).toBe('2h 30m left')
    expect(timeLeft(PAST, NOW)).toBe('Ended')
  })

  it('WON, paid, not pinned: waiting for the influencer and the comment dialog', () => {
    const c = buyerControls(bid('WON', { payment: { status: 'COMPLETED' } }), NOW)
    expect(c).toMatchObject({ waitingForPin: true, submitComment: true })
    expect(buyerControls(bid('WON', { payment: { status: 'REQUESTED' } }), NOW).waitingForPin).toBe(false)
    expect(buyerControls(bid('WON', { payment: { status: 'COMPLETED' }, pinnedComment: { status: 'ACTIVE' } }), NOW).waitingForPin).toBe(false)
  })
})

describe('raising a bid', () => {
  const live = (status: string, slotId: string, over = {}) => ({ status, pinSlot: { id: slotId }, amount: 40, maxAutoBid: null as number | null, autoBidEnabled: false, ...over })

  it('finds the live bid on a slot (active or outbid), not a finished one', () => {
    const bids = [live('EXPIRED', 's1'), live('OUTBID', 's1', { amount: 30 }), live('ACTIVE', 's2')]
    expect(liveBidOn(bids, 's1')?.amount).toBe(30)
    expect(liveBidOn(bids, 's3')).toBeUndefined()
    expect(liveBidOn(undefined, 's1')).toBeUndefined()
  })

  it('shows a maximum only when it is above the visible bid', () => {
    expect(bidMaximum({ amount: 40, maxAutoBid: 90, autoBidEnabled: true })).toBe(90)
    expect(bidMaximum({ amount: 40, maxAutoBid: 40, autoBidEnabled: true })).toBeNull()
    expect(bidMaximum({ amount: 40, maxAutoBid: null, autoBidEnabled: false })).toBeNull()
  })

  it("sends a chosen comment's words with its id; keep and later name no comment", () => {
    const base = { slotId: 's', amount: 50, autoBid: false, maxAutoBid: null, commentId: 'c1', commentUsername: 'nova', commentText: ' Hi ', text: 'new words' }
    expect(buildBidBody({ ...base, mode: 'existing' })).toEqual({ pinSlotId: 's', amount: 50, autoBidEnabled: false, commentId: 'c1', commentUsername: 'nova', commentText: 'Hi' })
    expect(buildBidBody({ ...base, mode: 'keep' })).toEqual({ pinSlotId: 's', amount: 50, autoBidEnabled: false })
    expect(buildBidBody({ ...base, mode: 'later' })).toEqual({ pinSlotId: 's', amount: 50, autoBidEnabled: false })
    expect(validateComment('keep', null, '')).toBeNull()
  })
})

describe('bidders', () => {
  const line = (id: string, name: string, email?: string) => ({ id, user: { name, email } })

  it('counts each bidder once, keeping their newest line', () => {
    const lines = [line('a2', 'Acme', 'a@x'), line('n1', 'Nova', 'n@x'), line('a1', 'Acme', 'a@x')]
    expect(bidders(lines).map((l) => l.id)).toEqual(['a2', 'n1'])
  })

  it('keeps every line when bidders are not named (the public history)', () => {
    expect(bidders([{ id: '1', user: null }, { id: '2', user: null }])).toHaveLength(2)
  })
})
