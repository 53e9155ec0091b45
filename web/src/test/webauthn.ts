import { vi } from 'vitest'

/** base64url of a text, as WebAuthn's JSON carries bytes */
export const b64url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
const bytes = (text: string) => new TextEncoder().encode(text).buffer

/** Options as the server sends them (base64url bytes): what @simplewebauthn/browser's ceremonies take. */
export const REQUEST_OPTIONS = { challenge: b64url('login-challenge'), rpId: 'localhost', allowCredentials: [], userVerification: 'preferred' }
export const CREATION_OPTIONS = {
  challenge: b64url('register-challenge'),
  rp: { id: 'localhost', name: 'Pinbid' },
  user: { id: b64url('user-1'), name: 'maya@example.com', displayName: 'Maya Rivers' },
  pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
  excludeCredentials: [],
}

/** The JSON @simplewebauthn/browser makes of the fake authenticator's answers (what the server receives). */
export const ASSERTION_JSON = {
  id: 'cred-1',
  rawId: b64url('cred-1'),
  type: 'public-key',
  response: { authenticatorData: b64url('auth-data'), clientDataJSON: b64url('client-data'), signature: b64url('signature'), userHandle: b64url('user-1') },
  clientExtensionResults: {},
  authenticatorAttachment: 'platform',
}
export const REGISTRATION_JSON = {
  id: 'cred-1',
  rawId: b64url('cred-1'),
  type: 'public-key',
  response: { attestationObject: b64url('attestation'), clientDataJSON: b64url('client-data'), transports: ['internal'] },
  clientExtensionResults: {},
  authenticatorAttachment: 'platform',
}

const assertion = () => ({
  id: 'cred-1',
  rawId: bytes('cred-1'),
  type: 'public-key',
  authenticatorAttachment: 'platform',
  response: { authenticatorData: bytes('auth-data'), clientDataJSON: bytes('client-data'), signature: bytes('signature'), userHandle: bytes('user-1') },
  getClientExtensionResults: () => ({}),
})
const attestation = () => ({
  id: 'cred-1',
  rawId: bytes('cred-1'),
  type: 'public-key',
  authenticatorAttachment: 'platform',
  response: { attestationObject: bytes('attestation'), clientDataJSON: bytes('client-data'), getTransports: () => ['internal'] },
  getClientExtensionResults: () => ({}),
})

/** The browser's prompt was closed (what navigator.credentials throws then). */
export const closedPrompt = () => Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' })

type Answer = 'ok' | 'closed' | 'wait'

/**
 * A browser with WebAuthn and one platform authenticator, at the navigator.credentials level that the real
 * library calls. Each ceremony takes the next answer queued with `answer` ('ok' by default); 'wait' waits, like
 * an autofill nobody picks from, until the library aborts it. `restore()` removes it (the test DOM has none).
 */
export function fakeAuthenticator({ autofill = false }: { autofill?: boolean } = {}) {
  const queue: Answer[] = []
  const next = () => queue.shift() ?? 'ok'
  const settle = <T>(make: () => T, signal?: AbortSignal | null): Promise<T> => {
    const how = next()
    if (how === 'ok') return Promise.resolve(make())
    if (how === 'closed') return Promise.reject(closedPrompt())
    return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }))))
  }
  const get = vi.fn((options: CredentialRequestOptions) => settle(assertion, options.signal))
  const create = vi.fn((options: CredentialCreationOptions) => settle(attestation, options.signal))
  class PublicKeyCredential {
    static isConditionalMediationAvailable = async () => autofill
  }
  const before = Object.getOwnPropertyDescriptor(navigator, 'credentials')
  ;(globalThis as Record<string, unknown>).PublicKeyCredential = PublicKeyCredential
  Object.defineProperty(navigator, 'credentials', { value: { get, create }, configurable: true })
  return {
    get,
    create,
    answer: (...answers: Answer[]) => queue.push(...answers),
    restore() {
      delete (globalThis as Record<string, unknown>).PublicKeyCredential
      if (before) Object.defineProperty(navigator, 'credentials', before)
      else delete (navigator as unknown as Record<string, unknown>).credentials
    },
  }
}
