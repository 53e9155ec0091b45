import { toast } from 'sonner'
import { z } from '@/lib/zod'
import type { FieldErrors as FormErrors } from 'react-hook-form'
import { rules } from '@/config'

/** The shortest password identity takes (served: pinbid_kit/product_rules.py). */
export const passwordMinLength = () => rules().passwordMinLength
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export const MESSAGES = {
  emailRequired: 'Email is required.',
  emailInvalid: 'Please enter a valid email address.',
  passwordRequired: 'Password is required.',
  nameRequired: 'Full name is required.',
  handleRequired: 'Instagram handle is required.',
  handleInvalid: 'Use letters, numbers, periods and underscores only.',
  get signupPasswordShort() {
    return `Password must be at least ${passwordMinLength()} characters long.`
  },
  newPasswordRequired: 'New password is required.',
  confirmRequired: 'Please confirm your new password.',
  currentPasswordRequired: 'Current password is required.',
  passwordMismatchTitle: 'Password Mismatch',
  passwordMismatch: 'New password and confirmation do not match.',
  passwordTooShortTitle: 'Password Too Short',
  get passwordTooShort() {
    return `New password must be at least ${passwordMinLength()} characters long.`
  },
} as const

export type FieldErrors<K extends string> = Partial<Record<K, string>>

/** New password + confirmation, as the reset and settings forms check them (mismatch first, then length). */
export function newPasswordErrors(newPassword: string, confirm: string): FieldErrors<'newPassword' | 'confirmPassword'> {
  if (!newPassword) return { newPassword: MESSAGES.newPasswordRequired, ...(confirm ? {} : { confirmPassword: MESSAGES.confirmRequired }) }
  if (!confirm) return { confirmPassword: MESSAGES.confirmRequired }
  if (newPassword !== confirm) return { confirmPassword: `${MESSAGES.passwordMismatchTitle}: ${MESSAGES.passwordMismatch}` }
  if (newPassword.length < passwordMinLength()) return { newPassword: `${MESSAGES.passwordTooShortTitle}: ${MESSAGES.passwordTooShort}` }
  return {}
}

/** The fields the forms share, as zod schemas with the messages above (the first failing check shows). */
export const emailField = z.string().trim().min(1, MESSAGES.emailRequired).regex(EMAIL_RE, MESSAGES.emailInvalid)

export function requiredText(message: string) {
  return z.string().trim().min(1, message)
}

/** A new password and its confirmation, checked as newPasswordErrors says (mismatch first, then length). */
export function withNewPasswordRule<T extends { newPassword: string; confirmPassword: string }>(values: T, ctx: z.RefinementCtx) {
  const errors = newPasswordErrors(values.newPassword, values.confirmPassword)
  for (const [path, message] of Object.entries(errors)) if (message) ctx.addIssue({ code: 'custom', path: [path], message })
}

/** react-hook-form's invalid handler for a password pair: the spec's toast for a mismatch or a short password. */
export function toastPasswordRuleOf(errors: FormErrors<{ newPassword: string; confirmPassword: string }>) {
  toastPasswordRule({ newPassword: errors.newPassword?.message, confirmPassword: errors.confirmPassword?.message })
}

/** Strip a leading @ and surrounding space from an Instagram handle. */
export function normaliseHandle(value: string) {
  return value.trim().replace(/^@+/, '')
}

/** The spec shows 'Password Mismatch' and 'Password Too Short' as toasts too. */
export function toastPasswordRule(errors: FieldErrors<'newPassword' | 'confirmPassword'>) {
  const msg = errors.confirmPassword ?? errors.newPassword ?? ''
  for (const [title, description] of [
    [MESSAGES.passwordMismatchTitle, MESSAGES.passwordMismatch],
    [MESSAGES.passwordTooShortTitle, MESSAGES.passwordTooShort],
  ] as const) {
    if (msg.startsWith(title)) toast.error(title, { description })
  }
}
