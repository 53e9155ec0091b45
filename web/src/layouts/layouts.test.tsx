import { describe, expect, it } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, makeUser, mockApi, renderApp } from '@/test/utils'
import { pageTitle } from './AppShell'

describe('public layout', () => {
  it('the phone menu opens, and closes after a choice', async () => {
    mockApi({})
    renderApp('/privacy')
    const toggle = await screen.findByRole('button', { name: 'Open menu' })
    const menu = document.getElementById('mobile-menu')!
    expect(menu).not.toBeVisible()
    await userEvent.click(toggle)
    expect(menu).toBeVisible()
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true')
    await userEvent.click(within(menu).getByRole('link', { name: 'Sign In' }))
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'))
    expect(menu).not.toBeVisible()
  })

  it('Escape closes the phone menu', async () => {
    mockApi({})
    renderApp('/terms')
    await userEvent.click(await screen.findByRole('button', { name: 'Open menu' }))
    await userEvent.keyboard('{Escape}')
    expect(document.getElementById('mobile-menu')).not.toBeVisible()
  })

  it('shows the 404 screen for unknown paths', async () => {
    mockApi({})
    renderApp('/no/such/page')
    expect(await screen.findByText('404')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/')
  })
})

describe('signed-in shell', () => {
  it('capitalises the current path in the header', () => {
    expect(pageTitle('/my-bids')).toBe('My Bids')
    expect(pageTitle('/post-manager')).toBe('Post Manager')
    expect(pageTitle('/settings')).toBe('Settings')
  })

  it('shows the influencer menu under "Creator Tools" with the user name and role', async () => {
    localStorage.setItem('token', 't')
    mockApi({ 'GET /auth/me': () => json(200, makeUser()) })
    renderApp('/earnings')
    expect(await screen.findByRole('heading', { level: 1, name: 'Earnings' })).toBeInTheDocument()
    const nav = screen.getByRole('navigation', { name: 'App navigation' })
    expect(within(nav).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual([
      '/dashboard',
      '/dashboard',
      '/post-manager',
      '/approvals',
      '/earnings',
      '/settings',
    ])
    expect(within(nav).getByText('Creator Tools')).toBeInTheDocument()
    expect(within(nav).getByText('Maya Rivers')).toBeInTheDocument()
    expect(within(nav).getByText('Creator')).toBeInTheDocument()
  })

  it('shows the buyer menu under "Brand Tools"', async () => {
    localStorage.setItem('token', 't')
    mockApi({ 'GET /auth/me': () => json(200, makeUser({ role: 'BUYER', name: 'Jordan Blake' })) })
    renderApp('/marketplace')
    const nav = await screen.findByRole('navigation', { name: 'App navigation' })
    expect(within(nav).getByText('Brand Tools')).toBeInTheDocument()
    expect(within(nav).getAllByRole('link').map((a) => a.textContent)).toEqual(['Pinbid', 'Dashboard', 'Marketplace', 'My Bids', 'Campaigns', 'Settings'])
  })
})
