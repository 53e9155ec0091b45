import * as React from 'react'
import { useMutation } from '@tanstack/react-query'
import { useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { serverMessage } from '@/api/errors'
import { connectInstagram } from '@/api/queries'
import { connectReturn } from '@/lib/return-notes'

// reasons and texts as the social service defines them (connections.py)
const CONNECT_ERRORS: Record<string, string> = {
  access_denied: 'You did not allow Pinbid to access your Instagram account.',
  invalid_state: 'The connection link is not valid. Please start again.',
  expired_state: 'The connection link has expired. Please start again.',
  used_state: 'This connection link was already used. Please start again.',
  state_mismatch: 'The connection was started in another browser. Please start again here.',
  missing_code: 'Instagram did not send an authorization code. Please start again.',
  invalid_code: 'Instagram did not accept the authorization code. Please start again.',
  account_in_use: 'This Instagram account is already connected to another Pinbid user.',
  provider_unavailable: 'Instagram could not be reached. Please try again in a moment.',
}

/** The Instagram OAuth callback lands on /post-manager (creators) or /marketplace (brands) with ?connected=1 or ?error=<reason>. */
export function useInstagramCallbackToast() {
  const [params, setParams] = useSearchParams()
  const connected = params.get('connected')
  const error = params.get('error')
  React.useEffect(() => {
    if (!connected && !error) return
    if (connected === '1') toast.success('Instagram Connected', { description: 'Your Instagram account is linked to Pinbid.' })
    else if (error) toast.error('Instagram connection failed', { description: CONNECT_ERRORS[error] ?? 'Please try again from Settings.' })
    // a brand who connected from a bid panel goes back to that slot's panel
    const slot = connectReturn.take()
    setParams(slot ? { slot } : {}, { replace: true })
  }, [connected, error, setParams])
}

/** GET /instagram/connect → {url}, then the browser goes to the provider's authorize page. */
export function useConnectInstagram() {
  return useMutation({
    mutationFn: connectInstagram,
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (err) => toast.error('Could not connect Instagram', { description: serverMessage(err, 'Failed to start the Instagram connection. Please try again.') }),
  })
}
