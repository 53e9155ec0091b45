import { describe, expect, it } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, renderApp } from '@/test/utils'
import { imageFile, mockUpload, stubObjectUrls } from '@/test/upload'
import { buyer, creator, makeBid, makeSlot, page, signedIn, toastWith, type Bid } from '@/test/fixtures'

const slot = makeSlot
const bid = (status: string, over: Partial<Bid> = {}) =>
  makeBid({ id: `bid-${status}`, status, pinSlot: slot({ title: `Slot ${status}` }), ...over })

describe('approvals', () => {
  it('pinning in the Instagram app: post the comment, then "I pinned it"', async () => {
    const api = signedIn(creator, {
      'GET /influencer/approvals': () => json(200, [bid('WON', { payment: { status: 'COMPLETED', expiresAt: null, paidAt: null } })]),
      'GET /instagram/connection': () => json(200, { connected: true, pinMethod: 'MANUAL' }),
      'PUT /influencer/pin-comment/bid-WON': () =>
        json(200, { bidId: 'bid-WON', commentId: 'c', commentText: 'Ad · @northwind: Great reel', status: 'AWAITING_MANUAL_PIN', detail: 'ok' }),
    })
    stubObjectUrls()
    const uploads = mockUpload({
      'POST /influencer/pin-comment/bid-WON/confirm': () => ({ status: 200, body: { bidId: 'bid-WON', commentId: 'c', commentText: 'Ad · @northwind: Great reel', status: 'PINNED', detail: 'ok' } }),
    })
    renderApp('/approvals')
    await userEvent.click(await screen.findByRole('button', { name: 'Post comment' }))
    await toastWith('Comment posted')
    // posted once is enough: the button says so and cannot post a second comment
    expect(screen.getByRole('button', { name: 'Posted' })).toBeDisabled()
    expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(1)
    await userEvent.click(screen.getByRole('button', { name: 'I pinned it' }))
    await userEvent.upload(await screen.findByLabelText('Screenshot'), imageFile('proof.png'))
    await userEvent.click(screen.getByRole('button', { name: 'Send and confirm' }))
    await toastWith('Comment Pinned')
    expect(uploads.calls.map((c) => c.path)).toEqual(['/influencer/pin-comment/bid-WON/confirm'])
    expect(api.called('POST', '/influencer/instagram-login')).toBe(false)
  })

  it('a comment changed after approval is approved on its own before the pin', async () => {
    const api = signedIn(creator, {
      'GET /influencer/approvals': () =>
        json(200, [bid('WON', { payment: { status: 'COMPLETED', expiresAt: null, paidAt: null }, comment: 'New words', approvedComment: null, commentApprovedAt: null })]),
      'POST /influencer/approvals/bid-WON/comment': () => json(200, bid('WON', { approvedComment: 'Ad · @northwind: New words' })),
    })
    renderApp('/approvals')
    expect(await screen.findByText(/approve the new text before pinning/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Pin Comment' })).toBeDisabled()
    await userEvent.click(screen.getByRole('button', { name: 'Approve comment' }))
    await toastWith('Comment approved')
    expect(api.called('POST', '/influencer/approvals/bid-WON/comment')).toBe(true)
  })

  it('pin: 401 opens the Secure Instagram Login dialog, then the pin is retried', async () => {
    let pins = 0
    const api = signedIn(creator, {
      'GET /influencer/approvals': () => json(200, [bid('WON', { payment: { status: 'COMPLETED', expiresAt: null, paidAt: null } }), bid('AWAITING_PAYMENT')]),
      'PUT /influencer/pin-comment/bid-WON': () =>
        ++pins === 1
          ? json(401, { detail: 'Log in to Instagram to pin.', code: 'instagram_login_required' })
          : json(200, { bidId: 'bid-WON', commentId: 'c', commentText: 'Great reel #ad', status: 'PINNED', detail: 'ok' }),
      'POST /influencer/instagram-login': () => json(200, { detail: 'ok', username: 'maya.moves' }),
    })
    renderApp('/approvals')
    expect(await screen.findByText('Waiting on the brand to pay...')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Pin Comment' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Secure Instagram Login' }))
    expect(dialog.getByLabelText('Instagram username')).toHaveValue('maya.moves')
    await userEvent.type(dialog.getByLabelText('Instagram password'), 'sandbox')
    await userEvent.click(dialog.getByRole('button', { name: /Log In/ }))
    await toastWith('Comment Pinned')
    // one toast for one pin: the login that led to it says nothing of its own
    expect(screen.queryByText('Instagram Login Successful')).toBeNull()
    expect(pins).toBe(2)
    expect(api.calls.find((c) => c.path === '/influencer/instagram-login')?.body).toEqual({ username: 'maya.moves', password: 'sandbox' })
  })

  it('approve and reject; All caught up!', async () => {
    const api = signedIn(creator, {
      'GET /influencer/approvals': () => json(200, [bid('PENDING_INFLUENCER_APPROVAL')]),
      'POST /influencer/approvals/bid-PENDING_INFLUENCER_APPROVAL': () => json(409, { detail: 'The bid is no longer pending.' }),
    })
    renderApp('/approvals')
    // each decision asks first; Cancel sends nothing and gives focus back to the button
    const approve = await screen.findByRole('button', { name: 'Approve' })
    await userEvent.click(approve)
    const ask = within(await screen.findByRole('alertdialog', { name: "Approve Northwind's bid?" }))
    ask.getByText(/Northwind will be asked to pay \$40\.00 .* This cannot be undone\./)
    await userEvent.click(ask.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(approve).toHaveFocus())
    expect(api.calls.filter((c) => c.method === 'POST')).toEqual([])
    await userEvent.click(approve)
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Approve' }))
    await toastWith('Error Approving Bid')
    await userEvent.click(screen.getByRole('button', { name: 'Reject' }))
    await userEvent.click(within(await screen.findByRole('alertdialog', { name: "Reject Northwind's bid?" })).getByRole('button', { name: 'Reject' }))
    await toastWith('Failed to reject bid')
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ status: 'APPROVED' }, { status: 'REJECTED' }])
  })

  it('an approved card says at once that the brand is to pay, with its toast', async () => {
    const approved = bid('APPROVED', { id: 'bid-PENDING_INFLUENCER_APPROVAL' })
    let decided = false
    signedIn(creator, {
      'GET /influencer/approvals': () => json(200, [decided ? approved : bid('PENDING_INFLUENCER_APPROVAL')]),
      'POST /influencer/approvals/bid-PENDING_INFLUENCER_APPROVAL': () => {
        decided = true
        return json(200, approved)
      },
    })
    renderApp('/approvals')
    await userEvent.click(await screen.findByRole('button', { name: 'Approve' }))
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Approve' }))
    await toastWith('Approval Successful')
    expect(screen.getByText('Waiting on the brand to pay...')).toBeInTheDocument()
  })

  it('All caught up!', async () => {
    signedIn(creator, { 'GET /influencer/approvals': () => json(200, []) })
    renderApp('/approvals')
    await screen.findByText('All caught up!')
  })
})

