import { describe, expect, it } from 'vitest'
import { askQuery, askSentence, type Understood } from './ask'

const understood = (over: Partial<Understood> = {}): Understood => ({
  filters: {}, chips: [], sentence: '', ignored: [], rankedBy: null, ...over,
})

describe('the AI search line', () => {
  it('says the filters read and what ranked the slots', () => {
    expect(askSentence(understood({ sentence: 'Fitness · up to $30', rankedBy: 'home workouts' })))
      .toBe("Showing Fitness · up to $30, ranked by how well they match 'home workouts'.")
  })

  it('says the filters alone, or the ranking alone', () => {
    expect(askSentence(understood({ sentence: 'Fitness' }))).toBe('Showing Fitness.')
    expect(askSentence(understood({ rankedBy: 'coffee' }))).toBe("Showing every open slot, ranked by how well they match 'coffee'.")
  })

  it('says when nothing could be read, and what was set aside and why', () => {
    expect(askSentence(understood({ ignored: [{ phrase: 'under $-5', reason: 'A price cannot be negative.' }] })))
      .toBe("Showing every open slot: nothing in the question could be read as a filter. Not applied: 'under $-5' (A price cannot be negative.)")
  })
})

describe('the query of a question', () => {
  it('sends nothing for an empty question, and the removed chips with one', () => {
    expect(askQuery('   ', ['maxPrice'])).toEqual({})
    expect(askQuery(' coffee ', [])).toEqual({ ask: 'coffee' })
    expect(askQuery('fitness under $30', ['maxPrice'])).toEqual({ ask: 'fitness under $30', ignore: ['maxPrice'] })
  })
})
