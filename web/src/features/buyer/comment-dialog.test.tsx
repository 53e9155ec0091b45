import { describe, expect, it, vi } from 'vitest'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Bid } from '@/api/types'
import { json, mockApi, renderWithClient } from '@/test/utils'
import { CommentDialog } from './components/CommentDialog'

const bid = { id: 'b1', comment: null, commentId: null, pinSlot: { title: 'Sunrise ridge' } } as unknown as Bid

function open(onClose = vi.fn()) {
  renderWithClient(<CommentDialog bid={bid} onClose={onClose} />)
  return onClose
}

describe('the comment dialog of a won bid', () => {
  it('sends nothing for an empty text, then the trimmed words', async () => {
    const api = mockApi({ 'POST /buyer/comment-submission': () => json(200, { detail: 'ok' }) })
    const onClose = open()
    await userEvent.click(await screen.findByRole('button', { name: 'Submit Comment' }))
    expect(api.fn).not.toHaveBeenCalled()
    await userEvent.type(screen.getByLabelText('Your comment'), '  Love this ridge  ')
    await userEvent.click(screen.getByRole('button', { name: 'Submit Comment' }))
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(api.calls[0].body).toEqual({ bidId: 'b1', commentText: 'Love this ridge' })
  })

  it("shows the server's 422 on the comment field and the failure line", async () => {
    mockApi({
      'POST /buyer/comment-submission': () =>
        json(422, { detail: 'A comment can mention at most 5 accounts on Instagram.', code: 'validation_error', errors: [{ field: 'commentText', message: 'Too many mentions.' }] }),
    })
    open()
    await userEvent.type(await screen.findByLabelText('Your comment'), '@a @b @c @d @e @f')
    await userEvent.click(screen.getByRole('button', { name: 'Submit Comment' }))
    expect(await screen.findByText('Failed to submit comment. A comment can mention at most 5 accounts on Instagram.')).toBeInTheDocument()
    expect(screen.getByText('Too many mentions.')).toBeInTheDocument()
    expect(screen.getByLabelText('Your comment')).toHaveAttribute('aria-invalid', 'true')
  })
})
