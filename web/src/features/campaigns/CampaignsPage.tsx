import { Link } from 'react-router'
import { Megaphone, Plus } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent } from '@/components/ui/card'
import { EmptyState, fmtDateTime, Loading, LoadError } from '@/components/common'
import type { Campaign } from '@/api/types'
import { audienceWords } from '@/lib/campaigns'
import { formatMoney } from '@/lib/money'
import { useCampaigns } from './api/queries'
import { BudgetBar, CampaignCountList, CampaignStatusBadge } from './components/CampaignBits'

export const CAMPAIGNS_LOAD_ERROR = 'Failed to load campaigns. Please try again later.'
export const NO_CAMPAIGNS =
  'No campaigns yet. A campaign bids for you: choose who to reach, a total budget and the most you will pay for one comment, and Pinbid places an automatic bid on every open slot that fits, now and as new ones are listed, never spending more than the budget.'

export default function CampaignsPage() {
  const campaigns = useCampaigns()
  return (
    <div className="mx-auto w-full max-w-5xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-2xl font-bold">Campaigns</h2>
          <p className="text-muted-foreground">Set an audience and a budget once; Pinbid bids for you.</p>
        </div>
        <Button asChild>
          <Link to="/campaigns/new">
            <Plus /> New campaign
          </Link>
        </Button>
      </div>
      {campaigns.isPending ? (
        <Loading page text="Loading campaigns..." />
      ) : campaigns.isError ? (
        <LoadError message={CAMPAIGNS_LOAD_ERROR} error={campaigns.error} onRetry={() => void campaigns.refetch()} />
      ) : campaigns.data.length === 0 ? (
        <EmptyState icon={Megaphone} text={NO_CAMPAIGNS}>
          <Button asChild variant="outline">
            <Link to="/campaigns/new">Create your first campaign</Link>
          </Button>
        </EmptyState>
      ) : (
        <ul className="grid gap-3" aria-label="Your campaigns">
          {campaigns.data.map((c) => (
            <li key={c.id}>
              <CampaignCard campaign={c} />
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

function CampaignCard({ campaign: c }: { campaign: Campaign }) {
  return (
    <Card className="py-0">
      <CardContent className="grid gap-3 p-4">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 className="font-semibold [overflow-wrap:anywhere]">
              <Link to={`/campaigns/${c.id}`} className="hover:underline focus-visible:underline">
                {c.name}
              </Link>
            </h3>
            <p className="text-sm break-words text-muted-foreground">
              {audienceWords(c.filters, c.ask)} · at most {formatMoney(c.maxPerSlot)} a comment · ends {fmtDateTime(c.endsAt)}
            </p>
          </div>
          <CampaignStatusBadge status={c.status} />
        </div>
        <BudgetBar campaign={c} />
        <CampaignCountList counts={c.counts} />
      </CardContent>
    </Card>
  )
}
