import * as React from 'react'
import { Link } from 'react-router'
import { Gavel } from 'lucide-react'
import { EmptyState, LoadError, Loading } from '@/components/common'
import { Card, CardContent } from '@/components/ui/card'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { serverMessage } from '@/api/errors'
import { useDisputes } from './api/queries'
import type { DisputeStatus } from './api/types'
import { Money, StatusBadge, When } from './components/status'
import { disputeTitle } from './names'

const STATUSES: DisputeStatus[] = ['OPEN', 'DECIDED']

export default function DisputesPage() {
  const [status, setStatus] = React.useState<DisputeStatus>('OPEN')
  return (
    <section aria-labelledby="disputes-title" className="grid gap-4">
      <h1 id="disputes-title" className="text-2xl font-bold">
        Disputes
      </h1>
      <Tabs value={status} onValueChange={(v) => setStatus(v as DisputeStatus)}>
        <TabsList aria-label="Dispute status">
          <TabsTrigger value="OPEN">Open</TabsTrigger>
          <TabsTrigger value="DECIDED">Decided</TabsTrigger>
        </TabsList>
        {STATUSES.map((s) => (
          <TabsContent key={s} value={s} className="mt-4">
            {s === status && <DisputeList status={s} />}
          </TabsContent>
        ))}
      </Tabs>
    </section>
  )
}

function DisputeList({ status }: { status: DisputeStatus }) {
  const disputes = useDisputes(status)
  if (disputes.isPending) return <Loading text="Loading disputes..." />
  if (disputes.isError) return <LoadError message={serverMessage(disputes.error, 'Could not load the disputes.')} onRetry={() => void disputes.refetch()} />
  if (disputes.data.length === 0) return <EmptyState icon={Gavel} text={status === 'OPEN' ? 'No open disputes. Nothing waits for a decision.' : 'No decided disputes yet.'} />
  return (
    <ul aria-label={status === 'OPEN' ? 'Open disputes' : 'Decided disputes'} className="grid gap-3">
      {disputes.data.map((d) => (
        <li key={d.id}>
          <Card className="py-0">
            <CardContent className="grid gap-2 p-4 sm:grid-cols-[1fr_auto] sm:items-center">
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
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  )
}
