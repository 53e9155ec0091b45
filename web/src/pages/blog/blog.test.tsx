import { describe, expect, it, vi } from 'vitest'
import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, mockApi, renderApp } from '@/test/utils'
import { FormulaDemo, FORMULA_STATES } from './demos'

const summary = (i: number) => ({
  slug: `post-${i}`,
  type: 'md',
  title: `Article ${i}`,
  author: 'Ava Chen',
  publishedAt: '2026-10-01T00:00:00Z',
  excerpt: 'Excerpt',
  category: 'creator-tips',
  tags: ['pricing'],
  featured: false,
  imageUrl: null,
  views: 10,
  readTime: 4,
})

describe('blog', () => {
  it('the formula demo advances every 3000 ms through before + B, R, I, D, G, E', () => {
    vi.useFakeTimers()
    try {
      render(<FormulaDemo />)
      const step = () => screen.getByTestId('formula-step').textContent
      expect(step()).toBe('Before')
      for (const s of FORMULA_STATES.slice(1)) {
        const before = step()
        act(() => vi.advanceTimersByTime(2999))
        expect(step()).toBe(before)
        act(() => vi.advanceTimersByTime(1))
        expect(step()).toBe(`${s.letter} — ${s.name}`)
      }
      act(() => vi.advanceTimersByTime(3000))
      expect(step()).toBe('Before')
    } finally {
      vi.useRealTimers()
    }
  })

  it('Load More Articles really loads the next page', async () => {
    const api = mockApi({
      'GET /blog/featured': () => json(200, { articles: [] }),
      'GET /blog/categories': () => json(200, { categories: ['creator-tips'] }),
      'GET /blog/articles': (_b, req) => {
        const page = Number(new URL(req.url).searchParams.get('page'))
        return json(200, { articles: page === 1 ? [1, 2].map(summary) : [summary(3)], total: 3, totalPages: 2, page })
      },
    })
    renderApp('/blog')
    expect(await screen.findByText('Showing 2 of 3 articles')).toBeInTheDocument()
    expect(screen.getByPlaceholderText('Search articles, topics, or tags...')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'All Categories' })).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByRole('button', { name: 'creator tips' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Load More Articles' }))
    expect(await screen.findByText('Showing 3 of 3 articles')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Load More Articles' })).not.toBeInTheDocument()
    expect(api.calls.filter((c) => c.path === '/blog/articles')).toHaveLength(2)
  })

  it('subscribes to the newsletter and shows the detail', async () => {
    const api = mockApi({
      'GET /blog/featured': () => json(200, { articles: [] }),
      'GET /blog/categories': () => json(200, { categories: [] }),
      'GET /blog/articles': () => json(200, { articles: [], total: 0, totalPages: 0, page: 1 }),
      'POST /newsletter/subscribe': () => json(202, { detail: 'Check your inbox to confirm your subscription.' }),
    })
    renderApp('/blog')
    await userEvent.type(await screen.findByLabelText('Email address'), 'fan@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe' }))
    expect(await screen.findByText('Check your inbox to confirm your subscription.')).toBeInTheDocument()
    expect(api.calls.find((c) => c.path === '/newsletter/subscribe')?.body).toEqual({ email: 'fan@example.com' })
  })

  it.each([
    [404, 'Blog post not found.'],
    [500, 'Failed to load blog post. Please try again later.'],
  ])('a %s shows "%s" as red centred text, the page\'s h1, announced', async (status, text) => {
    mockApi({ 'GET /blog/articles/missing': () => json(status, { detail: 'x', code: 'x' }) })
    renderApp('/blog/missing')
    const el = await screen.findByText(text)
    expect(el).toHaveClass('text-center', 'text-red-600')
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(text)
    expect(screen.getByRole('alert')).toHaveTextContent(text)
  })

  it('renders a post with category (hyphens as spaces), tags with #, the body as the server rendered it and the CTA', async () => {
    const body = [{ kind: 'html', html: '<h2>Hello</h2><p>Body text.</p>' }, { kind: 'steps' }, { kind: 'html', html: '<p>End.</p>' }]
    const api = mockApi({ 'GET /blog/articles/post-1': () => json(200, { ...summary(1), publishedAt: '2026-10-01', content: '## Hello', body, faq: [], seo: null }) })
    renderApp('/blog/post-1')
    expect(await screen.findByRole('heading', { level: 1, name: 'Article 1' })).toBeInTheDocument()
    expect(screen.getByText('creator tips')).toBeInTheDocument()
    expect(screen.getByText('#pricing')).toBeInTheDocument()
    expect(screen.getByText('October 1, 2026')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Hello' })).toBeInTheDocument()
    expect(screen.getByTestId('steps-demo').previousElementSibling).toHaveTextContent('Body text.')
    expect(screen.getByTestId('steps-demo').nextElementSibling).toHaveTextContent('End.')
    expect(document.title).toBe('Article 1 — Pinbid Blog')
    expect(api.calls.filter((c) => c.path === '/blog/articles/post-1')).toHaveLength(1)
    expect(screen.getByRole('link', { name: 'Sign Up Now' })).toHaveAttribute('href', '/login')
    expect(screen.getByText('Sign up today and start earning from your pinned comments.')).toBeInTheDocument()
  })
})
