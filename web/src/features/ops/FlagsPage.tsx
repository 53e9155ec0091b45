import * as React from 'react'
import { toast } from 'sonner'
import { Flag as FlagIcon } from 'lucide-react'
import { EmptyState } from '@/components/common'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { useClearFlag, useFlags } from './api/queries'
import type { Flag, FlagStatus } from './api/types'
import { DeskRow, QueryWait, StatusDeskPage } from './components/DeskPage'
import { ReasonDialog } from './components/ReasonDialog'
import { When } from './components/status'
import { accountName, creatorName } from './names'

const STATUSES = [
  { value: 'OPEN', label: 'Open' },
  { value: 'CLEARED', label: 'Cleared' },
] as const satisfies readonly { value: FlagStatus; label: string }[]

export default function FlagsPage() {
  return (
    <StatusDeskPage id="flags-title" title="Flagged accounts" intro="Bidders who may be tied to the creator they bid on. A flag refuses nothing: look, then clear it or act on the account." statuses={STATUSES} label="Flag status">
      {(s) => <FlagList status={s} />}
    </StatusDeskPage>
  )
}

function FlagList({ status }: { status: FlagStatus }) {
  const flags = useFlags(status)
  const clear = useClearFlag()
  const [clearing, setClearing] = React.useState<Flag | null>(null)
  if (!flags.isSuccess) return <QueryWait query={flags} loading="Loading flags..." failed="Could not load the flags." />
  if (flags.data.length === 0) return <EmptyState icon={FlagIcon} text={status === 'OPEN' ? 'No open flags.' : 'No cleared flags yet.'} />
  return (
    <>
      <ul aria-label={status === 'OPEN' ? 'Open flags' : 'Cleared flags'} className="grid gap-3">
        {flags.data.map((f) => (
          <DeskRow key={f.id}>
            <div className="min-w-0">
              <p className="font-medium">
                {accountName(f.userName)} <span className="font-normal text-muted-foreground">bids on</span> {creatorName(f.creatorName)}
              </p>
              <ul aria-label="Reasons" className="mt-1 flex flex-wrap gap-1">
                {f.reasons.map((r) => (
                  <li key={r}>
                    <Badge variant="outline">{r}</Badge>
                  </li>
                ))}
              </ul>
              <p className="mt-1 text-xs text-muted-foreground">
                Flagged <When iso={f.createdAt} />
                {f.clearedAt && (
                  <>
                    {' '}
                    · cleared <When iso={f.clearedAt} />
                  </>
                )}
              </p>
              {f.clearReason && <p className="mt-1 text-sm">Cleared because: {f.clearReason}</p>}
            </div>
            <div className="flex items-center gap-3">
              <span className="text-sm tabular-nums" aria-label={`Score ${f.score}`}>
                Score <strong>{f.score}</strong>
              </span>
              {f.status === 'OPEN' && (
                <Button variant="outline" size="sm" onClick={() => setClearing(f)} aria-label={`Clear the flag on ${accountName(f.userName)}`}>
                  Clear
                </Button>
              )}
            </div>
          </DeskRow>
        ))}
      </ul>
      <ReasonDialog
        open={clearing !== null}
        onClose={() => setClearing(null)}
        title={`Clear the flag on ${clearing ? accountName(clearing.userName) : ''}?`}
        description="The account stays as it is; the flag moves to Cleared with your reason."
        submitLabel="Clear flag"
        onSubmit={async (reason) => {
          if (!clearing) return
          await clear.mutateAsync({ id: clearing.id, reason })
          toast.success('Flag cleared')
        }}
      />
    </>
  )
}
