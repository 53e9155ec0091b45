import * as React from 'react'
import { Link, useParams, useSearchParams } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { CreditCard, Pause, Pencil, Play, Square } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { AlertDialog, AlertDialogTrigger } from '@/components/ui/alert-dialog'
import { ConfirmDialogContent } from '@/components/confirm-button'
import { BackLink, EmptyState, fmtDateTime, OUTCOME_TOAST_MS } from '@/components/common'
import { TitledCard } from '@/components/titled-card'
import { CampaignSpendChart } from '@/components/charts'
import { serverMessage } from '@/api/errors'
import { KEYS } from '@/api/keys'
import type { CampaignBid, CampaignDetail, CampaignSkipped } from '@/api/types'
import { audienceWords, campaignActions, SKIPPED_REASONS, SLOT_STATE_LABELS, slotState, statusSentence, type SlotState } from '@/lib/campaigns'
import { formatMoney } from '@/lib/money'
import { useCampaign } from './api/queries'
import { useCampaignAction, useFundCampaign, type CampaignAction } from './api/mutations'
import { BudgetBar, CampaignCountList, CampaignStatusBadge, CampaignWait } from './components/CampaignBits'

const ACTION_DONE: Record<CampaignAction, string> = { pause: 'Campaign paused', resume: 'Campaign resumed', end: 'Campaign ended' }
const ACTION_FAILED: Record<CampaignAction, string> = { pause: 'Could not pause the campaign', resume: 'Could not resume the campaign', end: 'Could not end the campaign' }

/** ?funding=success|cancelled comes back from the checkout page. */
function useFundingReturn(id: string) {
  const [params, setParams] = useSearchParams()
  const funding = params.get('funding')
  const queryClient = useQueryClient()
  React.useEffect(() => {
    if (!funding) return
    setParams({}, { replace: true })
    if (funding === 'success') {
      toast.success('Payment received', { id: 'funding-return', description: 'The campaign starts bidding as soon as the payment is confirmed.' })
      // the provider's confirmation may land a moment after the redirect
      const t = setTimeout(() => void queryClient.invalidateQueries({ queryKey: KEYS.buyerCampaign(id) }), 2000)
      return () => clearTimeout(t)
    }
    if (funding === 'cancelled') toast.error('Payment cancelled', { id: 'funding-return', description: 'Nothing was charged; the campaign is not funded.' })
  }, [funding, setParams, queryClient, id])
}

export default function CampaignPage() {
  const { campaignId = '' } = useParams()
  useFundingReturn(campaignId)
  const campaign = useCampaign(campaignId)
  if (!campaign.data) {
    return <CampaignWait query={campaign} />
  }
  const c = campaign.data
  return (
    <div className="mx-auto w-full max-w-5xl space-y-5">
      <BackLink to="/campaigns">Back to Campaigns</BackLink>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="text-2xl font-bold [overflow-wrap:anywhere]">{c.name}</h2>
            <CampaignStatusBadge status={c.status} />
          </div>
          <p className="text-muted-foreground" aria-live="polite" data-testid="campaign-state">
            {statusSentence(c)}
          </p>
        </div>
        <CampaignActions campaign={c} />
      </div>

      <TitledCard title="Budget" level={2} contentClassName="grid gap-4">
        <BudgetBar campaign={c} figures="full" />
        <p className="text-sm text-muted-foreground">
          Funded {formatMoney(c.funded)} · available to bid {formatMoney(c.available)} · at most {formatMoney(c.maxPerSlot)} a comment
        </p>
      </TitledCard>

      <TitledCard title="Slots bid on" level={2} contentClassName="grid gap-4">
        <CampaignCountList counts={c.counts} />
        <CampaignBids bids={c.bids} />
        <PassedOver skipped={c.skipped} />
      </TitledCard>

      <TitledCard title="Spend over time" level={2}>
        <CampaignSpendChart points={c.spendOverTime} name={c.name} createdAt={c.createdAt} />
      </TitledCard>

      <TitledCard title="Settings" level={2}>
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <Setting label="Who to reach">{audienceWords(c.filters, c.ask)}</Setting>
          <Setting label="Runs">
            {fmtDateTime(c.startsAt)} – {fmtDateTime(c.endsAt)}
          </Setting>
          <Setting label="Comment" className="sm:col-span-2">
            <span className="[overflow-wrap:anywhere]">{c.commentText}</span>
          </Setting>
        </dl>
      </TitledCard>
    </div>
  )
}

function Setting({ label, className, children }: { label: string; className?: string; children: React.ReactNode }) {
  return (
    <div className={className}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd>{children}</dd>
    </div>
  )
}

