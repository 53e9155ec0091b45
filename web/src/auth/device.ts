export const DEVICE_KEY = 'pinbid_device'

/** A random id this browser keeps, sent with each call (X-Pinbid-Device): identity notes the device a sign-in
 *  comes from, so two accounts used from one browser can be told apart from strangers (account signals). */
export function deviceId(): string | null {
  try {
    let id = localStorage.getItem(DEVICE_KEY)
    if (!id || !/^[A-Za-z0-9_-]{16,128}$/.test(id)) {
      id = crypto.randomUUID()
      localStorage.setItem(DEVICE_KEY, id)
    }
    return id
  } catch {
    return null // storage or crypto unavailable: no signal, nothing else changes
  }
}
