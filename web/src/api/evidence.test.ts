import { describe, expect, it } from 'vitest'
import { json, mockApi, sessionEachTest } from '@/test/utils'
import { ApiError } from './errors'
import { evidenceRequestUrl, fetchEvidence } from './evidence'

sessionEachTest('https://gateway.example/v/api/')

describe('the shared evidence fetcher', () => {
  it('puts the server’s /api path under the runtime apiBase, and leaves a full URL alone', () => {
    expect(evidenceRequestUrl('/api/instagram/placements/b1/evidence/e1')).toBe('https://gateway.example/v/api/instagram/placements/b1/evidence/e1')
    expect(evidenceRequestUrl('/api/ops/disputes/d1/evidence/e1')).toBe('https://gateway.example/v/api/ops/disputes/d1/evidence/e1')
    expect(evidenceRequestUrl('https://cdn.example/e1.png')).toBe('https://cdn.example/e1.png')
  })

  it('fetches the image as a blob with the session’s token and the device id', async () => {
    const api = mockApi({ 'GET /v/api/ops/disputes/d1/evidence/e1': () => new Response('png-bytes', { status: 200, headers: { 'Content-Type': 'image/png' } }) })
    const blob = await fetchEvidence('/api/ops/disputes/d1/evidence/e1')
    expect(await blob.text()).toBe('png-bytes')
    expect(blob.type).toBe('image/png')
    const sent = api.fn.mock.calls[0][1] as RequestInit
    const headers = new Headers(sent.headers)
    expect(headers.get('Authorization')).toBe('Bearer tok-1')
    expect(headers.get('X-Pinbid-Device')).toMatch(/^[A-Za-z0-9_-]{16,128}$/)
  })

  it('a refusal is an ApiError carrying the server’s code', async () => {
    mockApi({ 'GET /v/api/instagram/placements/b1/evidence/e9': () => json(404, { detail: 'There is no such screenshot.', code: 'evidence_not_found' }) })
    const failure = await fetchEvidence('/api/instagram/placements/b1/evidence/e9').catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(ApiError)
    expect(failure).toMatchObject({ status: 404, code: 'evidence_not_found', detail: 'There is no such screenshot.' })
  })
})
