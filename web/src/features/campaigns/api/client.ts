/* POST /buyer/campaigns/{id}/fund is payments' (the gateway sends this one path there); until payments' contract
   is merged into contracts/openapi.json its one path is typed here, then it moves onto api() and this file goes. */
import type { Client } from 'openapi-fetch'
import { createApiClient, type Schemas } from '@/api/client'
import { getConfig } from '@/config'

export interface FundPaths {
  '/buyer/campaigns/{campaign_id}/fund': {
    post: { parameters: { path: { campaign_id: string } }; responses: { 200: { content: { 'application/json': Schemas['UrlOut'] } } } }
  }
}

let instance: { base: string; client: Client<FundPaths> } | null = null
export function fundApi(): Client<FundPaths> {
  const base = getConfig().apiBase
  if (!instance || instance.base !== base) instance = { base, client: createApiClient<FundPaths>() }
  return instance.client
}
