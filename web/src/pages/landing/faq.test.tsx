import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { FaqSection } from './FaqSection'
import { FAQ_GROUPS } from './faq'

const trigger = (q: string) => screen.getByRole('button', { name: q })

describe('FAQ accordion', () => {
  it('has the three groups', () => {
    render(<FaqSection />)
    for (const title of ['General Information', 'For Creators', 'For Brands']) {
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument()
    }
  })

  it('keeps one item open across all groups, and clicking the open item closes it', async () => {
    render(<FaqSection />)
    const first = FAQ_GROUPS[0].items[0]
    const other = FAQ_GROUPS[2].items[1]

    expect(screen.queryAllByRole('button', { expanded: true })).toHaveLength(0)

    await userEvent.click(trigger(first.question))
    expect(trigger(first.question)).toHaveAttribute('aria-expanded', 'true')
    expect(screen.getByText(first.answer)).toBeVisible()

    await userEvent.click(trigger(other.question))
    expect(trigger(other.question)).toHaveAttribute('aria-expanded', 'true')
    expect(trigger(first.question)).toHaveAttribute('aria-expanded', 'false')
    expect(screen.getAllByRole('button', { expanded: true })).toHaveLength(1)

    await userEvent.click(trigger(other.question))
    expect(trigger(other.question)).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryAllByRole('button', { expanded: true })).toHaveLength(0)
  })

  it('carries the spec FAQ claims', () => {
    const text = FAQ_GROUPS.flatMap((g) => g.items.map((i) => i.answer)).join(' ')
    for (const claim of ['10,000', '$50', '7 to 30 days', 'refunded in full', 'Buy Now', 'verified email', 'PayPal', 'rating']) {
      expect(text).toContain(claim)
    }
  })
})
