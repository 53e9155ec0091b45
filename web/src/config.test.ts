import { describe, expect, it, vi } from 'vitest'
import { DEFAULT_CONFIG, getConfig, loadRuntimeConfig, rules } from './config'
import generated from './api/rules.json'

describe('runtime config', () => {
  it('uses /runtime-config.json, keeping extra keys', async () => {
    const f = vi.fn(async () => new Response(JSON.stringify({ apiBase: 'https://api.example.test/api/', flag: true }), { status: 200 }))
    const cfg = await loadRuntimeConfig(f as unknown as typeof fetch)
    expect(f).toHaveBeenCalledWith('/runtime-config.json', expect.anything())
    expect(cfg).toEqual({ apiBase: 'https://api.example.test/api', flag: true, rules: generated })
    expect(getConfig()).toBe(cfg)
  })

  it.each([
    ['a failed request', async () => new Response('nope', { status: 404 })],
    ['a network error', async () => Promise.reject(new TypeError('offline'))],
    ['a body without apiBase', async () => new Response('{}', { status: 200 })],
    ['HTML instead of JSON', async () => new Response('<!doctype html>', { status: 200 })],
  ])('falls back to {"apiBase": "/api"} on %s', async (_name, impl) => {
    const cfg = await loadRuntimeConfig(vi.fn(impl) as unknown as typeof fetch)
    expect(cfg).toEqual(DEFAULT_CONFIG)
    expect(cfg.apiBase).toBe('/api')
  })

  it("takes the server's rules, so the fee shown follows its setting", async () => {
    const served = { ...generated, platformFeePercent: 15, maxNewCommentLength: 100 }
    const f = vi.fn(async () => new Response(JSON.stringify({ apiBase: '/api', rules: served }), { status: 200 }))
    await loadRuntimeConfig(f as unknown as typeof fetch)
    expect(rules()).toEqual(served)
  })

  it("takes the server's windows and increments, as its services are set", async () => {
    const served = { ...generated, bidIncrement: 2.5, trustWindowHours: { acceptance: 36, recheckAnswer: 12, disputeAnswer: 96 } }
    const f = vi.fn(async () => new Response(JSON.stringify({ apiBase: '/api', rules: served }), { status: 200 }))
    await loadRuntimeConfig(f as unknown as typeof fetch)
    expect(rules()).toEqual(served)
  })

  it('keeps the generated rules when the served ones are malformed or missing', async () => {
    const malformed = [
      undefined,
      { ...generated, platformFeePercent: 'ten' },
      { ...generated, platformFeePercent: 120 },
      { ...generated, disclosureStart: null },
      { ...generated, trustWindowHours: { acceptance: 72, recheckAnswer: 24 } },
      { ...generated, screenshot: { types: [], maxBytes: 1 } },
      { ...generated, pinDurationDays: { choices: [7, 14], default: 30 } },
      { ...generated, bidIncrement: 0 },
      { ...generated, timeLeftHours: {} },
    ]
    for (const served of malformed) {
      const f = vi.fn(async () => new Response(JSON.stringify({ apiBase: '/api', rules: served }), { status: 200 }))
      await loadRuntimeConfig(f as unknown as typeof fetch)
      expect(rules()).toEqual(generated)
    }
  })
})
