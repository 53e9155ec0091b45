import { FALLBACK_RULES, isWebRules, type WebRules } from '@/api/rules'

/** Runtime configuration, served by the gateway at /runtime-config.json. Nothing here is baked in at build time
 * but the fallback rules (generated from the server's code, with the default fee). */
export interface RuntimeConfig {
  apiBase: string
  rules: WebRules
  [key: string]: unknown
}

export const DEFAULT_CONFIG: RuntimeConfig = { apiBase: '/api', rules: FALLBACK_RULES }

let current: RuntimeConfig = DEFAULT_CONFIG

export function getConfig(): RuntimeConfig {
  return current
}

export function setConfig(config: RuntimeConfig) {
  current = config
}

/** The server's rules as this run serves them (the platform fee follows its setting). */
export function rules(): WebRules {
  return current.rules
}

export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  try {
    const res = await fetchImpl('/runtime-config.json', { headers: { Accept: 'application/json' }, cache: 'no-store' })
    if (!res.ok) throw new Error(`runtime config: HTTP ${res.status}`)
    const data = (await res.json()) as Partial<RuntimeConfig>
    if (!data || typeof data !== 'object' || typeof data.apiBase !== 'string' || !data.apiBase) throw new Error('runtime config: no apiBase')
    const rules = isWebRules(data.rules) ? data.rules : FALLBACK_RULES
    current = { ...DEFAULT_CONFIG, ...data, apiBase: data.apiBase.replace(/\/+$/, ''), rules }
  } catch {
    current = { ...DEFAULT_CONFIG }
  }
  return current
}
