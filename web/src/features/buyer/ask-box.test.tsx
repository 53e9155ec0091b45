import { describe, expect, it } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, renderApp } from '@/test/utils'
import { buyer, makeSlot, signedIn } from '@/test/fixtures'

const understood = {
  filters: { category: 'fitness', maxPrice: 30 },
  chips: [{ parameter: 'category', label: 'Fitness' }, { parameter: 'maxPrice', label: 'up to $30' }],
  sentence: 'Fitness · up to $30',
  ignored: [],
  rankedBy: 'home workouts',
}

function dashboard() {
  const asked: URLSearchParams[] = []
  const api = signedIn(buyer, {
    'GET /buyer/dashboard': () => json(200, { activeBids: 0, wonAuctions: 0, totalSpent: 0 }),
    'GET /marketplace/slots': (_, req) => {
      const params = new URL(req.url).searchParams
      asked.push(params)
      const removed = params.getAll('ignore')
      const chips = understood.chips.filter((c) => !removed.includes(c.parameter))
      const answer = params.get('ask') ? { ...understood, chips, sentence: chips.map((c) => c.label).join(' · ') } : null
      return json(200, { slots: [makeSlot({ title: 'Home workout plan' })], total: 1, totalIsExact: true, totalPages: 1, page: 1, understood: answer })
    },
  })
  renderApp('/dashboard')
  return { api, asked }
}

describe('the AI search box', () => {
  it('asks the question, shows the chips read from it and says what it did', async () => {
    const { asked } = dashboard()
    await userEvent.type(await screen.findByLabelText(/AI search/), 'fitness creators under $30 for home workouts')
    const chips = await screen.findByRole('list', { name: 'Filters read from your question' })
    expect(within(chips).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Fitness', 'up to $30'])
    expect(screen.getByText("Showing Fitness · up to $30, ranked by how well they match 'home workouts'.")).toHaveAttribute('aria-live', 'polite')
    const last = asked[asked.length - 1]
    expect(last.get('ask')).toBe('fitness creators under $30 for home workouts')
    expect(last.get('sortBy')).toBeNull() // ranked by the question
  })

  it('removes a chip from the keyboard and asks again without it', async () => {
    const { asked } = dashboard()
    await userEvent.type(await screen.findByLabelText(/AI search/), 'fitness under $30')
    const remove = await screen.findByRole('button', { name: 'Remove up to $30' })
    remove.focus()
    await userEvent.keyboard('{Enter}')
    await waitFor(() => expect(asked[asked.length - 1].getAll('ignore')).toEqual(['maxPrice']))
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove up to $30' })).not.toBeInTheDocument())
    expect(screen.getByRole('button', { name: 'Remove Fitness' })).toBeInTheDocument()
  })

  it('is described by the line it updates, and keeps the question within the server limit', async () => {
    dashboard()
    const box = await screen.findByLabelText(/AI search/)
    expect(box).toBeEnabled()
    expect(box).toHaveAttribute('aria-describedby', 'ai-search-said')
    expect(box).toHaveAttribute('maxLength', '300')
  })
})
