import { Link } from 'react-router'
import { Gavel } from 'lucide-react'
import { EmptyState } from '@/components/common'
import { useDisputes } from './api/queries'
import type { DisputeStatus } from './api/types'
import { DeskList, DeskRows, StatusDeskPage } from './components/DeskPage'
import { Money, StatusBadge, When } from './components/status'
import { disputeTitle } from './names'

const STATUSES: Record<DisputeStatus, string> = { OPEN: 'Open', DECIDED: 'Decided' }

export default function DisputesPage() {
  return (
    <StatusDeskPage id="disputes-title" title="Disputes" statuses={STATUSES} label="Dispute status">
      {(s) => <DisputeList status={s} />}
    </StatusDeskPage>
  )
}

function DisputeList({ status }: { status: DisputeStatus }) {
  const disputes = useDisputes(status)
  const empty = <EmptyState icon={Gavel} text={status === 'OPEN' ? 'No open disputes. Nothing waits for a decision.' : 'No decided disputes yet.'} />
  return (
    <DeskList query={disputes} loading="Loading disputes..." failed="Could not load the disputes." empty={empty}>
      {(items) => (
        <DeskRows label={status === 'OPEN' ? 'Open disputes' : 'Decided disputes'} items={items}>
          {(d) => (
            <>
              <div className="min-w-0">
                <p className="font-medium">
                  <Link to={`/ops/disputes/${d.id}`} className="hover:underline focus-visible:underline">
                    {disputeTitle(d)}
                  </Link>{' '}
                  · <Money amount={d.amount} />
                </p>
                <p className="line-clamp-2 text-sm text-muted-foreground">{d.reason}</p>
                <p className="text-xs text-muted-foreground">
                  Reported by {d.reporter === 'BRAND' ? 'the brand' : 'Pinbid'} on <When iso={d.reportedAt} />
                  {d.answeredAt ? ' · creator answered' : <> · creator answers by <When iso={d.answerBy} /></>}
                </p>
              </div>
              <div className="flex items-center gap-2">
                <StatusBadge status={d.status} />
                {d.outcome && <span className="text-sm">{d.outcome.replace(/_/g, ' ').toLowerCase()}</span>}
              </div>
            </>
          )}
        </DeskRows>
      )}
    </DeskList>
  )
}