/** Fund, Pause, Resume, End (asks first) and Edit, as the campaign's state allows. */
function CampaignActions({ campaign: c }: { campaign: CampaignDetail }) {
  const can = campaignActions(c)
  const act = useCampaignAction(c.id, {
    onSuccess: (_, action) => toast.success(ACTION_DONE[action], { duration: action === 'end' ? OUTCOME_TOAST_MS : undefined }),
    onError: (err, action) => toast.error(ACTION_FAILED[action], { description: serverMessage(err, 'Please try again.') }),
  })
  const fund = useFundCampaign(c.id, {
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (err) => toast.error('Could not start the payment', { description: serverMessage(err, 'Please try again.') }),
  })
  const busy = act.isPending || fund.isPending
  const doing = act.isPending ? act.variables : null
  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label="Campaign actions">
      {can.fund && (
        <Button onClick={() => fund.mutate()} disabled={busy}>
          {fund.isPending ? <Spinner /> : <CreditCard />} Fund {formatMoney(Math.max(0, c.budget - c.funded))}
        </Button>
      )}
      {can.pause && (
        <Button variant="outline" onClick={() => act.mutate('pause')} disabled={busy}>
          {doing === 'pause' ? <Spinner /> : <Pause />} Pause
        </Button>
      )}
      {can.resume && (
        <Button variant="outline" onClick={() => act.mutate('resume')} disabled={busy}>
          {doing === 'resume' ? <Spinner /> : <Play />} Resume
        </Button>
      )}
      {can.edit && (
        <Button asChild variant="outline">
          <Link to={`/campaigns/${c.id}/edit`}>
            <Pencil /> Edit
          </Link>
        </Button>
      )}
      {can.end && (
        <AlertDialog>
          <AlertDialogTrigger asChild>
            <Button variant="outline" className="text-destructive" disabled={busy}>
              {doing === 'end' ? <Spinner /> : <Square />} End
            </Button>
          </AlertDialogTrigger>
          <ConfirmDialogContent
            title="End this campaign?"
            description="It places no new bids. Bids already placed run to their close; what is left of the budget comes back to you once they are settled. This cannot be undone."
            confirmLabel="End campaign"
            destructive
            onConfirm={() => act.mutate('end')}
          />
        </AlertDialog>
      )}
    </div>
  )
}

const STATE_TONES: Record<SlotState, 'success' | 'secondary' | 'destructive' | 'soft'> = {
  leading: 'success',
  outbid: 'destructive',
  won: 'soft',
  pinned: 'success',
  lost: 'secondary',
}

/** The slots the campaign bid on: where each stands, what it costs, and a placement's clicks and cost per click. */
function CampaignBids({ bids }: { bids: CampaignBid[] }) {
  if (bids.length === 0) return <EmptyState text="No bids yet. The campaign bids as soon as it is funded and a slot that fits is open." />
  return (
    <ul className="divide-y rounded-lg border" aria-label="Bids of this campaign">
      {bids.map((b) => {
        const state = slotState(b)
        const placed = state === 'won' || state === 'pinned'
        return (
          <li key={b.id} className="grid gap-2 p-3 sm:grid-cols-[1fr_auto] sm:items-center">
            <div className="min-w-0">
              <p className="font-medium break-words">
                {placed ? (
                  <Link to={`/my-bids/${b.id}`} className="text-primary hover:underline focus-visible:underline">
                    {b.slotTitle}
                  </Link>
                ) : (
                  b.slotTitle
                )}
              </p>
              <p className="text-sm text-muted-foreground">
                {b.creatorName || 'Unknown creator'} · updated {fmtDateTime(b.updatedAt)}
              </p>
            </div>
            <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm sm:justify-end">
              <Badge variant={STATE_TONES[state]}>{SLOT_STATE_LABELS[state]}</Badge>
              <BidFigure label={b.finalPrice != null ? 'Price' : 'Bid'} value={formatMoney(b.finalPrice ?? b.amount)} />
              {b.finalPrice == null && b.maxAutoBid != null && <BidFigure label="Up to" value={formatMoney(b.maxAutoBid)} />}
              {state === 'pinned' && <BidFigure label="Clicks" value={b.clicks.toLocaleString('en-US')} />}
              {state === 'pinned' && <BidFigure label="Per click" value={b.costPerClick != null ? formatMoney(b.costPerClick) : '—'} />}
            </div>
          </li>
        )
      })}
    </ul>
  )
}

function BidFigure({ label, value }: { label: string; value: string }) {
  return (
    <span className="tabular-nums">
      <span className="text-muted-foreground">{label} </span>
      <span className="font-semibold">{value}</span>
    </span>
  )
}

/** Slots that fit but got no bid from the campaign, and why (the brand's own bid there, the minimum bid above the
 *  most per comment, ...): folded, since they are not the campaign's doing. */
function PassedOver({ skipped }: { skipped: CampaignSkipped[] }) {
  if (skipped.length === 0) return null
  return (
    <details className="rounded-lg border p-3 text-sm">
      <summary className="cursor-pointer font-medium">
        Slots it fitted but did not bid on ({skipped.length})
      </summary>
      <ul className="mt-2 grid gap-1.5">
        {skipped.map((s) => (
          <li key={s.slotId} className="break-words">
            <span className="font-medium">{s.slotTitle}</span> <span className="text-muted-foreground">· {SKIPPED_REASONS[s.reason] ?? s.reason} · {fmtDateTime(s.at)}</span>
          </li>
        ))}
      </ul>
    </details>
  )
}
