import { afterEach, describe, expect, it, vi } from 'vitest'
import { getToken, handleRefused, onForbidden, rotateToken, setToken } from './token'

describe('a refused token during a token rotation', () => {
  afterEach(() => localStorage.clear())

  it('the live stream hears "revoked" before the new token is kept: the session goes on with the new token', async () => {
    setToken('old')
    const ended = vi.fn()
    const stop = onForbidden(ended)
    let answer!: (value: { token: string }) => void
    const changing = rotateToken(() => new Promise<{ token: string }>((resolve) => (answer = resolve)))
    const refusal = handleRefused('old') // the stream's `end: revoked` arrives first
    answer({ token: 'new' })
    await changing
    expect(await refusal).toBe('newer')
    expect(getToken()).toBe('new')
    expect(ended).not.toHaveBeenCalled()
    stop()
  })

  it('a refusal with no newer token ends the session, as the 403 rule says', async () => {
    setToken('only')
    const ended = vi.fn()
    const stop = onForbidden(ended)
    expect(await handleRefused('only')).toBe('ended')
    expect(ended).toHaveBeenCalledTimes(1)
    expect(getToken()).toBeNull()
    stop()
  })

  it('a rotation that fails leaves the old token, and its refusal ends the session', async () => {
    setToken('old')
    const ended = vi.fn()
    const stop = onForbidden(ended)
    const failing = rotateToken<{ token: string }>(() => Promise.reject(new Error('wrong current password')))
    const refusal = handleRefused('old')
    await expect(failing).rejects.toThrow('wrong current password')
    expect(await refusal).toBe('ended')
    expect(ended).toHaveBeenCalledTimes(1)
    stop()
  })
})
