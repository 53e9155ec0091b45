import { useNavigate } from 'react-router'
import { Bell, CheckCheck } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'
import { EmptyState, fmtDateTime, Loading, LoadError } from '@/components/common'
import type { LiveNotice } from '@/api/live/events'
import { useMarkRead, useNotifications, useUnreadCount } from './api/queries'

export const NOTIFICATIONS_LOAD_ERROR = 'Failed to load notifications. Please try again later.'

/** Every notice of the signed-in brand or creator, newest first; new ones arrive by the live stream. */
export default function NotificationsPage() {
  const notices = useNotifications()
  const unread = useUnreadCount()
  const markRead = useMarkRead()
  const unreadCount = unread.data?.unreadCount ?? notices.data?.filter((n) => !n.read).length ?? 0

  return (
    <div className="mx-auto w-full max-w-3xl space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-2xl font-bold">Notifications</h2>
          <p className="text-muted-foreground" aria-live="polite">
            {unreadCount === 0 ? 'You are all caught up.' : `${unreadCount} unread`}
          </p>
        </div>
        <Button variant="outline" onClick={() => markRead.mutate({ all: true })} disabled={unreadCount === 0 || markRead.isPending}>
          <CheckCheck /> Mark all as read
        </Button>
      </div>
      {notices.isPending ? (
        <Loading text="Loading notifications..." />
      ) : notices.isError ? (
        <LoadError message={NOTIFICATIONS_LOAD_ERROR} onRetry={() => void notices.refetch()} />
      ) : notices.data.length === 0 ? (
        <EmptyState icon={Bell} text="No notifications yet." />
      ) : (
        <ul className="divide-y rounded-xl border bg-card" aria-label="Notifications">
          {notices.data.map((n) => (
            <NoticeRow key={n.id} notice={n} onRead={() => markRead.mutate({ ids: [n.id] })} />
          ))}
        </ul>
      )}
    </div>
  )
}

function NoticeRow({ notice, onRead }: { notice: LiveNotice; onRead: () => void }) {
  const navigate = useNavigate()
  const open = () => {
    if (!notice.read) onRead()
    if (notice.link) navigate(notice.link)
  }
  return (
    <li className={cn('flex gap-3 p-4', !notice.read && 'bg-primary/5')} data-testid="notification" data-read={notice.read}>
      <span aria-hidden="true" className={cn('mt-1.5 size-2 shrink-0 rounded-full', notice.read ? 'bg-transparent' : 'bg-primary')} />
      <div className="min-w-0 flex-1">
        <p className="font-medium">
          {notice.title}
          {!notice.read && <span className="sr-only"> (unread)</span>}
        </p>
        <p className="text-sm text-muted-foreground">{notice.message}</p>
        <p className="mt-1 text-xs text-muted-foreground">
          <time dateTime={notice.createdAt}>{fmtDateTime(notice.createdAt)}</time>
        </p>
      </div>
      <div className="flex shrink-0 flex-col items-end gap-1 sm:flex-row sm:items-start">
        {notice.link && (
          <Button size="sm" variant="ghost" onClick={open} aria-label={`Open: ${notice.title}`}>
            Open
          </Button>
        )}
        {!notice.read && (
          <Button size="sm" variant="outline" onClick={onRead} aria-label={`Mark as read: ${notice.title}`}>
            Mark as read
          </Button>
        )}
      </div>
    </li>
  )
}
