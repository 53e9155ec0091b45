import { describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG, setConfig } from '@/config'
import { ApiError } from '@/api/errors'
import { imageFile } from '@/test/upload'
import { SCREENSHOT_REQUIRED, screenshotHint, screenshotMaxBytes, screenshotProblem, screenshotRefusal } from './screenshot'

describe('screenshot checks before sending', () => {
  it('takes JPEG, PNG and WebP up to 5 MB, and refuses anything else with its name in the message', () => {
    expect(screenshotProblem(imageFile('a.jpg', 'image/jpeg'))).toBeNull()
    expect(screenshotProblem(imageFile('a.webp', 'image/webp', screenshotMaxBytes()))).toBeNull()
    expect(screenshotProblem(null)).toBe(SCREENSHOT_REQUIRED)
    expect(screenshotProblem(imageFile('notes.txt', 'text/plain'))).toMatch(/“notes\.txt” is not a JPEG, PNG or WebP image/)
    expect(screenshotProblem(imageFile('anim.gif', 'image/gif'))).toMatch(/not a JPEG/)
    expect(screenshotProblem(imageFile('big.png', 'image/png', screenshotMaxBytes() + 1))).toMatch(/“big\.png” is 5\.0 MB: a screenshot can be at most 5 MB/)
    expect(screenshotProblem(imageFile('big.png', 'image/png', 6 * 1024 * 1024))).toMatch(/is 6\.0 MB/)
  })

  it("the server's refusals of the file are the field's; other errors are not", () => {
    expect(screenshotRefusal(new ApiError(422, { detail: 'Not an image.', code: 'not_an_image' }))).toBe('Not an image.')
    expect(screenshotRefusal(new ApiError(413, undefined))).toMatch(/at most 5 MB/)
    expect(screenshotRefusal(new ApiError(422, { detail: 'Too long.', code: 'validation_error' }))).toBeNull()
    expect(screenshotRefusal(new ApiError(409, { detail: 'Ended.', code: 'placement_ended' }))).toBeNull()
    expect(screenshotRefusal(new Error('offline'))).toBeNull()
  })
})

describe('the screenshot rules the server serves', () => {
  it('the types, the size and the hint follow them', () => {
    expect(screenshotHint()).toBe('JPEG, PNG or WebP, at most 5 MB.')
    setConfig({ ...DEFAULT_CONFIG, rules: { ...DEFAULT_CONFIG.rules, screenshot: { types: [{ type: 'image/png', name: 'PNG' }], maxBytes: 2 * 1024 * 1024 } } })
    try {
      expect(screenshotHint()).toBe('PNG, at most 2 MB.')
      expect(screenshotProblem(imageFile('a.jpg', 'image/jpeg'))).toMatch(/is not a PNG image/)
      expect(screenshotProblem(imageFile('big.png', 'image/png', 3 * 1024 * 1024))).toMatch(/at most 2 MB/)
    } finally {
      setConfig(DEFAULT_CONFIG)
    }
  })
})
