import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
import type { DisputeStatus, FlagStatus, Outcome } from './types'

export const OPS_KEYS = {
  all: ['ops'] as const,
  disputes: (status: DisputeStatus) => ['ops', 'disputes', status] as const,
  dispute: (id: string) => ['ops', 'dispute', id] as const,
  flags: (status: FlagStatus) => ['ops', 'flags', status] as const,
  users: (q: string) => ['ops', 'users', q] as const,
  userPayments: (userId: string) => ['ops', 'payments', userId] as const,
  audit: (filter: AuditFilter) => ['ops', 'audit', filter] as const,
  linkChanges: (bidId: string) => ['ops', 'link-changes', bidId] as const,
  disputeMoney: (bidId: string) => ['ops', 'dispute-money', bidId] as const,
}

export interface AuditFilter {
  objectType?: string
  objectId?: string
}

export const disputesQuery = (status: DisputeStatus) =>
  queryOptions({ queryKey: OPS_KEYS.disputes(status), queryFn: async () => unwrap(await api().GET('/ops/disputes', { params: { query: { status } } })) })

export const disputeQuery = (id: string) =>
  queryOptions({
    queryKey: OPS_KEYS.dispute(id),
    queryFn: async () => unwrap(await api().GET('/ops/disputes/{dispute_id}', { params: { path: { dispute_id: id } } })),
  })

/** payments' figures for a disputed bid: what was paid, released and paid out, and what each outcome would move. */
export const disputeMoneyQuery = (bidId: string) =>
  queryOptions({
    queryKey: OPS_KEYS.disputeMoney(bidId),
    queryFn: async () => unwrap(await api().GET('/ops/payments/dispute-outcomes', { params: { query: { bidId } } })),
  })

export const flagsQuery = (status: FlagStatus) =>
  queryOptions({ queryKey: OPS_KEYS.flags(status), queryFn: async () => unwrap(await api().GET('/ops/flags', { params: { query: { status } } })) })

export const usersQuery = (q: string) =>
  queryOptions({ queryKey: OPS_KEYS.users(q), queryFn: async () => unwrap(await api().GET('/ops/users', { params: { query: { q } } })) })

export const userPaymentsQuery = (userId: string) =>
  queryOptions({ queryKey: OPS_KEYS.userPayments(userId), queryFn: async () => unwrap(await api().GET('/ops/payments', { params: { query: { userId } } })) })

export const auditQuery = (filter: AuditFilter, before?: string) =>
  queryOptions({
    queryKey: [...OPS_KEYS.audit(filter), before ?? null],
    queryFn: async () =>
      unwrap(await api().GET('/ops/audit', { params: { query: { objectType: filter.objectType || undefined, objectId: filter.objectId || undefined, before } } })),
  })

/** Short-link targets changed after their comment was pinned, newest first; `bidId` narrows to one placement. */
export const linkChangesQuery = (bidId: string) =>
  queryOptions({
    queryKey: OPS_KEYS.linkChanges(bidId),
    queryFn: async () => unwrap(await api().GET('/ops/links/changes', { params: { query: { bidId: bidId || undefined } } })),
  })

export const useDisputes = (status: DisputeStatus) => useQuery(disputesQuery(status))
export const useDispute = (id: string) => useQuery(disputeQuery(id))
export const useDisputeMoney = (bidId: string) => useQuery(disputeMoneyQuery(bidId))
export const useFlags = (status: FlagStatus) => useQuery(flagsQuery(status))
export const useUserSearch = (q: string) => useQuery(usersQuery(q))
export const useUserPayments = (userId: string) => useQuery(userPaymentsQuery(userId))
export const useAudit = (filter: AuditFilter, before?: string) => useQuery(auditQuery(filter, before))
export const useLinkChanges = (bidId: string) => useQuery(linkChangesQuery(bidId))

/** Every operator action changes what the desk shows (and adds to the audit log): all of it is read again when it
 *  settles. */
function useDeskMutation<TVariables, TData>(mutationFn: (variables: TVariables) => Promise<TData>) {
  const client = useQueryClient()
  return useMutation({ mutationFn, onSettled: () => client.invalidateQueries({ queryKey: OPS_KEYS.all }) })
}

export const useDecideDispute = (id: string) =>
  useDeskMutation(async (body: { outcome: Outcome; reason: string; decideNowReason?: string }) =>
    unwrap(await api().POST('/ops/disputes/{dispute_id}/decision', { params: { path: { dispute_id: id } }, body })),
  )

export const useClearFlag = () =>
  useDeskMutation(async ({ id, reason }: { id: string; reason: string }) =>
    unwrap(await api().POST('/ops/flags/{flag_id}/clear', { params: { path: { flag_id: id } }, body: { reason } })),
  )

export const useSetSuspension = () =>
  useDeskMutation(async ({ userId, suspend, reason }: { userId: string; suspend: boolean; reason: string }) => {
    const params = { path: { user_id: userId } }
    return unwrap(
      suspend
        ? await api().POST('/ops/users/{user_id}/suspend', { params, body: { reason } })
        : await api().POST('/ops/users/{user_id}/restore', { params, body: { reason } }),
    )
  })

export const useRefundPayment = () =>
  useDeskMutation(async ({ paymentId, reason }: { paymentId: string; reason: string }) =>
    unwrap(await api().POST('/ops/payments/{payment_id}/refund', { params: { path: { payment_id: paymentId } }, body: { reason } })),
  )
