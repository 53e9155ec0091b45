import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/api/client'
import { retryUnlessNotFound, unwrap } from '@/api/errors'
import { KEYS } from '@/api/keys'
import type { AudienceQuery } from '@/lib/campaigns'

/** The stream tells of the campaign's bids; clicks and money move without an event the browser hears, so the
 *  pages ask again this often while they are on screen. */
export const CAMPAIGN_REFRESH_MS = 15_000

export const campaignsQuery = () =>
  queryOptions({ queryKey: KEYS.buyerCampaigns, queryFn: async () => unwrap(await api().GET('/buyer/campaigns')) })

export const campaignQuery = (id: string) =>
  queryOptions({
    queryKey: KEYS.buyerCampaign(id),
    queryFn: async () => unwrap(await api().GET('/buyer/campaigns/{campaign_id}', { params: { path: { campaign_id: id } } })),
    retry: retryUnlessNotFound,
  })

export const useCampaigns = () => useQuery({ ...campaignsQuery(), refetchInterval: CAMPAIGN_REFRESH_MS })
export const useCampaign = (id: string) => useQuery({ ...campaignQuery(id), refetchInterval: CAMPAIGN_REFRESH_MS })

/** How many open slots a campaign's audience reaches now (the listing asked for one slot; its total counts the
 *  rest), and, for a question, what the search read from it. */
export const reachQuery = (query: Omit<AudienceQuery, 'search'> & { q?: string; ask?: string }) =>
  queryOptions({
    queryKey: ['buyer', 'campaign-reach', query] as const,
    queryFn: async () => unwrap(await api().GET('/marketplace/slots', { params: { query: { ...query, page: 1, limit: 1 } } })),
    staleTime: 60_000,
  })
