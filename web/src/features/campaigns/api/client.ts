/* The campaign routes' path map, typed by hand until marketplace regenerates contracts/openapi.json; then every
   call moves onto api() and this file goes. */
import type { Client } from 'openapi-fetch'
import { createApiClient } from '@/api/client'
import { getConfig } from '@/config'
import type { Campaign, CampaignBody, CampaignDetail, CampaignEdit } from '@/api/types'

type Json<T> = { content: { 'application/json': T } }
type Id = { parameters: { path: { campaign_id: string } } }
type Action = Id & { responses: { 200: Json<Campaign> } }

export interface CampaignPaths {
  '/buyer/campaigns': {
    get: { responses: { 200: Json<Campaign[]> } }
    post: { requestBody: Json<CampaignBody>; responses: { 201: Json<Campaign> } }
  }
  '/buyer/campaigns/{campaign_id}': {
    get: Id & { responses: { 200: Json<CampaignDetail> } }
    patch: Id & { requestBody: Json<CampaignEdit>; responses: { 200: Json<Campaign> } }
  }
  '/buyer/campaigns/{campaign_id}/pause': { post: Action }
  '/buyer/campaigns/{campaign_id}/resume': { post: Action }
  '/buyer/campaigns/{campaign_id}/end': { post: Action }
  '/buyer/campaigns/{campaign_id}/fund': { post: Id & { responses: { 200: Json<{ url: string; sessionId?: string }> } } }
}

let instance: { base: string; client: Client<CampaignPaths> } | null = null
export function campaignApi(): Client<CampaignPaths> {
  const base = getConfig().apiBase
  if (!instance || instance.base !== base) instance = { base, client: createApiClient<CampaignPaths>() }
  return instance.client
}
