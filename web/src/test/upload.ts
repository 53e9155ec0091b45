/** A stand-in for XMLHttpRequest (the screenshot uploads use it for their progress): routes are "METHOD /path"
 *  after the API base, as in mockApi. Each upload reports half its body sent, then waits for its handler's answer. */
import { vi } from 'vitest'

export interface UploadCall {
  method: string
  path: string
  form: FormData
  auth: string | null
  device: string | null
}

export type UploadAnswer = { status: number; body?: unknown }
type UploadHandler = (form: FormData) => UploadAnswer | Promise<UploadAnswer>

export function mockUpload(routes: Record<string, UploadHandler>) {
  const calls: UploadCall[] = []
  class FakeXhr {
    upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null }
    onload: (() => void) | null = null
    onerror: (() => void) | null = null
    onabort: (() => void) | null = null
    status = 0
    responseText = ''
    private method = ''
    private url = ''
    private headers = new Map<string, string>()
    open(method: string, url: string) {
      this.method = method
      this.url = url
    }
    setRequestHeader(name: string, value: string) {
      this.headers.set(name.toLowerCase(), value)
    }
    abort() {
      this.onabort?.()
    }
    send(form: FormData) {
      const path = new URL(this.url).pathname.replace(/^\/api/, '')
      calls.push({ method: this.method, path, form, auth: this.headers.get('authorization') ?? null, device: this.headers.get('x-pinbid-device') ?? null })
      const handler = routes[`${this.method} ${path}`]
      void (async () => {
        await Promise.resolve()
        this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 })
        const answer = handler ? await handler(form) : { status: 404, body: { detail: 'Not found.', code: 'not_found' } }
        this.status = answer.status
        this.responseText = answer.body === undefined ? '' : JSON.stringify(answer.body)
        this.onload?.()
      })()
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr)
  return { calls }
}

/** Object URLs the test can name: each blob gets a distinct fake one. */
export function stubObjectUrls() {
  let n = 0
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, writable: true, value: vi.fn(() => `blob:test/${++n}`) })
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, writable: true, value: vi.fn() })
}

export const imageFile = (name = 'proof.png', type = 'image/png', size?: number) => {
  const file = new File(['\x89PNG fake pixels'], name, { type })
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size })
  return file
}
