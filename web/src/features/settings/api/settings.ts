import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, type NotificationPreferences } from '@/api/client'
import { unwrap } from '@/api/errors'
import { KEYS } from '@/api/keys'
import { useStepUp } from '@/auth/step-up'
import { rotateToken } from '@/auth/token'
import { switchesOf } from '../preferences'

export const preferencesQuery = () =>
  queryOptions({ queryKey: KEYS.notificationPreferences, queryFn: async () => unwrap(await api().GET('/notifications/preferences')), retry: false })

export interface ProfileUpdate {
  name: string
  email: string
  currentPassword?: string
}

// a new email or password revokes every earlier token: the answer's token is kept as it arrives (rotateToken);
// with a second factor on, both need a fresh one (useStepUp asks for it and sends the change again)
export function useSaveProfile() {
  const stepUp = useStepUp()
  return useMutation({ mutationFn: (body: ProfileUpdate) => stepUp(() => rotateToken(async () => unwrap(await api().PUT('/auth/profile', { body })))) })
}

export function useChangePassword() {
  const stepUp = useStepUp()
  return useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) =>
      stepUp(() => rotateToken(async () => unwrap(await api().POST('/auth/change-password', { body })))),
  })
}

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
