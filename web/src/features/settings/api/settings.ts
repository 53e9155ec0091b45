import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, type NotificationPreferences } from '@/api/client'
import { unwrap } from '@/api/errors'
import { KEYS } from '@/api/keys'
import { rotateToken } from '@/auth/token'
import { switchesOf } from '../preferences'

export const preferencesQuery = () =>
  queryOptions({ queryKey: KEYS.notificationPreferences, queryFn: async () => unwrap(await api().GET('/notifications/preferences')), retry: false })

export interface ProfileUpdate {
  name: string
  email: string
  currentPassword?: string
}

// a new email or password revokes every earlier token: the answer's token is kept as it arrives (rotateToken)
export const useSaveProfile = () =>
  useMutation({ mutationFn: (body: ProfileUpdate) => rotateToken(async () => unwrap(await api().PUT('/auth/profile', { body }))) })

export const useChangePassword = () =>
  useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) => rotateToken(async () => unwrap(await api().POST('/auth/change-password', { body }))),
  })

export function useChoosePinMethod() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (pinMethod: 'SESSION' | 'MANUAL') => unwrap(await api().PUT('/instagram/pin-method', { body: { pinMethod } })),
    onSuccess: (out) => queryClient.setQueryData(KEYS.instagramConnection, (old: object | undefined) => ({ ...old, pinMethod: out.pinMethod })),
  })
}

export function useSavePreferences() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (body: NotificationPreferences) => unwrap(await api().POST('/notifications/preferences', { body: switchesOf(body) })),
    onSuccess: (saved) => queryClient.setQueryData(KEYS.notificationPreferences, saved),
  })
}
