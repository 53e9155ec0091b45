import type { QueryClient } from '@tanstack/react-query'
import { unwrap } from '@/api/errors'
import { KEYS } from '@/api/keys'
import { useApiMutation, type MutationConfig } from '@/api/mutation'
import type { Campaign, CampaignBody, CampaignEdit } from '@/api/types'
import { api } from '@/api/client'

const path = (id: string) => ({ params: { path: { campaign_id: id } } })

/** A campaign changed: the list and its page are asked again (the page's figures are the server's). */
function refresh(client: QueryClient, campaign: Campaign) {
  void client.invalidateQueries({ queryKey: KEYS.buyerCampaigns })
  client.setQueryData(KEYS.buyerCampaign(campaign.id), (was: object | undefined) => (was ? { ...was, ...campaign } : was))
}

const createCampaign = async (body: CampaignBody) => unwrap(await api().POST('/buyer/campaigns', { body }))
export const useCreateCampaign = (config?: MutationConfig<Campaign, CampaignBody>) => useApiMutation(createCampaign, config, refresh)

const editCampaign = (id: string) => async (body: CampaignEdit) => unwrap(await api().PATCH('/buyer/campaigns/{campaign_id}', { ...path(id), body }))
export const useEditCampaign = (id: string, config?: MutationConfig<Campaign, CampaignEdit>) => useApiMutation(editCampaign(id), config, refresh)

export type CampaignAction = 'pause' | 'resume' | 'end'

async function act(id: string, action: CampaignAction) {
  const client = api()
  const answer =
    action === 'pause'
      ? await client.POST('/buyer/campaigns/{campaign_id}/pause', path(id))
      : action === 'resume'
        ? await client.POST('/buyer/campaigns/{campaign_id}/resume', path(id))
        : await client.POST('/buyer/campaigns/{campaign_id}/end', path(id))
  return unwrap(answer)
}

/** Pause, Resume or End. */
export const useCampaignAction = (id: string, config?: MutationConfig<Campaign, CampaignAction>) => useApiMutation((action: CampaignAction) => act(id, action), config, refresh)

const fundCampaign = async (id: string) => unwrap(await api().POST('/buyer/campaigns/{campaign_id}/fund', path(id)))

/** A Checkout session for the campaign's budget: the answer's `url` is where the browser goes to pay. */
export const useFundCampaign = (id: string, config?: MutationConfig<Awaited<ReturnType<typeof fundCampaign>>>) => useApiMutation(() => fundCampaign(id), config)
