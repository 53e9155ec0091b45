import { api, type Schemas } from '@/api/client'
import { unwrap } from '@/api/errors'
import { KEYS } from '@/api/keys'
import { useApiMutation, type MutationConfig } from '@/api/mutation'

export const placeBid = async (body: Schemas['PlaceBidIn']) => unwrap(await api().POST('/buyer/bids', { body }))

export const buyNowSlot = async (body: Schemas['BuyNowIn']) => unwrap(await api().POST('/buyer/buy-now', { body }))

type Checkout = Awaited<ReturnType<typeof startCheckout>>
const startCheckout = async (bidId: string) => unwrap(await api().POST('/payments/create-checkout-session', { body: { bidId } }))

/** A Stripe Checkout session for a won bid: the answer's `url` is where the browser goes to pay. */
export const usePayForBid = (bidId: string, config?: MutationConfig<Checkout>) => useApiMutation(() => startCheckout(bidId), config)

const cancelBid = async (bidId: string) => unwrap(await api().POST('/buyer/bids/{bid_id}/cancel', { params: { path: { bid_id: bidId } } }))

export const useCancelBid = (bidId: string, config?: MutationConfig<Awaited<ReturnType<typeof cancelBid>>>) =>
  useApiMutation(() => cancelBid(bidId), config, (client) => {
    void client.invalidateQueries({ queryKey: KEYS.buyerBids })
    void client.invalidateQueries({ queryKey: KEYS.buyerDashboard })
  })

type CommentBody = { bidId: string; commentText: string }
const submitComment = async (body: CommentBody) => unwrap(await api().POST('/buyer/comment-submission', { body }))

/** A won bid's comment, written after the auction. */
export const useSubmitComment = (config?: MutationConfig<Awaited<ReturnType<typeof submitComment>>, CommentBody>) =>
  useApiMutation(submitComment, config, (client) => void client.invalidateQueries({ queryKey: KEYS.buyerBids }))

export type ShortLinkValues = { url: string; promoCode: string }

/** The placement's short link: where it sends people, and the promo code shown beside it. */
export function useSaveShortLink(bidId: string, config?: MutationConfig<unknown, ShortLinkValues>) {
  const save = async ({ url, promoCode }: ShortLinkValues) =>
    unwrap(await api().PUT('/instagram/placements/{bid_id}/link', { params: { path: { bid_id: bidId } }, body: { url, promoCode: promoCode || null } }))
  return useApiMutation(save, config, (client) => void client.invalidateQueries({ queryKey: KEYS.placementResults(bidId) }))
}
