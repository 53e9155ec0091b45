import * as React from 'react'
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { getToken, handleRefused, signedOutNote } from '@/auth/token'
import { getConfig } from '@/config'
import { formatMoney } from '@/lib/money'
import { alreadyTold } from '@/lib/told'
import { KEYS } from '@/api/keys'
import { applyBidEvent, applyNotificationEvent, applyPlacementEvent, applySlotEvent, refetchOnScreen } from './cache'
import type { BidEvent, LiveEvent, LiveNotice } from './events'
import { openStream, streamUrl } from './stream'

/** The stream takes at most this many slot ids; the first registered (the top of the screen) win. */
export const MAX_STREAM_SLOTS = 100
/** Scrolling, filtering and paging change the set in bursts: one reconnection per burst. */
export const RESUBSCRIBE_DEBOUNCE_MS = 400
/** A replaced connection is closed when its successor is ready, or after this long whatever happens. */
const HANDOVER_LIMIT_MS = 10_000
/** The bid event toasts an outbid with its Bid Again action; the notice of it need not say it twice. */
const KINDS_TOLD_BY_BID_EVENTS = new Set(['bid.outbid'])
/** identity's notice of a suspension (its message says why). */
const SUSPENDED_KIND = 'account.suspended'

interface LiveRegistry {
  register: (ids: readonly string[]) => () => void
}

const LiveContext = React.createContext<LiveRegistry | null>(null)

/** Subscribe the slots a component shows to the live stream while it is mounted (a no-op outside the provider). */
export function useLiveSlots(ids: readonly string[]) {
  const registry = React.useContext(LiveContext)
  const key = ids.join(',')
  React.useEffect(() => {
    if (!registry || !key) return
    return registry.register(key.split(','))
  }, [registry, key])
}

/** Counts how many components show each slot; answers the ids to subscribe, in first-registered order. */
function useSlotRegistry() {
  const counts = React.useRef(new Map<string, number>())
  const [slotKey, setSlotKey] = React.useState('')
  const timer = React.useRef<ReturnType<typeof setTimeout> | undefined>(undefined)

  const register = React.useCallback((ids: readonly string[]) => {
    const schedule = () => {
      clearTimeout(timer.current)
      timer.current = setTimeout(() => {
        const ids = [...counts.current.keys()].slice(0, MAX_STREAM_SLOTS).sort()
        setSlotKey(ids.join(','))
      }, RESUBSCRIBE_DEBOUNCE_MS)
    }
    for (const id of ids) counts.current.set(id, (counts.current.get(id) ?? 0) + 1)
    schedule()
    return () => {
      for (const id of ids) {
        const n = (counts.current.get(id) ?? 1) - 1
        if (n <= 0) counts.current.delete(id)
        else counts.current.set(id, n)
      }
      schedule()
    }
  }, [])
  React.useEffect(() => () => clearTimeout(timer.current), [])
  return { register, slotIds: slotKey ? slotKey.split(',') : [] }
}

function slotTitleFromCache(client: QueryClient, slotId: string): string | undefined {
  const slot = client.getQueryData<{ title?: string }>(KEYS.slot(slotId))
  if (slot?.title) return slot.title
  const bids = client.getQueryData<{ pinSlot: { id: string; title: string } }[]>(KEYS.buyerBids)
  return bids?.find((b) => b.pinSlot.id === slotId)?.pinSlot.title
}

/** Keeps ONE live stream for the signed-in user, and writes what it says into the query cache. */
/** The campaign that placed one of the brand's bids, as My Bids last read it (null when it is the brand's own). */
function campaignOfBid(client: QueryClient, bidId: string): { id: string; name: string } | null {
  const bids = client.getQueryData<{ id: string; campaignId?: string | null; campaignName?: string | null }[]>(KEYS.buyerBids)
  const bid = Array.isArray(bids) ? bids.find((b) => b.id === bidId) : undefined
  return bid?.campaignId ? { id: bid.campaignId, name: bid.campaignName || 'Campaign' } : null
}

