import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
import { evidenceImage, opsCall } from './http'
import type { AuditEntry, Dispute, DisputeDetail, DisputeStatus, Flag, FlagStatus, OpsPayment, OpsUser, Outcome } from './types'

export const OPS_KEYS = {
  all: ['ops'] as const,
  disputes: (status: DisputeStatus) => ['ops', 'disputes', status] as const,
  dispute: (id: string) => ['ops', 'dispute', id] as const,
  evidence: (url: string) => ['ops', 'evidence', url] as const,
  flags: (status: FlagStatus) => ['ops', 'flags', status] as const,
  users: (q: string) => ['ops', 'users', q] as const,
  userPayments: (userId: string) => ['ops', 'payments', userId] as const,
  audit: (filter: AuditFilter) => ['ops', 'audit', filter] as const,
}

export interface AuditFilter {
  objectType?: string
  objectId?: string
}

export const disputesQuery = (status: DisputeStatus) =>
  queryOptions({ queryKey: OPS_KEYS.disputes(status), queryFn: () => opsCall<Dispute[]>('GET', `/ops/disputes?status=${status}`) })

export const disputeQuery = (id: string) =>
  queryOptions({ queryKey: OPS_KEYS.dispute(id), queryFn: () => opsCall<DisputeDetail>('GET', `/ops/disputes/${encodeURIComponent(id)}`) })

export const evidenceQuery = (url: string) =>
  queryOptions({ queryKey: OPS_KEYS.evidence(url), queryFn: () => evidenceImage(url), staleTime: Infinity, gcTime: 5 * 60_000 })

export const flagsQuery = (status: FlagStatus) =>
  queryOptions({ queryKey: OPS_KEYS.flags(status), queryFn: () => opsCall<Flag[]>('GET', `/ops/flags?status=${status}`) })

export const usersQuery = (q: string) =>
  queryOptions({ queryKey: OPS_KEYS.users(q), queryFn: async (): Promise<OpsUser[]> => unwrap(await api().GET('/ops/users', { params: { query: { q } } })) })

export const userPaymentsQuery = (userId: string) =>
  queryOptions({ queryKey: OPS_KEYS.userPayments(userId), queryFn: () => opsCall<OpsPayment[]>('GET', `/ops/payments?userId=${encodeURIComponent(userId)}`) })

export const auditQuery = (filter: AuditFilter, before?: string) =>
  queryOptions({
    queryKey: [...OPS_KEYS.audit(filter), before ?? null],
    queryFn: async (): Promise<AuditEntry[]> =>
      unwrap(await api().GET('/ops/audit', { params: { query: { objectType: filter.objectType || undefined, objectId: filter.objectId || undefined, before } } })),
  })

export const useDisputes = (status: DisputeStatus) => useQuery(disputesQuery(status))
export const useDispute = (id: string) => useQuery(disputeQuery(id))
export const useEvidenceImage = (url: string) => useQuery(evidenceQuery(url))
export const useFlags = (status: FlagStatus) => useQuery(flagsQuery(status))
export const useUserSearch = (q: string) => useQuery(usersQuery(q))
export const useUserPayments = (userId: string) => useQuery(userPaymentsQuery(userId))
export const useAudit = (filter: AuditFilter, before?: string) => useQuery(auditQuery(filter, before))

/** Every operator action changes what the desk shows (and adds to the audit log): all of it is read again. */
function useRefreshDesk() {
  const client = useQueryClient()
  return () => client.invalidateQueries({ queryKey: OPS_KEYS.all })
}

export function useDecideDispute(id: string) {
  const refresh = useRefreshDesk()
  return useMutation({
    mutationFn: (body: { outcome: Outcome; reason: string }) => opsCall<DisputeDetail>('POST', `/ops/disputes/${encodeURIComponent(id)}/decision`, body),
    onSettled: refresh,
  })
}

export function useClearFlag() {
  const refresh = useRefreshDesk()
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) => opsCall<Flag>('POST', `/ops/flags/${encodeURIComponent(id)}/clear`, { reason }),
    onSettled: refresh,
  })
}

export function useSetSuspension() {
  const refresh = useRefreshDesk()
  return useMutation({
    mutationFn: async ({ userId, suspend, reason }: { userId: string; suspend: boolean; reason: string }): Promise<OpsUser> => {
      const params = { path: { user_id: userId } }
      return unwrap(
        suspend
          ? await api().POST('/ops/users/{user_id}/suspend', { params, body: { reason } })
          : await api().POST('/ops/users/{user_id}/restore', { params, body: { reason } }),
      )
    },
    onSettled: refresh,
  })
}

export function useRefundPayment() {
  const refresh = useRefreshDesk()
  return useMutation({
    mutationFn: ({ paymentId, reason }: { paymentId: string; reason: string }) => opsCall<OpsPayment>('POST', `/ops/payments/${encodeURIComponent(paymentId)}/refund`, { reason }),
    onSettled: refresh,
  })
}
