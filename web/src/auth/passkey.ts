import { startAuthentication, WebAuthnAbortService, WebAuthnError, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import type { AuthResponse } from '@/api/client'
import { confirmStepUp, passkeyLogin, passkeyLoginOptions, stepUpOptions } from '@/api/auth'
import { ApiError } from '@/api/errors'

/** The server's options answer: exactly what @simplewebauthn/browser's ceremonies take. */
const optionsOf = (answer: { options: unknown }) => answer.options as PublicKeyCredentialRequestOptionsJSON

/**
 * Sign in with a passkey: the server's challenge, the browser's ceremony, the server's check. With `email` the
 * browser is offered that account's passkeys; without, any passkey of this site (discoverable credentials).
 * `autofill` waits for the person to pick a passkey in the email field's autofill list (conditional mediation).
 */
export async function passkeySignIn({ email, autofill = false }: { email?: string; autofill?: boolean } = {}): Promise<AuthResponse> {
  const { options } = await passkeyLoginOptions(email)
  const credential = await startAuthentication({ optionsJSON: optionsOf({ options }), useBrowserAutofill: autofill })
  return passkeyLogin(credential)
}

/** Confirm it's you with a passkey for a sensitive change (step-up): answers the refreshed session token. */
export async function passkeyStepUp(): Promise<{ token: string; stepUpUntil?: string | null }> {
  const { options } = await stepUpOptions()
  const credential = await startAuthentication({ optionsJSON: optionsOf({ options }) })
  return confirmStepUp({ credential })
}

/** Stop a ceremony still waiting (the autofill's, when the page goes or another ceremony starts). */
export const cancelPasskeyCeremony = () => WebAuthnAbortService.cancelCeremony()

/** The person closed the browser's passkey prompt, or a newer ceremony replaced this one: nothing to tell them. */
export function passkeyDismissed(error: unknown): boolean {
  if (error instanceof WebAuthnError) return error.code === 'ERROR_CEREMONY_ABORTED' || (error.cause as Error | undefined)?.name === 'NotAllowedError'
  return error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')
}

/** What to tell a person whose passkey ceremony failed: the server's own words, else the browser's reason. */
export function passkeyProblem(error: unknown): string {
  if (error instanceof ApiError && error.detail) return error.detail
  if (error instanceof WebAuthnError) {
    switch (error.code) {
      case 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED':
        return 'This device already holds a passkey for your account.'
      case 'ERROR_INVALID_DOMAIN':
      case 'ERROR_INVALID_RP_ID':
        return 'Passkeys do not work at this address. Open Pinbid at its usual address (for a local run, http://localhost).'
      default:
        return error.message
    }
  }
  if (error instanceof Error && error.name === 'NotSupportedError') return 'This browser cannot use passkeys.'
  return 'The passkey could not be used. Please try again.'
}
