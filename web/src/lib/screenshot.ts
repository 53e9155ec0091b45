/** The checks a screenshot passes before it is sent. The server decodes the image and has the last word; these
 *  only spare a person a long upload that would be refused. */
import { z } from '@/lib/zod'
import { ApiError } from '@/api/errors'

export const SCREENSHOT_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const
export const SCREENSHOT_ACCEPT = SCREENSHOT_TYPES.join(',')
export const SCREENSHOT_MAX_BYTES = 5 * 1024 * 1024

export const SCREENSHOT_REQUIRED = 'Add a screenshot of the pinned comment on your post.'

export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

/** Why this file cannot be sent, or null when it can. */
export function screenshotProblem(file: File | null | undefined): string | null {
  if (!file) return SCREENSHOT_REQUIRED
  if (!(SCREENSHOT_TYPES as readonly string[]).includes(file.type)) return `“${file.name}” is not a JPEG, PNG or WebP image. Choose a screenshot saved as one of these.`
  if (file.size > SCREENSHOT_MAX_BYTES) return `“${file.name}” is ${fileSize(file.size)}: a screenshot can be at most 5 MB. Crop it, or save it as JPEG.`
  return null
}

const SCREENSHOT_CODES = new Set(['screenshot_required', 'not_an_image', 'image_too_large', 'payload_too_large'])

/** The server's refusal of the file itself (422 with a screenshot code, or 413), to show on the file field. */
export function screenshotRefusal(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null
  if (error.status === 413 || (error.status === 422 && error.code && SCREENSHOT_CODES.has(error.code))) {
    return error.detail ?? 'This file cannot be used as the screenshot: at most 5 MB, JPEG, PNG or WebP.'
  }
  return null
}

/** A form's screenshot field: a File that passes `screenshotProblem`. */
export const screenshotSchema = z.custom<File | null>().superRefine((file, ctx) => {
  const problem = screenshotProblem(file)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})
