import { Link } from 'react-router'
import { Bell } from 'lucide-react'
import { cn } from '@/lib/utils'
import { useFlash } from '@/hooks/use-motion'
import { useUnreadCount } from './api/queries'

export function unreadLabel(count: number) {
  if (count === 0) return 'Notifications, none unread'
  return `Notifications, ${count} unread`
}

/** The header's bell for brands and creators: the unread count, kept live by the stream. */
export function NotificationBell() {
  const unread = useUnreadCount()
  const count = unread.data?.unreadCount ?? 0
  const flash = useFlash(unread.data?.unreadCount)
  return (
    <Link
      to="/notifications"
      aria-label={unreadLabel(count)}
      className="relative inline-flex size-9 shrink-0 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
    >
      <Bell className="size-5" aria-hidden="true" />
      {count > 0 && (
        <span
          data-testid="unread-count"
          className={cn(
            'absolute -top-0.5 -right-0.5 flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-red-700 px-1 text-[10px] leading-none font-semibold text-white tabular-nums',
            flash && 'live-flash live-flash-ring',
          )}
        >
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  )
}
