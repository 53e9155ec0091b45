import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { api } from '@/api/client'
import { serverMessage, unwrap } from '@/api/errors'
import { KEYS } from '@/api/keys'
import { notificationsQuery } from '@/api/queries'
import type { LiveNotice } from '@/api/live/events'

export const useNotifications = () => useQuery(notificationsQuery())

/** The bell's figure: fetched once, then kept by the stream's notification events (no polling). */
export const useUnreadCount = () => useQuery({ queryKey: KEYS.notificationsUnread, queryFn: async () => unwrap(await api().GET('/notifications/unread-count')), staleTime: Infinity })

export type MarkRead = { ids: string[] } | { all: true }

/** Marks notices read at once on screen; the server's answer sets the unread count, a failure puts things back. */
export function useMarkRead() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: async (body: MarkRead) => unwrap(await api().POST('/notifications/read', { body })),
    onMutate: async (body) => {
      await client.cancelQueries({ queryKey: KEYS.notificationsAll })
      const list = client.getQueryData<LiveNotice[]>(KEYS.notifications)
      const unread = client.getQueryData<{ unreadCount: number }>(KEYS.notificationsUnread)
      const marks = (n: LiveNotice) => 'all' in body || body.ids.includes(n.id)
      if (list) client.setQueryData<LiveNotice[]>(KEYS.notifications, list.map((n) => (marks(n) && !n.read ? { ...n, read: true } : n)))
      if (unread && list) {
        const cleared = list.filter((n) => marks(n) && !n.read).length
        client.setQueryData(KEYS.notificationsUnread, { unreadCount: 'all' in body ? 0 : Math.max(0, unread.unreadCount - cleared) })
      }
      return { list, unread }
    },
    onSuccess: (answer) => client.setQueryData(KEYS.notificationsUnread, answer),
    onError: (err, _body, saved) => {
      if (saved?.list) client.setQueryData(KEYS.notifications, saved.list)
      if (saved?.unread) client.setQueryData(KEYS.notificationsUnread, saved.unread)
      toast.error('Could not mark as read', { description: serverMessage(err, 'Please try again.') })
    },
  })
}