describe('earnings: recent transactions', () => {
  it('a transaction is dated when the brand paid, not when its likes were last counted', async () => {
    const paid = bid('PINNED', {
      finalPrice: 40,
      updatedAt: '2026-11-26T10:00:00Z',
      payment: { status: 'COMPLETED', expiresAt: null, paidAt: '2026-09-15T16:15:00Z' },
    })
    signedIn(creator, {
      'GET /influencer/earnings': () => json(200, { totalEarnings: 36, thisMonthEarnings: 0, pendingPayouts: 0, pendingBalance: 0, availableBalance: 36, releasedEarnings: 36, refundedEarnings: 0 }),
      'GET /influencer/payouts': () => json(200, []),
      'GET /influencer/bids': () => json(200, [paid]),
      'GET /influencer/payout-settings': () => json(404, { detail: 'none' }),
    })
    renderApp('/earnings')
    const row = (await screen.findByText('Slot PINNED')).closest('li') as HTMLElement
    expect(within(row).getByText(/Sep 15, 2026/)).toBeInTheDocument()
    expect(within(row).queryByText(/Nov 26, 2026/)).not.toBeInTheDocument()
  })
})

describe('earnings: payout settings', () => {
  it('save is disabled while errors exist; errors are listed in a toast', async () => {
    const api = signedIn(creator, {
      'GET /influencer/earnings': () => json(200, { totalEarnings: 22.5, thisMonthEarnings: 22.5, pendingPayouts: 0, pendingBalance: 22.5, availableBalance: 0, releasedEarnings: 7.5, refundedEarnings: 2.25 }),
      'GET /influencer/payouts': () => json(200, []),
      'GET /influencer/bids': () => json(200, []),
      'GET /influencer/payout-settings': () => json(404, { detail: 'none' }),
      'PUT /influencer/payout-settings': (body) => json(200, { ...(body as object), saved: true }),
    })
    renderApp('/earnings')
    const form = within(await screen.findByRole('form', { name: 'Payout settings' }))
    // the staged release: pending, released and refunded shares
    expect(screen.getByText('Released as comments stay pinned')).toBeInTheDocument()
    expect(screen.getByText('$7.50')).toBeInTheDocument()
    expect(screen.getByText('$2.25')).toBeInTheDocument()
    const save = form.getByRole('button', { name: 'Save Payout Settings' })
    expect(save).toBeDisabled()
    await userEvent.type(form.getByLabelText('Account holder name'), 'Maya Rivers')
    await userEvent.type(form.getByLabelText('Bank account number'), '1234')
    await toastWith('Please fix your payout settings')
    expect(screen.getAllByText('Bank account number must be at least 8 digits.').length).toBeGreaterThan(0)
    expect(screen.getAllByText('Routing number must be 9 digits.').length).toBeGreaterThan(0)
    await userEvent.type(form.getByLabelText('Bank account number'), '5678')
    await userEvent.type(form.getByLabelText('Routing number'), '123456789')
    await waitFor(() => expect(save).toBeEnabled())
    await userEvent.click(save)
    await toastWith('Payout Settings Saved')
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ payoutMethod: 'BANK_TRANSFER', minimumPayout: 50, bankAccount: '12345678', routingNumber: '123456789', sortCode: null })
  })

  // where the money goes is a sensitive change: with a second factor on, the server asks for a fresh one first
  const STEP_UP = { detail: "Confirm it's you: enter a code from your authenticator app, or use a passkey.", code: 'step_up_required' }
  async function savePayoutAsked(code: string | null) {
    const api = signedIn(creator, {
      'GET /influencer/earnings': () => json(200, { totalEarnings: 0, thisMonthEarnings: 0, pendingPayouts: 0, pendingBalance: 0, availableBalance: 0, releasedEarnings: 0, refundedEarnings: 0 }),
      'GET /influencer/payouts': () => json(200, []),
      'GET /influencer/bids': () => json(200, []),
      'GET /influencer/payout-settings': () => json(404, { detail: 'none' }),
      'GET /auth/second-factor': () => json(200, { totpEnabled: true, totpPending: false, recoveryCodesLeft: 10, passkeys: [], stepUpUntil: null, stepUpRequired: true }),
      'POST /auth/step-up': () => json(200, { token: 'fresh-token', stepUpUntil: '2026-11-27T14:05:00Z' }),
      'PUT /influencer/payout-settings': (body, req) => (req.headers.get('Authorization') === 'Bearer fresh-token' ? json(200, { ...(body as object), saved: true }) : json(401, STEP_UP)),
    })
    renderApp('/earnings')
    const form = within(await screen.findByRole('form', { name: 'Payout settings' }))
    await userEvent.type(form.getByLabelText('Account holder name'), 'Maya Rivers')
    await userEvent.type(form.getByLabelText('Bank account number'), '12345678')
    await userEvent.type(form.getByLabelText('Routing number'), '123456789')
    const save = form.getByRole('button', { name: 'Save Payout Settings' })
    await waitFor(() => expect(save).toBeEnabled())
    await userEvent.click(save)
    const dialog = within(await screen.findByRole('dialog', { name: "Confirm it's you" }))
    if (code) {
      await userEvent.type(dialog.getByLabelText('Authentication code'), code)
      await userEvent.click(dialog.getByRole('button', { name: 'Confirm' }))
    } else await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    return api.calls.filter((c) => c.method === 'PUT' && c.path === '/influencer/payout-settings')
  }

  it('a new payout account asks for a fresh second factor, then the same settings are sent again and saved', async () => {
    const sent = await savePayoutAsked('246810')
    await toastWith('Payout Settings Saved')
    expect(sent.map((c) => c.auth)).toEqual(['Bearer t', 'Bearer fresh-token'])
    expect(sent[1]!.body).toEqual(sent[0]!.body)
    expect(sent[1]!.body).toMatchObject({ bankAccount: '12345678', routingNumber: '123456789' })
  })

  it('a cancelled confirmation saves nothing and says no failure', async () => {
    const sent = await savePayoutAsked(null)
    expect(sent).toHaveLength(1)
    expect(screen.queryByText('Failed to save payout settings')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Save Payout Settings' })).toBeEnabled()
  })
})

describe('role gate', () => {
  it("another role's page goes to the dashboard without calling the server (no 403 sign-out)", async () => {
    const api = signedIn(creator, {
      'GET /influencer/dashboard': () => json(200, { activeSlots: 0, pendingApprovals: 0, totalEarnings: 0, completedJobs: 0 }),
      'GET /influencer/pin-slots/active': () => json(200, []),
      'GET /notifications': () => json(200, []),
    })
    renderApp('/my-bids')
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'))
    expect(api.called('GET', '/buyer/bids')).toBe(false)
    expect(localStorage.getItem('token')).toBe('t')
  })

  it('a buyer back from the Instagram callback lands on the marketplace with the toast', async () => {
    signedIn(buyer, { 'GET /marketplace/categories': () => json(200, []), 'GET /marketplace/slots': () => page([]) })
    renderApp('/post-manager?connected=1')
    await toastWith('Instagram Connected')
    expect(screen.getByTestId('location')).toHaveTextContent('/marketplace')
  })
})
