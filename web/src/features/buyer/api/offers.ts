import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
import { KEYS } from '@/api/keys'
import { useApiMutation, type MutationConfig } from '@/api/mutation'
import type { Bid } from '@/api/types'

const answerOffer = async (bidId: string, answer: 'accept' | 'decline') => {
  const path = { params: { path: { bid_id: bidId } } }
  return unwrap(answer === 'accept' ? await api().POST('/buyer/bids/{bid_id}/accept-offer', path) : await api().POST('/buyer/bids/{bid_id}/decline-offer', path))
}

/** The brand's answer to a second-chance offer: the row changes with the answer, then My Bids and the dashboard are
 *  read again (an accepted offer is approved and soon asks for the payment). */
export const useAnswerOffer = (bidId: string, config?: MutationConfig<Bid, 'accept' | 'decline'>) =>
  useApiMutation((answer: 'accept' | 'decline') => answerOffer(bidId, answer), config, (client, answered) => {
    client.setQueryData<Bid[]>(KEYS.buyerBids, (list) => list?.map((b) => (b.id === answered.id ? answered : b)))
    for (const key of [KEYS.buyerBids, KEYS.buyerDashboard]) void client.invalidateQueries({ queryKey: key })
  })
