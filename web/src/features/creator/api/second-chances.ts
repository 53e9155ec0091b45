import { queryOptions } from '@tanstack/react-query'
import { api, type Schemas } from '@/api/client'
import { unwrap } from '@/api/errors'
import { KEYS } from '@/api/keys'
import { useApiMutation, type MutationConfig } from '@/api/mutation'
import type { Bid } from '@/api/types'

export type SecondChance = Schemas['SecondChanceOut']

/** The creator's slots whose winner was rejected or did not pay, each with the runner-up it can go to now. */
export const secondChancesQuery = () =>
  queryOptions({ queryKey: KEYS.secondChances, queryFn: async () => unwrap(await api().GET('/influencer/bids/second-chances')) })

const offerToRunnerUp = async (fallenBidId: string) =>
  unwrap(await api().POST('/influencer/bids/{bid_id}/second-chance', { params: { path: { bid_id: fallenBidId } } }))

/** Offer the slot of the fallen winner `fallenBidId` to its runner-up, at the runner-up's own maximum. */
export const useOfferToRunnerUp = (fallenBidId: string, config?: MutationConfig<Bid>) =>
  useApiMutation(() => offerToRunnerUp(fallenBidId), config, (client) => void client.invalidateQueries({ queryKey: KEYS.secondChances }))
