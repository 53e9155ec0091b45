import { describe, expect, it } from 'vitest'
import { retryWhenAsked } from './client'

const answer = (status: number, retryAfter?: string) =>
  new Response(JSON.stringify({ detail: 'This post is still arriving from Instagram.', code: 'post_not_synced' }), {
    status,
    headers: retryAfter ? { 'Retry-After': retryAfter } : {},
  })

function server(...answers: Response[]) {
  const bodies: string[] = []
  const send = async (r: Request) => {
    bodies.push(await r.text())
    return answers.length > 1 ? answers.shift()! : answers[0]
  }
  return { send, bodies }
}

describe('a 409 with Retry-After is asked again quietly', () => {
  it('asks again at the pace asked, with the same body, until the answer is not "not yet"', async () => {
    const { send, bodies } = server(answer(409, '1'), answer(409, '2'), answer(201))
    const waits: number[] = []
    const request = new Request('http://api.test/influencer/pin-slots', { method: 'POST', body: '{"postId":"p1"}' })
    const response = await retryWhenAsked(request, { send, wait: async (ms) => void waits.push(ms) })
    expect(response.status).toBe(201)
    expect(waits).toEqual([1000, 2000])
    expect(bodies).toEqual(['{"postId":"p1"}', '{"postId":"p1"}', '{"postId":"p1"}'])
  })

  it('shows the answer after about 30 s of asking', async () => {
    const { send, bodies } = server(answer(409, '1'))
    const response = await retryWhenAsked(new Request('http://api.test/x', { method: 'POST', body: '{}' }), { send, wait: async () => {} })
    expect(response.status).toBe(409)
    expect(bodies).toHaveLength(31)
  })

  it('a 409 without Retry-After, or any other answer, is shown at once', async () => {
    for (const first of [answer(409), answer(422, '1'), answer(409, 'soon')]) {
      const { send, bodies } = server(first, answer(201))
      const response = await retryWhenAsked(new Request('http://api.test/x'), { send, wait: async () => {} })
      expect(response.status).toBe(first.status)
      expect(bodies).toHaveLength(1)
    }
  })
})
