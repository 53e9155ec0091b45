import { describe, expect, it, vi } from 'vitest'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Post } from '@/api/types'
import { json, mockApi, renderWithClient } from '@/test/utils'
import { CreateSlotDialog } from './components/CreateSlotDialog'

const post = { id: 'p1', caption: 'Latte art at dawn' } as unknown as Post

function open(onClose = vi.fn()) {
  renderWithClient(<CreateSlotDialog post={post} onClose={onClose} />)
  return onClose
}

describe('the pin slot form', () => {
  it("shows the form's one message after a first attempt, follows the fields, and sends the prices read as typed", async () => {
    const api = mockApi({ 'GET /marketplace/categories': () => json(200, ['coffee']), 'POST /influencer/pin-slots': () => json(201, { id: 's1' }) })
    const onClose = open()
    await userEvent.click(await screen.findByRole('button', { name: 'Create Pin Slot' }))
    expect(await screen.findByText('Give the slot a title, a category and a minimum bid.')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Title'), 'Latte art')
    await userEvent.selectOptions(screen.getByLabelText('Category'), await screen.findByRole('option', { name: 'Coffee' }))
    await userEvent.type(screen.getByLabelText('Minimum bid (USD)'), '12,50')
    await userEvent.type(screen.getByLabelText('Buy Now price (optional)'), '5')
    expect(screen.getByText('The Buy Now price must be at least the minimum bid.')).toBeInTheDocument()
    await userEvent.clear(screen.getByLabelText('Buy Now price (optional)'))
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Create Pin Slot' }))
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled())
    const sent = api.calls.find((c) => c.method === 'POST')?.body as Record<string, unknown>
    expect(sent).toMatchObject({ postId: 'p1', title: 'Latte art', description: 'Latte art at dawn', category: 'coffee', minBid: 12.5, duration: 7 })
    expect(sent).not.toHaveProperty('buyNowPrice')
  })

  it("puts the server's 422 on the field it names", async () => {
    mockApi({
      'GET /marketplace/categories': () => json(200, ['coffee']),
      'POST /influencer/pin-slots': () => json(422, { detail: 'buyNowPrice: Too high.', code: 'validation_error', errors: [{ field: 'buyNowPrice', message: 'Too high.' }] }),
    })
    open()
    await userEvent.type(await screen.findByLabelText('Title'), 'Latte art')
    await userEvent.selectOptions(screen.getByLabelText('Category'), await screen.findByRole('option', { name: 'Coffee' }))
    await userEvent.type(screen.getByLabelText('Minimum bid (USD)'), '10')
    await userEvent.type(screen.getByLabelText('Buy Now price (optional)'), '20')
    await userEvent.click(screen.getByRole('button', { name: 'Create Pin Slot' }))
    expect(await screen.findByText('Too high.')).toBeInTheDocument()
  })
})
