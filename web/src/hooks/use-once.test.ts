import { describe, expect, it } from 'vitest'
import { renderHook } from '@testing-library/react'
import { useOnce } from './use-once'

describe('useOnce', () => {
  it('starts nothing while a run is going, and again once it is done', () => {
    const { result } = renderHook(() => useOnce())
    let starts = 0
    let finish = () => {}
    const start = (done: () => void) => {
      starts += 1
      finish = done
    }
    result.current(start)
    result.current(start)
    expect(starts).toBe(1)
    finish()
    result.current(start)
    expect(starts).toBe(2)
  })
})
