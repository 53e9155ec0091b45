import { ClipboardCheck, Gavel, HandCoins, Images, LayoutDashboard, Megaphone, Settings, Store, type LucideIcon } from 'lucide-react'
import type { Role } from '@/api/client'

export interface MenuItem {
  title: string
  url: string
  icon: LucideIcon
  description: string
}

export const INFLUENCER_MENU: MenuItem[] = [
  { title: 'Dashboard', url: '/dashboard', icon: LayoutDashboard, description: 'Your slots, approvals and earnings at a glance.' },
  { title: 'Post Manager', url: '/post-manager', icon: Images, description: 'Open pin slots on your Instagram posts.' },
  { title: 'Approvals', url: '/approvals', icon: ClipboardCheck, description: 'Review winning bids and pin comments.' },
  { title: 'Earnings', url: '/earnings', icon: HandCoins, description: 'Track earnings and set up payouts.' },
  { title: 'Settings', url: '/settings', icon: Settings, description: 'Profile, Instagram, notifications and security.' },
]

export const BUYER_MENU: MenuItem[] = [
  { title: 'Dashboard', url: '/dashboard', icon: LayoutDashboard, description: 'Your bids and spending at a glance.' },
  { title: 'Marketplace', url: '/marketplace', icon: Store, description: 'Find pin slots and place bids.' },
  { title: 'My Bids', url: '/my-bids', icon: Gavel, description: 'Follow your bids, pay and track live pins.' },
  { title: 'Campaigns', url: '/campaigns', icon: Megaphone, description: 'Set an audience and a budget once; Pinbid bids for you.' },
  { title: 'Settings', url: '/settings', icon: Settings, description: 'Profile, notifications and security.' },
]

export function menuFor(role: Role | string | undefined): { label: string; items: MenuItem[] } | null {
  if (role === 'INFLUENCER') return { label: 'Creator Tools', items: INFLUENCER_MENU }
  if (role === 'BUYER') return { label: 'Brand Tools', items: BUYER_MENU }
  return null
}

export function roleLabel(role: string) {
  if (role === 'INFLUENCER') return 'Creator'
  if (role === 'BUYER') return 'Brand'
  return role.charAt(0) + role.slice(1).toLowerCase()
}