export function LiveProvider({ role, children }: { role: string | undefined; children: React.ReactNode }) {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const { register, slotIds } = useSlotRegistry()
  const [tokenRound, setTokenRound] = React.useState(0)
  const bidStatuses = React.useRef(new Map<string, string>())
  const current = React.useRef<AbortController | null>(null)

  const tellOutbid = React.useCallback(
    (e: BidEvent) => {
      const slotId = e.slotId ?? ''
      const title = e.slotTitle || slotTitleFromCache(queryClient, slotId) || 'a pin slot'
      const price = e.currentBid != null ? `The current bid is now ${formatMoney(e.currentBid)}.` : 'Your bid is no longer the highest.'
      // a campaign's bid is raised by its campaign, never by hand (the server refuses it): its page, not Bid Again
      const campaign = campaignOfBid(queryClient, e.id)
      toast(`You were outbid on ${title}`, {
        id: `outbid-${slotId || e.id}`,
        description: campaign ? `${price} Your campaign “${campaign.name}” placed this bid.` : price,
        duration: 10_000,
        // Bid Again opens the slot's bid panel at the current bid plus 10, as My Bids' Bid Again does
        action: campaign
          ? { label: 'View campaign', onClick: () => navigate(`/campaigns/${encodeURIComponent(campaign.id)}`) }
          : slotId
            ? { label: 'Bid Again', onClick: () => navigate(`/marketplace?slot=${encodeURIComponent(slotId)}&again=1`) }
            : undefined,
      })
    },
    [queryClient, navigate],
  )

  const tellNotice = React.useCallback(
    (n: LiveNotice) => {
      // a suspension signs the person out at once: its words are what the login page says
      if (n.kind === SUSPENDED_KIND) signedOutNote.remember({ code: 'account_suspended', detail: n.message })
      if (KINDS_TOLD_BY_BID_EVENTS.has(n.kind) || alreadyTold(n.kind)) return
      const link = n.link
      toast(n.title, {
        id: `notice-${n.kind}`,
        description: n.message,
        ...(link ? { action: { label: 'View', onClick: () => navigate(link) } } : {}),
      })
    },
    [navigate],
  )

  const onEvent = React.useCallback(
    (event: LiveEvent) => {
      switch (event.type) {
        case 'slot':
          applySlotEvent(queryClient, event.data, role)
          return
        case 'bid': {
          const cached = applyBidEvent(queryClient, event.data)
          const before = bidStatuses.current.get(event.data.id) ?? cached
          bidStatuses.current.set(event.data.id, event.data.status)
          // a redelivered or repeated OUTBID is told once
          if (event.data.status === 'OUTBID' && before !== 'OUTBID') tellOutbid(event.data)
          return
        }
        case 'notification':
          applyNotificationEvent(queryClient, event.data, role)
          tellNotice(event.data.notification)
          return
        case 'placement':
          applyPlacementEvent(queryClient, event.data, role)
          return
        default:
          return
      }
    },
    [queryClient, role, tellOutbid, tellNotice],
  )
  const onEventRef = React.useRef(onEvent)
  React.useEffect(() => {
    onEventRef.current = onEvent
  }, [onEvent])

  const slotKey = slotIds.join(',')
  React.useEffect(() => {
    const token = getToken()
    if (!token) return
    const controller = new AbortController()
    // A new slot set opens its connection before the old one closes, so nothing in between is missed and
    // nothing needs refetching; a first connection or a reconnection after a loss refetches what is on screen.
    const predecessor = current.current
    current.current = controller
    const handover = predecessor ? setTimeout(() => predecessor.abort(), HANDOVER_LIMIT_MS) : undefined
    let handedOver = predecessor === null
    void openStream({
      url: streamUrl(getConfig().apiBase, slotKey ? slotKey.split(',') : []),
      token,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type !== 'ready') return onEventRef.current(event)
        if (!handedOver) {
          handedOver = true
          clearTimeout(handover)
          predecessor?.abort()
          return
        }
        refetchOnScreen(queryClient)
      },
      onForbidden: (refused, reason) => {
        // a password change revokes the old token and stores a new one: follow the new token, not the 403 rule
        void handleRefused(refused, reason).then((outcome) => {
          if (outcome === 'newer') setTokenRound((n) => n + 1)
        })
      },
    }).catch(() => {
      /* the library only rejects on the errors handled above */
    })
    return () => {
      clearTimeout(handover)
      // replaced before it was ready: its predecessor is no use to anyone now
      if (!handedOver) predecessor?.abort()
    }
  }, [slotKey, tokenRound, queryClient])

  React.useEffect(() => () => current.current?.abort(), [])

  const registry = React.useMemo(() => ({ register }), [register])
  return <LiveContext.Provider value={registry}>{children}</LiveContext.Provider>
}
