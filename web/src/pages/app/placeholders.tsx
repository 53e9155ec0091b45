import { ClipboardCheck, Gavel, HandCoins, Images, Store } from 'lucide-react'
import { PlaceholderPage } from './PlaceholderPage'

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
