import { describe, expect, it } from 'vitest'
import { bidProblem, type BidInput } from './place-bid'

const slot = { currentBid: 40, minBid: 25 }
const ok: BidInput = { amount: '41', autoBid: false, maxAutoBid: '', mode: 'later', selected: null, text: '' }

describe('what stops a bid', () => {
  it('tells the amount first, then the maximum, then the comment, each with its field', () => {
    expect(bidProblem(ok, slot)).toBeNull()
    expect(bidProblem({ ...ok, amount: '40', autoBid: true, maxAutoBid: '1', mode: 'new' }, slot)).toMatchObject({ field: 'typedAmount', title: 'Invalid Bid Amount' })
    expect(bidProblem({ ...ok, autoBid: true, maxAutoBid: '30', mode: 'new' }, slot)).toMatchObject({ field: 'maxAutoBid', title: 'Invalid Maximum Bid' })
    expect(bidProblem({ ...ok, mode: 'existing' }, slot)).toEqual({ field: 'text', title: 'No Comment Selected', description: 'Please select one of your previous comments to pin.' })
  })

  it('reads the amount as people type it', () => {
    expect(bidProblem({ ...ok, amount: '41,50' }, slot)).toBeNull()
    expect(bidProblem({ ...ok, amount: 'forty' }, slot)?.field).toBe('typedAmount')
  })
})
