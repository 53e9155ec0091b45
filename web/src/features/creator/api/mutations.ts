import { api, type Schemas } from '@/api/client'
import { unwrap } from '@/api/errors'
import { KEYS } from '@/api/keys'
import { useApiMutation, type MutationConfig } from '@/api/mutation'
import type { Bid } from '@/api/types'
import { useStepUp } from '@/auth/step-up'

type Decision = 'APPROVED' | 'REJECTED'
const decideBid = async (bidId: string, status: Decision) =>
  unwrap(await api().POST('/influencer/approvals/{bid_id}', { params: { path: { bid_id: bidId } }, body: { status } }))

/** The creator's yes or no to a won bid; the card changes with the answer, not when the list is next read. */
export const useDecideBid = (bidId: string, config?: MutationConfig<Bid, Decision>) =>
  useApiMutation((status: Decision) => decideBid(bidId, status), config, (client, decided) => {
    client.setQueryData<Bid[]>(KEYS.approvals, (list) => list?.map((b) => (b.id === decided.id ? decided : b)))
    for (const key of [KEYS.approvals, KEYS.influencerDashboard]) void client.invalidateQueries({ queryKey: key })
  })

const approveComment = async (bidId: string) => unwrap(await api().POST('/influencer/approvals/{bid_id}/comment', { params: { path: { bid_id: bidId } } }))

/** The exact text of the brand's comment, approved for Pinbid to post or pin. */
export const useApproveComment = (bidId: string, config?: MutationConfig<Awaited<ReturnType<typeof approveComment>>>) =>
  useApiMutation(() => approveComment(bidId), config, (client) => void client.invalidateQueries({ queryKey: KEYS.approvals }))

export type SlotBody = Schemas['CreateSlotIn']
const createSlot = async (body: SlotBody) => unwrap(await api().POST('/influencer/pin-slots', { body }))

export const useCreateSlot = (config?: MutationConfig<Awaited<ReturnType<typeof createSlot>>, SlotBody>) =>
  useApiMutation(createSlot, config, (client) => {
    for (const key of [KEYS.posts, KEYS.activeSlots, KEYS.influencerDashboard]) void client.invalidateQueries({ queryKey: key })
  })

const endAuction = async (slotId: string) => unwrap(await api().POST('/influencer/pin-slots/{slot_id}/end-auction', { params: { path: { slot_id: slotId } } }))

export const useEndAuction = (config?: MutationConfig<Awaited<ReturnType<typeof endAuction>>, string>) =>
  useApiMutation(endAuction, config, (client) => {
    for (const key of [KEYS.activeSlots, KEYS.influencerDashboard, KEYS.approvals, KEYS.posts]) void client.invalidateQueries({ queryKey: key })
  })

export type InstagramLogin = { username: string; password: string }
const instagramLogin = async (body: InstagramLogin) => unwrap(await api().POST('/influencer/instagram-login', { body }))

/** Instagram's own login, once, so Pinbid can pin (the password is not kept). */
export const useInstagramLogin = (config?: MutationConfig<Awaited<ReturnType<typeof instagramLogin>>, InstagramLogin>) => useApiMutation(instagramLogin, config)

type PayoutBody = Schemas['PayoutSettingsIn']
const savePayoutSettings = async (body: PayoutBody) => unwrap(await api().PUT('/influencer/payout-settings', { body }))

/** Where the money goes: with a second factor on, a fresh one is asked for (the step-up guard sends it again). */
export function useSavePayoutSettings(config?: MutationConfig<Awaited<ReturnType<typeof savePayoutSettings>>, PayoutBody>) {
  const stepUp = useStepUp()
  return useApiMutation((body: PayoutBody) => stepUp(() => savePayoutSettings(body)), config, (client, saved) => client.setQueryData(KEYS.payoutSettings, saved))
}

type PinOut = Awaited<ReturnType<typeof pinComment>>
const pinComment = async (bidId: string) => unwrap(await api().PUT('/influencer/pin-comment/{bid_id}', { params: { path: { bid_id: bidId } } }))

/** Pins (or, under the manual method, posts) the brand's comment. A pin shows at once: the marketplace hears of it
 *  by an event. */
export const usePinComment = (config?: MutationConfig<PinOut, string>) =>
  useApiMutation(pinComment, config, (client, out, bidId) => {
    void client.invalidateQueries({ queryKey: KEYS.pinStates })
    if (out.status === 'AWAITING_MANUAL_PIN') return
    client.setQueryData<Bid[]>(KEYS.approvals, (list) => list?.map((b) => (b.id === bidId ? { ...b, status: 'PINNED' } : b)))
    for (const key of [KEYS.approvals, KEYS.influencerDashboard, KEYS.earnings]) void client.invalidateQueries({ queryKey: key })
  })
