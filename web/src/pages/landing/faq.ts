import { creatorSharePercent, pinDurationSpan, platformFeePercent } from '@/lib/bids'

export interface FaqItem {
  id: string
  question: string
  answer: string
}
export interface FaqGroup {
  title: string
  items: FaqItem[]
}

export const FAQ_GROUPS: FaqGroup[] = [
  {
    title: 'General Information',
    items: [
      {
        id: 'how-it-works',
        question: 'How does Pinbid work?',
        answer:
          'Creators list a pinned-comment slot on one of their Instagram posts. Brands bid on it in a timed auction. When the auction closes, the creator reviews the winning bid and its comment, the brand pays, and the creator pins the comment to the top of the post.',
      },
      {
        id: 'second-price',
        question: 'What is a second-price auction?',
        answer:
          'The highest bidder wins, but pays the second-highest bid rather than their own maximum. You can bid what the placement is truly worth to you without overpaying.',
      },
      {
        id: 'fees',
        question: 'What does Pinbid charge?',
        // read when shown: the fee is the one this run serves
        get answer() {
          return `Pinbid takes a ${platformFeePercent()}% commission from the creator’s side of each completed placement, so creators see their net earnings at ${creatorSharePercent()}% of the final price. A small service fee is added to the brand’s winning bid at checkout.`
        },
      },
      {
        id: 'duration',
        question: 'How long does a pinned comment stay up?',
        get answer() {
          const { shortest, longest } = pinDurationSpan()
          return `Each slot states its duration up front. A pinned comment typically stays pinned for ${shortest} to ${longest} days.`
        },
      },
    ],
  },
  {
    title: 'For Creators',
    items: [
      {
        id: 'followers',
        question: 'How many followers do I need?',
        answer:
          'Brands look for reach, so we recommend about 10,000 followers or more. You also need an Instagram Business or Creator account to connect.',
      },
      {
        id: 'payouts',
        question: 'How and when do I get paid?',
        answer:
          'Payouts run weekly or monthly, on the schedule you choose, by bank transfer, to a connected payment-service account, or by PayPal.',
      },
      {
        id: 'minimum-payout',
        question: 'Is there a minimum payout?',
        answer: 'Yes: the minimum payout is $50. Smaller balances are never lost; they roll over to the next payout period.',
      },
      {
        id: 'unpin',
        question: 'Can I unpin a comment early?',
        answer:
          'You stay in control of your account and can unpin at any time. Unpinning before the agreed duration is recorded and may affect your rating with brands.',
      },
    ],
  },
  {
    title: 'For Brands',
    items: [
      {
        id: 'requirements',
        question: 'What do I need to start bidding?',
        answer: 'A verified email address and a payment method. You can browse slots and bid as soon as you sign up.',
      },
      {
        id: 'unapproved',
        question: 'What happens if the creator doesn’t approve my bid?',
        answer: 'Creators approve each winning comment before it is pinned. Unapproved bids are refunded in full.',
      },
      {
        id: 'cancel',
        question: 'Can I cancel a bid?',
        answer: 'Yes, as long as the auction has not ended and your bid is not the current highest bid.',
      },
      {
        id: 'buy-now',
        question: 'Can I skip the auction?',
        answer: 'Some slots offer a Buy Now price. Take it before anyone bids and the slot is yours immediately.',
      },
    ],
  },
]
