/** The signed-out account calls: a reset link asked for by email, and a new password set through it. */
import { useMutation } from '@tanstack/react-query'
import { api } from './client'
import { unwrap } from './errors'

export const useForgotPassword = () => useMutation({ mutationFn: async (email: string) => unwrap(await api().POST('/auth/forgot-password', { body: { email } })) })

export const useResetPassword = (token: string) =>
  useMutation({ mutationFn: async (newPassword: string) => unwrap(await api().POST('/auth/reset-password', { body: { token, newPassword } })) })
