/** Queries more than one feature reads; each feature keeps its own in its api/ folder. */
import { queryOptions } from '@tanstack/react-query'
import { api } from './client'
import { unwrap } from './errors'
import { KEYS } from './keys'

export const slotDetailsQuery = (slotId: string) =>
  queryOptions({ queryKey: KEYS.slot(slotId), queryFn: async () => unwrap(await api().GET('/marketplace/slots/{slot_id}', { params: { path: { slot_id: slotId } } })) })

export const categoriesQuery = () =>
  queryOptions({ queryKey: KEYS.categories, queryFn: async () => unwrap(await api().GET('/marketplace/categories')), staleTime: 5 * 60_000 })

export const instagramConnectionQuery = () =>
  queryOptions({ queryKey: KEYS.instagramConnection, queryFn: async () => unwrap(await api().GET('/instagram/connection')) })

/** The brand's bids (My Bids; the campaign form offers the comments they carried). */
export const buyerBidsQuery = () => queryOptions({ queryKey: KEYS.buyerBids, queryFn: async () => unwrap(await api().GET('/buyer/bids')) })

export const notificationsQuery = () => queryOptions({ queryKey: KEYS.notifications, queryFn: async () => unwrap(await api().GET('/notifications')) })

/** The charts' months (components/charts): the creator's earnings and payouts, the brand's spend. */
export const monthlyEarningsQuery = () => queryOptions({ queryKey: KEYS.monthlyEarnings, queryFn: async () => unwrap(await api().GET('/influencer/earnings/monthly')) })

export const monthlySpendQuery = () => queryOptions({ queryKey: KEYS.monthlySpend, queryFn: async () => unwrap(await api().GET('/payments/spend-by-month')) })

/** GET /instagram/connect → {url}: the provider's authorize page, for a creator's or a brand's connection. */
export const connectInstagram = async () => unwrap(await api().GET('/instagram/connect'))

/** The account's second factors (TOTP, recovery codes left, passkeys) and whether this session is freshly confirmed:
 *  Settings shows them, the step-up dialog offers a passkey when there is one. */
export const secondFactorQuery = () =>
  queryOptions({ queryKey: KEYS.secondFactor, queryFn: async () => unwrap(await api().GET('/auth/second-factor')) })
