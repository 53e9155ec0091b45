import * as React from 'react'
import { ScrollText } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from '@/lib/zod'
import { EmptyState, LoadError, Loading } from '@/components/common'
import { Button } from '@/components/ui/button'
import { NativeSelect } from '@/components/ui/native-select'
import { serverMessage } from '@/api/errors'
import { useAudit, type AuditFilter } from './api/queries'
import type { AuditEntry } from './api/types'
import { DeskPage } from './components/DeskPage'
import { FilterField, FilterForm } from './components/FilterForm'
import { When } from './components/status'

const OBJECT_TYPES = ['', 'dispute', 'payment', 'user', 'flag'] as const

const filterSchema = z.object({ objectType: z.enum(OBJECT_TYPES), objectId: z.string().trim().max(100) })
type FilterValues = z.infer<typeof filterSchema>

export default function AuditPage() {
  const [filter, setFilter] = React.useState<AuditFilter>({})
  const form = useForm<FilterValues>({ resolver: zodResolver(filterSchema), defaultValues: { objectType: '', objectId: '' } })
  // the pages read so far, each from the `actedAt` of the one before
  const [cursors, setCursors] = React.useState<(string | undefined)[]>([undefined])
  return (
    <DeskPage id="audit-title" title="Audit log" intro="Every operator action, in every service: who, what, which object, when and why. Nobody can change it.">
      <FilterForm
        form={form}
        label="Filter the audit log"
        onFilter={({ objectType, objectId }) => {
          setFilter({ objectType: objectType || undefined, objectId: objectId || undefined })
          setCursors([undefined])
        }}
      >
        <FilterField control={form.control} name="objectType" id="audit-type" label="Object">
          {(field) => (
            <NativeSelect {...field}>
              {OBJECT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t ? t.charAt(0).toUpperCase() + t.slice(1) : 'Any'}
                </option>
              ))}
            </NativeSelect>
          )}
        </FilterField>
        <FilterField control={form.control} name="objectId" id="audit-id" label="Object id" className="min-w-0 flex-1" maxLength={100} placeholder="any" />
      </FilterForm>
      <ol aria-label="Audit entries" className="grid gap-2">
        {cursors.map((before, i) => (
          <AuditPageOf
            key={before ?? 'first'}
            filter={filter}
            before={before}
            last={i === cursors.length - 1}
            onMore={(after) => setCursors((c) => [...c, after])}
          />
        ))}
      </ol>
    </DeskPage>
  )
}

const PAGE = 100

function AuditPageOf({ filter, before, last, onMore }: { filter: AuditFilter; before?: string; last: boolean; onMore: (before: string) => void }) {
  const entries = useAudit(filter, before)
  if (entries.isPending)
    return (
      <li>
        <Loading text="Loading the audit log..." />
      </li>
    )
  if (entries.isError)
    return (
      <li>
        <LoadError message={serverMessage(entries.error, 'Could not load the audit log.')} onRetry={() => void entries.refetch()} />
      </li>
    )
  if (entries.data.length === 0 && !before)
    return (
      <li>
        <EmptyState icon={ScrollText} text="No operator action yet." />
      </li>
    )
  return (
    <>
      {entries.data.map((e) => (
        <AuditRow key={e.id} entry={e} />
      ))}
      {last && entries.data.length === PAGE && (
        <li>
          <Button variant="outline" onClick={() => onMore(entries.data[entries.data.length - 1].actedAt)}>
            Load older
          </Button>
        </li>
      )}
    </>
  )
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  return (
    <li className="grid gap-0.5 rounded-md border p-3 text-sm sm:grid-cols-[10rem_1fr]">
      <span className="text-muted-foreground">
        <When iso={entry.actedAt} />
      </span>
      <span className="min-w-0">
        <span className="font-medium">{entry.operatorName ?? entry.operatorEmail ?? entry.operatorId}</span>
        {entry.operatorName && entry.operatorEmail && <span className="text-muted-foreground"> ({entry.operatorEmail})</span>} · <code className="text-xs">{entry.action}</code> on {entry.objectType}{' '}
        {entry.objectUser && (
          <>
            <span className="font-medium">{entry.objectUser.name}</span> <span className="text-muted-foreground">({entry.objectUser.email})</span>{' '}
          </>
        )}
        <code className="break-all text-xs">{entry.objectId}</code>
        <span className="block whitespace-pre-wrap text-muted-foreground">{entry.reason}</span>
      </span>
    </li>
  )
}
