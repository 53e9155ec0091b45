import { describe, expect, it } from 'vitest'
import { MAX_NEW_COMMENT_LENGTH, brandLabel, disclosed, startsWithDisclosure } from './disclosure'

describe('disclosure', () => {
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
    expect(MAX_NEW_COMMENT_LENGTH).toBe(2162)
  })
})
