/** The account calls outside the session provider: a reset link asked for by email, a new password set through
 *  it, and the server's halves of the passkey ceremonies and the step-up (auth/passkey.ts and auth/step-up.tsx run
 *  the browser's part). */
import { useMutation } from '@tanstack/react-query'
import { api, type AuthResponse, type Schemas } from './client'
import { unwrap } from './errors'

export const useForgotPassword = () => useMutation({ mutationFn: async (email: string) => unwrap(await api().POST('/auth/forgot-password', { body: { email } })) })

export const useResetPassword = (token: string) =>
  useMutation({ mutationFn: async (newPassword: string) => unwrap(await api().POST('/auth/reset-password', { body: { token, newPassword } })) })

/** A passkey sign-in's challenge: with `email`, that account's passkeys; without, any of this site's. */
export const passkeyLoginOptions = async (email?: string) => unwrap(await api().POST('/auth/passkeys/login/options', { body: email ? { email } : {} }))

export const passkeyLogin = async (credential: Schemas['PasskeyLoginIn']['credential']) =>
  unwrap(await api().POST('/auth/passkeys/login', { body: { credential } })) as AuthResponse

export const stepUpOptions = async () => unwrap(await api().POST('/auth/step-up/options'))

/** A code, a recovery code or a passkey's answer; answers the refreshed session token. */
export const confirmStepUp = async (body: Schemas['StepUpIn']) => unwrap(await api().POST('/auth/step-up', { body }))
