import { useMutation, useQueryClient } from '@tanstack/react-query'
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser'
import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
import { KEYS } from '@/api/keys'
import { useAuth } from '@/auth/session'
import { useStepUp } from '@/auth/step-up'
import { rotateToken } from '@/auth/token'
import type { SecondFactorAnswer } from '@/auth/second-factor'

/** Every change of a factor is read back from the server (the passkey list, recovery codes left, freshness). */
function useRefreshFactors() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: KEYS.secondFactor })
}

/** Starts (or restarts) TOTP enrolment: the secret and its otpauth:// URI, not yet in force. */
export const useStartTotp = () => useMutation({ mutationFn: async () => unwrap(await api().POST('/auth/totp')) })

/** Turns TOTP on with a first code: every other session is signed out, this one gets a new token; answers the
 *  ten recovery codes (shown once). */
export function useConfirmTotp() {
  const { updateUser } = useAuth()
  const refresh = useRefreshFactors()
  return useMutation({
    mutationFn: (code: string) => rotateToken(async () => unwrap(await api().POST('/auth/totp/confirm', { body: { code } }))),
    onSuccess: (answer) => {
      updateUser(answer.user)
      void refresh()
    },
  })
}

/** Turns TOTP off with the password and a code (or a recovery code): the body itself is the fresh factor. */
export function useDisableTotp() {
  const { updateUser } = useAuth()
  const refresh = useRefreshFactors()
  return useMutation({
    mutationFn: (body: { password: string } & SecondFactorAnswer) => rotateToken(async () => unwrap(await api().POST('/auth/totp/disable', { body }))),
    onSuccess: (answer) => {
      updateUser(answer.user)
      void refresh()
    },
  })
}

/** Registers a passkey on this device: the server's options, the browser's ceremony, the server's check. The
 *  whole ceremony is asked again after a step-up (its challenge is single-use). */
export function useRegisterPasskey() {
  const stepUp = useStepUp()
  const refresh = useRefreshFactors()
  return useMutation({
    mutationFn: (name: string) =>
      stepUp(async () => {
        const { options } = unwrap(await api().POST('/auth/passkeys/register/options'))
        const credential = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON })
        return unwrap(await api().POST('/auth/passkeys/register', { body: { name, credential } }))
      }),
    onSettled: () => refresh(),
  })
}

export function useRemovePasskey() {
  const stepUp = useStepUp()
  const refresh = useRefreshFactors()
  return useMutation({
    mutationFn: (id: string) => stepUp(async () => unwrap(await api().DELETE('/auth/passkeys/{passkey_id}', { params: { path: { passkey_id: id } } }))),
    onSettled: () => refresh(),
  })
}
