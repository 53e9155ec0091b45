import { StrictMode } from 'react'
import { act } from '@testing-library/react'
import { hydrateRoot, type Root } from 'react-dom/client'
import { prerender } from 'react-dom/static'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Article } from '@/api/blog'
import { ARTICLE_DATA_ID, articleText } from '@/pages/blog/article-page'
import cases from '@/pages/blog/post-text.cases.json'
import { App } from './App'
import { render, renderPostFrame } from './entry-server'

let mounted: Root | null = null
afterEach(() => {
  act(() => mounted?.unmount())
  mounted = null
  document.body.innerHTML = ''
  window.history.replaceState(null, '', '/')
})

/** The app hydrating `root` as main.tsx does: the errors React recovered from (a mismatch is one). */
async function hydrateApp(root: HTMLElement): Promise<unknown[]> {
  const errors: unknown[] = []
  await act(async () => {
    mounted = hydrateRoot(
      root,
      <StrictMode>
        <App />
      </StrictMode>,
      { onRecoverableError: (error) => errors.push(error) },
    )
  })
  return errors
}

describe('prerendered public pages', () => {
  it.each(['/', '/login', '/blog', '/signup/buyer', '/reset-password', '/terms'])('%s is rendered whole, its forms inert, with no inline script, and hydrates without a mismatch', async (path) => {
    const html = await render(path)
    expect(html).toContain('<main')
    expect(html).not.toMatch(/<script/i) // the page's CSP allows no inline script
    expect(html).not.toContain('<!--$?-->') // no boundary left pending
    // a form cannot be used before its handlers are attached (the browser would send it itself, as a GET)
    expect(html.match(/<form[^>]*>/g)?.filter((form) => !/ inert=""/.test(form)) ?? []).toEqual([])
    // the server renderer and the browser's share this test's modules: React's server renderer leaves the last
    // page's context values (the static router's) on the context objects until its next render starts, which
    // would reach the hydration below; a render of nothing puts them back (a browser never runs the two together)
    await prerender(<div />)

    // the browser on that page, before its scripts: the HTML as the build wrote it
    window.history.replaceState(null, '', path)
    const root = document.createElement('div')
    root.innerHTML = html
    document.body.append(root)
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise(() => {})) // the blog's queries stay pending
    const errors = await hydrateApp(root)
    await act(() => new Promise((resolve) => setTimeout(resolve, 50))) // the lazy page's chunk arrives, its boundary hydrates
    expect(errors).toEqual([])
    expect(root.querySelectorAll('form[inert]')).toHaveLength(0)
    expect(root.querySelector('main')?.textContent).not.toBe('')
  })
})

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;')

/** What the gateway does with the frame (gateway/pinbid_gateway/post_page.py, which has its own tests): each slot
 *  filled at once, the strings escaped, the body's parts and the cover picture from the frame's parts. */
function fill(frame: string, parts: Record<string, string>, article: Article): string {
  const text = articleText(article)
  const values: Record<string, string> = Object.fromEntries(Object.entries(text).map(([name, value]) => [name, escapeHtml(value)]))
  values.body = article.body.map((part) => (part.kind === 'html' ? parts.html.replace('@@html@@', part.html) : parts[part.kind])).join('')
  values.cover = text.imageUrl ? parts.cover.replace('@@imageUrl@@', values.imageUrl) : ''
  return frame.replace(/@@(\w+)@@/g, (_, name: string) => values[name])
}

const ARTICLE: Article = {
  slug: 'bridge-formula',
  type: 'mdx',
  title: '</script><b>"The BRIDGE" & co</b>',
  author: 'émile',
  publishedAt: '2026-11-10',
  excerpt: 'Six steps \u2028 & <more>.',
  category: 'brand-playbook',
  tags: ['copywriting', 'ad'],
  featured: true,
  imageUrl: 'https://images.example/cover.jpg?a=1&b=2',
  views: 1234,
  readTime: 5,
  content: 'source',
  body: [{ kind: 'html', html: '<p>Intro <strong>bold</strong></p>' }, { kind: 'formula' }, { kind: 'html', html: '<h2>Then</h2>' }, { kind: 'steps' }],
  faq: [{ question: 'Paid?', answer: 'Yes.' }],
  seo: null,
}

describe('a blog post, its frame filled by the gateway', () => {
  it.each(cases)('writes the strings the gateway writes ($article.slug)', ({ article, text }) => {
    expect(articleText({ ...ARTICLE, ...article } as Article)).toEqual(text)
  })

  it('is the page the app hydrates without a mismatch, from the article in its data block, fetching nothing', async () => {
    const { html: frame, parts } = await renderPostFrame()
    expect(frame).not.toMatch(/<script/i)
    expect(frame).toContain('@@body@@')
    await prerender(<div />) // as above: the server renderer's context values put back

    window.history.replaceState(null, '', `/blog/${ARTICLE.slug}`)
    const root = document.createElement('div')
    root.innerHTML = fill(frame, parts, ARTICLE)
    const data = document.createElement('script')
    data.type = 'application/json'
    data.id = ARTICLE_DATA_ID
    data.textContent = JSON.stringify(ARTICLE).replace(/</g, '\\u003c')
    document.body.append(root, data)
    const h1 = root.querySelector('h1')
    expect(h1?.textContent).toBe(ARTICLE.title)
    expect(root.querySelector('time')?.textContent).toBe('November 10, 2026')
    expect(root.querySelector('img')?.getAttribute('src')).toBe(ARTICLE.imageUrl)
    expect(root.querySelector('[data-testid="formula-demo"]')?.previousElementSibling?.innerHTML).toBe('<p>Intro <strong>bold</strong></p>')
    expect(root.textContent).not.toContain('@@')

    const fetched = vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise(() => {}))
    const errors = await hydrateApp(root)
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)))
    expect(errors).toEqual([])
    expect(root.querySelector('h1')).toBe(h1) // hydrated, not rendered afresh
    expect(fetched.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/blog/'))).toEqual([])
    // what the frame leaves out follows the hydration
    expect(root.querySelector('ul[aria-label="Tags"]')?.textContent).toBe('#copywriting#ad')
    expect(root.textContent).toContain('Paid?')
    expect(document.title).toBe(`${ARTICLE.title} — Pinbid Blog`)
    data.remove()
  })
})
