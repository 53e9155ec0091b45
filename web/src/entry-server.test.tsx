import { StrictMode } from 'react'
import { act } from '@testing-library/react'
import { hydrateRoot, type Root } from 'react-dom/client'
import { prerender } from 'react-dom/static'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { App } from './App'
import { render } from './entry-server'

let mounted: Root | null = null
afterEach(() => {
  act(() => mounted?.unmount())
  mounted = null
  document.body.innerHTML = ''
  window.history.replaceState(null, '', '/')
})

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
    await act(() => new Promise((resolve) => setTimeout(resolve, 50))) // the lazy page's chunk arrives, its boundary hydrates
    expect(errors).toEqual([])
    expect(root.querySelectorAll('form[inert]')).toHaveLength(0)
    expect(root.querySelector('main')?.textContent).not.toBe('')
  })
})
