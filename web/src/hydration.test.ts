import { describe, expect, it } from 'vitest'
import { FALLBACK_RULES } from '@/api/rules'
import { DEFAULT_CONFIG } from '@/config'
import { canHydrate } from './hydration'

function root(html: string) {
  const element = document.createElement('div')
  element.innerHTML = html
  return element
}

describe('canHydrate', () => {
  const prerendered = root('<header>Pinbid</header><main>…</main>')

  it('hydrates a prerendered page for a signed-out visitor when the server has the rules it was rendered with', () => {
    expect(canHydrate(prerendered, DEFAULT_CONFIG, null)).toBe(true)
    const sameRules = { ...DEFAULT_CONFIG, apiBase: '/elsewhere', rules: structuredClone(FALLBACK_RULES) }
    expect(canHydrate(prerendered, sameRules, null)).toBe(true)
  })

  it('renders afresh the empty shell, a signed-in visitor, or a server with another fee or other rules', () => {
    expect(canHydrate(root(''), DEFAULT_CONFIG, null)).toBe(false)
    expect(canHydrate(prerendered, DEFAULT_CONFIG, 'token')).toBe(false)
    const fee = FALLBACK_RULES.platformFeePercent === 15 ? 12 : 15
    expect(canHydrate(prerendered, { ...DEFAULT_CONFIG, rules: { ...FALLBACK_RULES, platformFeePercent: fee } }, null)).toBe(false)
    expect(canHydrate(prerendered, { ...DEFAULT_CONFIG, rules: { ...FALLBACK_RULES, maxHashtags: FALLBACK_RULES.maxHashtags + 1 } }, null)).toBe(false)
  })
})
