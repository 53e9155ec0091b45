import { describe, expect, it } from 'vitest'
import { sessionEachTest } from '@/test/utils'
import { imageFile, mockUpload } from '@/test/upload'
import { ApiError } from './errors'
import { confirmPinWithScreenshot, fillPath, sendPlacementScreenshot } from './upload'

sessionEachTest()

describe('typed multipart uploads', () => {
  it('fills the contract’s path parameters, encoded, and refuses a missing one', () => {
    expect(fillPath('/influencer/placements/{bid_id}/screenshot', { bid_id: 'a/b c' })).toBe('/influencer/placements/a%2Fb%20c/screenshot')
    expect(() => fillPath('/influencer/placements/{bid_id}/screenshot', {})).toThrow('Missing path parameter bid_id')
  })

  it('sends the declared fields with the token and device id, leaving out an empty note, and answers the typed body', async () => {
    const uploads = mockUpload({
      'POST /influencer/placements/b1/screenshot': () => ({ status: 200, body: { method: 'MANUAL', ended: false } }),
      'POST /influencer/pin-comment/b1/confirm': () => ({ status: 200, body: { bidId: 'b1', status: 'PINNED' } }),
    })
    const shot = imageFile()
    const trust = await sendPlacementScreenshot('b1', shot, '')
    expect(trust.method).toBe('MANUAL')
    const [call] = uploads.calls
    expect(call.auth).toBe('Bearer tok-1')
    expect(call.device).toMatch(/^[A-Za-z0-9_-]{16,128}$/)
    expect([...call.form.keys()]).toEqual(['screenshot'])
    expect((call.form.get('screenshot') as File).name).toBe('proof.png')

    await sendPlacementScreenshot('b1', shot, 'Still pinned, see.')
    expect(uploads.calls[1].form.get('note')).toBe('Still pinned, see.')

    const pinned = await confirmPinWithScreenshot('b1', shot)
    expect(pinned.status).toBe('PINNED')
  })

  it('a refusal is an ApiError; a bare 413 still says what is wrong on the file field', async () => {
    mockUpload({ 'POST /influencer/placements/b1/screenshot': () => ({ status: 413 }) })
    const failure = await sendPlacementScreenshot('b1', imageFile(), '').catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(ApiError)
    expect((failure as ApiError).fieldErrors).toEqual([{ field: 'screenshot', message: 'The file is too large to send: at most 5 MB.' }])
  })
})
