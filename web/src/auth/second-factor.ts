import { ApiError } from '@/api/errors'

export const CODE_HINT = 'The 6-digit code from your authenticator app, or one of your recovery codes.'
export const CODE_FORMAT = 'Enter the 6 digits from your authenticator app, or a recovery code such as abcde-fghij.'

/** What a person typed in a second-factor field, as the server's body: a TOTP code or a recovery code. */
export type SecondFactorAnswer = { code: string } | { recoveryCode: string }

/**
 * Reads a typed second factor: 6 digits (spaces allowed, as apps show "123 456") are a TOTP code; ten letters
 * or digits, with or without the dash in the middle, are a recovery code (sent as the server prints them,
 * `abcde-fghij`). Anything else is null, refused before anything is sent.
 */
export function readSecondFactor(typed: string): SecondFactorAnswer | null {
  const compact = typed.replace(/\s/g, '')
  if (/^\d{6}$/.test(compact)) return { code: compact }
  const letters = compact.replace(/-/g, '').toLowerCase()
  if (/^[a-z0-9]{10}$/.test(letters) && /^[a-z0-9]{5}-?[a-z0-9]{5}$/i.test(compact)) return { recoveryCode: `${letters.slice(0, 5)}-${letters.slice(5)}` }
  return null
}

/** The server refused a sensitive change for want of a fresh second factor (401 `step_up_required`). */
export const isStepUpRequired = (error: unknown): error is ApiError => error instanceof ApiError && error.code === 'step_up_required'

/** A second factor was refused (wrong, used or expired code, or a passkey the server did not accept). */
export const isWrongSecondFactor = (error: unknown): error is ApiError => error instanceof ApiError && error.code === 'invalid_second_factor'
