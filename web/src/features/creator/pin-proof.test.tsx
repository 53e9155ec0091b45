import { beforeEach, describe, expect, it } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, renderApp } from '@/test/utils'
import { creator, makeBid, makeSlot, signedIn, toastWith } from '@/test/fixtures'
import { imageFile, mockUpload, stubObjectUrls, type UploadAnswer } from '@/test/upload'

const won = makeBid({ id: 'bid-WON', status: 'WON', pinSlot: makeSlot({ title: 'Slot WON' }), payment: { status: 'COMPLETED', expiresAt: null, paidAt: null } })
const PINNED = { bidId: 'bid-WON', commentId: 'c', commentText: 'Ad · @northwind: Great reel', status: 'PINNED', detail: 'ok' }

let pinned = false

function creatorPinsInTheApp() {
  pinned = false
  return signedIn(creator, {
    'GET /influencer/approvals': () => json(200, [pinned ? { ...won, status: 'PINNED' } : won]),
    'GET /instagram/connection': () => json(200, { connected: true, pinMethod: 'MANUAL' }),
  })
}

async function openProofDialog() {
  renderApp('/approvals')
  await userEvent.click(await screen.findByRole('button', { name: 'I pinned it' }))
  return screen.findByRole('dialog', { name: 'Show the pinned comment' })
}

describe('"I pinned it" with a screenshot', () => {
  beforeEach(stubObjectUrls)

  it('refuses no file, a .txt and a 6 MB image before sending anything, then sends a valid one as multipart with progress', async () => {
    const user = userEvent.setup({ applyAccept: false })
    creatorPinsInTheApp()
    let answer: (value: UploadAnswer) => void = () => {}
    const uploads = mockUpload({ 'POST /influencer/pin-comment/bid-WON/confirm': () => new Promise<UploadAnswer>((resolve) => (answer = resolve)) })
    const dialog = await openProofDialog()
    const input = within(dialog).getByLabelText('Screenshot')
    const send = within(dialog).getByRole('button', { name: 'Send and confirm' })

    await user.click(send)
    expect(await within(dialog).findByText('Add a screenshot of the pinned comment on your post.')).toHaveAttribute('role', 'alert')

    await user.upload(input, imageFile('notes.txt', 'text/plain'))
    expect(await within(dialog).findByText(/“notes\.txt” is not a JPEG, PNG or WebP image/)).toBeInTheDocument()
    expect(input).toHaveAttribute('aria-invalid', 'true')
    await user.click(send)

    await user.upload(input, imageFile('huge.png', 'image/png', 6 * 1024 * 1024))
    expect(await within(dialog).findByText(/“huge\.png” is 6\.0 MB: a screenshot can be at most 5 MB/)).toBeInTheDocument()
    await user.click(send)
    expect(uploads.calls).toHaveLength(0)

    await user.upload(input, imageFile('proof.png'))
    // the preview shows what will be sent, and the message is gone
    expect(await within(dialog).findByAltText('Preview of the chosen screenshot')).toHaveAttribute('src', expect.stringMatching(/^blob:/))
    expect(within(dialog).queryByText(/is 6\.0 MB/)).not.toBeInTheDocument()
    await user.click(send)
    expect(await within(dialog).findByRole('progressbar', { name: 'Uploading the screenshot' })).toHaveAttribute('aria-valuenow', '50')
    expect(within(dialog).getByRole('button', { name: /Send and confirm/ })).toBeDisabled()
    pinned = true
    answer({ status: 200, body: PINNED })
    await toastWith('Comment Pinned')
    expect(uploads.calls).toHaveLength(1)
    const [call] = uploads.calls
    expect(call).toMatchObject({ method: 'POST', path: '/influencer/pin-comment/bid-WON/confirm', auth: 'Bearer t' })
    const sent = call!.form.get('screenshot')
    expect(sent).toBeInstanceOf(File)
    expect((sent as File).name).toBe('proof.png')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(await screen.findByText('Pinned.')).toBeInTheDocument()
  })

  it("the server's 422 and 413 are shown on the file field, and nothing is pinned", async () => {
    const user = userEvent.setup()
    creatorPinsInTheApp()
    const answers: UploadAnswer[] = [
      { status: 422, body: { detail: 'The file is not a JPEG, PNG or WebP image.', code: 'not_an_image', errors: [{ field: 'screenshot', message: 'This file is not an image we can read.' }] } },
      { status: 413 },
    ]
    const uploads = mockUpload({ 'POST /influencer/pin-comment/bid-WON/confirm': () => answers.shift()! })
    const dialog = await openProofDialog()
    const input = within(dialog).getByLabelText('Screenshot')
    await user.upload(input, imageFile('fake.png'))
    await user.click(within(dialog).getByRole('button', { name: 'Send and confirm' }))
    expect(await within(dialog).findByText('This file is not an image we can read.')).toHaveAttribute('role', 'alert')
    expect(input).toHaveAttribute('aria-invalid', 'true')

    await user.upload(input, imageFile('other.png'))
    await user.click(within(dialog).getByRole('button', { name: 'Send and confirm' }))
    expect(await within(dialog).findByText('The file is too large to send: at most 5 MB.')).toHaveAttribute('role', 'alert')
    expect(uploads.calls).toHaveLength(2)
    expect(screen.getByRole('dialog')).toBeInTheDocument()
    expect(screen.queryByText('Pinned.')).not.toBeInTheDocument()
  })
})
