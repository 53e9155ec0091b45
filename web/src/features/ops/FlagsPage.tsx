import * as React from 'react'
import { toast } from 'sonner'
import { Flag as FlagIcon } from 'lucide-react'
import { EmptyState } from '@/components/common'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { useClearFlag, useFlags } from './api/queries'
import type { Flag, FlagStatus } from './api/types'
import { DeskList, DeskRows, StatusDeskPage } from './components/DeskPage'
import { ReasonDialog } from './components/ReasonDialog'
import { When } from './components/status'
import { accountName, creatorName } from './names'

const STATUSES: Record<FlagStatus, string> = { OPEN: 'Open', CLEARED: 'Cleared' }

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
  const empty = <EmptyState icon={FlagIcon} text={status === 'OPEN' ? 'No open flags.' : 'No cleared flags yet.'} />
  return (
    <DeskList query={flags} loading="Loading flags..." failed="Could not load the flags." empty={empty}>
      {(items) => (
        <>
          <DeskRows label={status === 'OPEN' ? 'Open flags' : 'Cleared flags'} items={items}>
            {(f) => <FlagRow flag={f} onClear={() => setClearing(f)} />}
          </DeskRows>
          <ReasonDialog
            subject={clearing}
            onClose={() => setClearing(null)}
            title={`Clear the flag on ${clearing ? accountName(clearing.userName) : ''}?`}
            description="The account stays as it is; the flag moves to Cleared with your reason."
            submitLabel="Clear flag"
            onSubmit={async (flag, reason) => {
              await clear.mutateAsync({ id: flag.id, reason })
              toast.success('Flag cleared')
            }}
          />
        </>
      )}
    </DeskList>
  )
}

function FlagRow({ flag: f, onClear }: { flag: Flag; onClear: () => void }) {
  return (
    <>
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
          <Button variant="outline" size="sm" onClick={onClear} aria-label={`Clear the flag on ${accountName(f.userName)}`}>
            Clear
          </Button>
        )}
      </div>
    </>
  )
}
