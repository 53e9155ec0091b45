/** Runtime configuration, served by the gateway at /runtime-config.json. Nothing here is baked in at build time. */
export interface RuntimeConfig {
  apiBase: string
  [key: string]: unknown
}

export const DEFAULT_CONFIG: RuntimeConfig = { apiBase: '/api' }

let current: RuntimeConfig = DEFAULT_CONFIG

export function getConfig(): RuntimeConfig {
  return current
}

export function setConfig(config: RuntimeConfig) {
  current = config
}

export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  try {
    const res = await fetchImpl('/runtime-config.json', { headers: { Accept: 'application/json' }, cache: 'no-store' })
    if (!res.ok) throw new Error(`runtime config: HTTP ${res.status}`)
    const data = (await res.json()) as Partial<RuntimeConfig>
    if (!data || typeof data !== 'object' || typeof data.apiBase !== 'string' || !data.apiBase) throw new Error('runtime config: no apiBase')
    current = { ...DEFAULT_CONFIG, ...data, apiBase: data.apiBase.replace(/\/+$/, '') } as RuntimeConfig
  } catch {
    current = { ...DEFAULT_CONFIG }
  }
  return current
}
