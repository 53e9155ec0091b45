import * as React from 'react'
import { useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { ClipboardCheck, Gavel, HandCoins, Images, Store } from 'lucide-react'
import { PlaceholderPage } from './PlaceholderPage'

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

/** The Instagram OAuth callback lands on /post-manager?connected=1 or ?error=<reason>. */
function useInstagramCallbackToast() {
  const [params, setParams] = useSearchParams()
  const connected = params.get('connected')
  const error = params.get('error')
  React.useEffect(() => {
    if (!connected && !error) return
    if (connected === '1') toast.success('Instagram Connected', { description: 'Your Instagram account is linked to Pinbid.' })
    else if (error) toast.error('Instagram connection failed', { description: CONNECT_ERRORS[error] ?? 'Please try again from Settings.' })
    setParams({}, { replace: true })
  }, [connected, error, setParams])
}

export function MarketplacePage() {
  return (
    <PlaceholderPage
      icon={Store}
      title="Pin Slot Marketplace"
      intro="Browse every open pinned-comment slot and bid on the ones that fit your brand."
      features={[
        'Search and grid or list views',
        'Filters: price, minimum views, time left, verified creators, category',
        'Sorting by newest, popularity, price, ending soon or views',
        'Creator reach: average views, followers, engagement',
        'Place a bid with an automatic maximum',
        'Choose an existing comment or write a new one',
      ]}
    />
  )
}

export function PostManagerPage() {
  useInstagramCallbackToast()
  return (
    <PlaceholderPage
      icon={Images}
      title="Post & Pin-Slot Manager"
      intro="Your recent Instagram posts, ready to turn into pin-slot auctions."
      features={[
        'Your recent posts with views, likes and comments',
        'Create a pin slot: title, category, minimum bid, auction end',
        'Current bid and number of active bids per slot',
        'Totals: posts, active slots, pending bids, revenue',
      ]}
    />
  )
}

export function ApprovalsPage() {
  return (
    <PlaceholderPage
      icon={ClipboardCheck}
      title="Pending Approvals"
      intro="Winning bids wait here for your decision before anything is pinned."
      features={[
        'Each winning bid with the brand, amount and proposed comment',
        'Approve or reject in one click',
        'Pin the approved comment once the brand has paid',
        'Potential net revenue after the 10% fee',
      ]}
    />
  )
}

export function MyBidsPage() {
  return (
    <PlaceholderPage
      icon={Gavel}
      title="My Bids & Purchases"
      intro="Every bid you place, from first offer to live pinned comment."
      features={[
        'Tabs for active, won, live and past bids',
        'Bid again when you are outbid',
        'Pay for approved bids',
        'Submit or change the comment to pin',
        'Likes and replies on your live pins',
      ]}
    />
  )
}

export function EarningsPage() {
  return (
    <PlaceholderPage
      icon={HandCoins}
      title="Earnings & Payouts"
      intro="What you have earned from pinned comments, and when it reaches your account."
      features={[
        'Total earned, this month and pending payout',
        'Monthly payouts: gross, fees, net and status',
        'Recent paid transactions at 90% net',
        'Payout method and schedule: bank transfer or PayPal, weekly, monthly or quarterly',
      ]}
    />
  )
}
