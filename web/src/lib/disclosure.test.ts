import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG, setConfig } from '@/config'
import { brandLabel, disclosed, maxNewCommentLength, startsWithDisclosure } from './disclosure'

describe('disclosure', () => {
  afterEach(() => setConfig(DEFAULT_CONFIG))

  it('puts the disclosure first, naming the brand by its handle or else its business name', () => {
    expect(disclosed('  Love   this ', brandLabel('northwind.coffee', 'Northwind Coffee'))).toBe('Ad · @northwind.coffee: Love this')
    expect(disclosed('Love this', brandLabel(null, 'Northwind Coffee'))).toBe('Ad · Northwind Coffee: Love this')
    expect(disclosed('#ad already said', '@x')).toBe('#ad already said')
  })

  it('accepts only a disclosure at the start', () => {
    for (const ok of ['#ad Summer', 'Ad · @n: hi', 'Sponsored: hi', 'Paid partnership with @n']) expect(startsWithDisclosure(ok)).toBe(true)
    for (const bad of ['Summer #ad', 'adorable mug', 'Hi, ad inside']) expect(startsWithDisclosure(bad)).toBe(false)
  })

  it('leaves room for the longest disclosure', () => {
    expect(maxNewCommentLength()).toBe(2162)
  })

  it('follows the patterns and limits the server serves', () => {
    setConfig({ ...DEFAULT_CONFIG, rules: { ...DEFAULT_CONFIG.rules, disclosureStart: { source: '^promo\\b', flags: '' }, handlePattern: '^[a-z]{1,5}$', maxNewCommentLength: 100 } })
    expect(startsWithDisclosure('promo Summer')).toBe(true)
    expect(startsWithDisclosure('#ad Summer')).toBe(false)
    expect(brandLabel('northwind', 'Northwind Coffee')).toBe('Northwind Coffee')
    expect(maxNewCommentLength()).toBe(100)
  })
})
