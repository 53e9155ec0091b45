/** Each route's document title: set on navigation (App's RouteEffects) and written into the prerendered pages. */
const TITLES: Record<string, string> = {
  '/': 'Pinbid — Auction your pinned comments',
  '/login': 'Log in — Pinbid',
  '/signup/influencer': 'Join as a Creator — Pinbid',
  '/signup/buyer': 'Join as a Brand — Pinbid',
  '/reset-password': 'Reset your password — Pinbid',
  '/blog': 'Blog — Pinbid',
  '/privacy': 'Privacy Policy — Pinbid',
  '/terms': 'Terms of Service — Pinbid',
  '/dashboard': 'Dashboard — Pinbid',
  '/marketplace': 'Marketplace — Pinbid',
  '/post-manager': 'Post Manager — Pinbid',
  '/approvals': 'Approvals — Pinbid',
  '/my-bids': 'My Bids — Pinbid',
  '/campaigns': 'Campaigns — Pinbid',
  '/campaigns/new': 'New campaign — Pinbid',
  '/campaigns/edit': 'Edit campaign — Pinbid',
  '/campaign': 'Campaign — Pinbid',
  '/earnings': 'Earnings — Pinbid',
  '/settings': 'Settings — Pinbid',
  '/notifications': 'Notifications — Pinbid',
  '/placements': 'Placement — Pinbid',
  '/ops': 'Disputes — Pinbid operator desk',
  '/ops/flags': 'Flags — Pinbid operator desk',
  '/ops/users': 'Users — Pinbid operator desk',
  '/ops/links': 'Link changes — Pinbid operator desk',
  '/ops/audit': 'Audit log — Pinbid operator desk',
  '/ops/passkeys': 'Passkeys — Pinbid operator desk',
}

export function pageTitle(pathname: string): string {
  const key = pathname.startsWith('/reset-password')
    ? '/reset-password'
    : pathname.startsWith('/ops/disputes/')
      ? '/ops'
      : pathname.startsWith('/placements/') || pathname.startsWith('/my-bids/')
        ? '/placements'
        : campaignTitleKey(pathname)
  return TITLES[key] ?? 'Page not found — Pinbid'
}

/** /campaigns, /campaigns/new, /campaigns/<id>, /campaigns/<id>/edit */
function campaignTitleKey(pathname: string): string {
  if (!pathname.startsWith('/campaigns/') || pathname === '/campaigns/new') return pathname
  return pathname.endsWith('/edit') ? '/campaigns/edit' : '/campaign'
}
