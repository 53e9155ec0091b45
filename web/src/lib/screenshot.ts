/** The checks a screenshot passes before it is sent. The server decodes the image and has the last word; these
 *  only spare a person a long upload that would be refused. */
import { z } from '@/lib/zod'
import { ApiError } from '@/api/errors'
import { rules } from '@/config'
import { fileSize, megabytesText, orList } from './spans'

/** The types and the size social takes (served: pinbid_kit/product_rules.py). */
export const screenshotTypes = () => rules().screenshot.types.map((t) => t.type)
export const screenshotAccept = () => screenshotTypes().join(',')
export const screenshotMaxBytes = () => rules().screenshot.maxBytes
const typeNames = () => orList(rules().screenshot.types.map((t) => t.name))
const largest = () => megabytesText(screenshotMaxBytes())

/** The hint under a screenshot field: the types and the largest size. */
export const screenshotHint = () => `${typeNames()}, at most ${largest()}.`

export const SCREENSHOT_REQUIRED = 'Add a screenshot of the pinned comment on your post.'

/** Why this file cannot be sent, or null when it can. */
export function screenshotProblem(file: File | null | undefined): string | null {
  if (!file) return SCREENSHOT_REQUIRED
  if (!screenshotTypes().includes(file.type)) return `“${file.name}” is not a ${typeNames()} image. Choose a screenshot saved as one of these.`
  if (file.size > screenshotMaxBytes()) return `“${file.name}” is ${fileSize(file.size)}: a screenshot can be at most ${largest()}. Crop it, or save it as JPEG.`
  return null
}

const SCREENSHOT_CODES = new Set(['screenshot_required', 'not_an_image', 'image_too_large', 'payload_too_large'])

/** The server's refusal of the file itself (422 with a screenshot code, or 413), to show on the file field. */
export function screenshotRefusal(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null
  if (error.status === 413 || (error.status === 422 && error.code && SCREENSHOT_CODES.has(error.code))) {
    return error.detail ?? `This file cannot be used as the screenshot: at most ${largest()}, ${typeNames()}.`
  }
  return null
}

/** A form's screenshot field: a File that passes `screenshotProblem`. */
export const screenshotSchema = z.custom<File | null>().superRefine((file, ctx) => {
  const problem = screenshotProblem(file)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})
