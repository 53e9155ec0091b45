import type { NotificationPreferences, Schemas } from '@/api/client'

export type PreferenceRow = { key: keyof NotificationPreferences; label: string; text: string }

/** Each role is told only about what happens on its side of an auction. */
export const PREFERENCE_ROWS: Record<'INFLUENCER' | 'BUYER', PreferenceRow[]> = {
  INFLUENCER: [
    { key: 'newBids', label: 'New bids', text: 'When a bid is placed on your slot.' },
    { key: 'approvals', label: 'Approvals', text: 'When a winning bid waits for your decision.' },
    { key: 'payouts', label: 'Payments & payouts', text: 'When a brand pays and when your payouts are sent.' },
    { key: 'marketing', label: 'Product news', text: 'Occasional tips and news about Pinbid.' },
  ],
  BUYER: [
    { key: 'newBids', label: 'Outbid alerts', text: 'When another brand outbids you.' },
    { key: 'approvals', label: 'Approvals', text: 'When a creator approves or rejects your winning bid.' },
    { key: 'payouts', label: 'Payments', text: 'Payment confirmations and refunds.' },
    { key: 'marketing', label: 'Product news', text: 'Occasional tips and news about Pinbid.' },
  ],
}

export type SavedPreferences = NotificationPreferences & Partial<Pick<Schemas['PreferencesOut'], 'applies'>>

/** The four switches alone: the server refuses anything else in the body (`applies` is what it answers, not takes). */
export const switchesOf = ({ newBids, approvals, payouts, marketing }: NotificationPreferences): NotificationPreferences => ({ newBids, approvals, payouts, marketing })

/** The rows of the role, less those the server says do not apply to it (a brand gets no payout notices). */
export function preferenceRows(role: string | undefined, applies: readonly string[] | undefined): PreferenceRow[] {
  const rows = PREFERENCE_ROWS[role === 'INFLUENCER' ? 'INFLUENCER' : 'BUYER']
  return applies ? rows.filter((r) => applies.includes(r.key)) : rows
}
