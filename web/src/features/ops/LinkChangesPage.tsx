import * as React from 'react'
import { Link2 } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from '@/lib/zod'
import { EmptyState } from '@/components/common'
import { useLinkChanges } from './api/queries'
import type { LinkChange } from './api/types'
import { DeskList, DeskPage } from './components/DeskPage'
import { FilterField, FilterForm } from './components/FilterForm'
import { When } from './components/status'
import { brandName, creatorName } from './names'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const filterSchema = z.object({
  bidId: z
    .string()
    .trim()
    .refine((id) => !id || UUID.test(id), 'A bid id looks like 3f1c2b8e-0000-4000-8000-000000000001.'),
})
type FilterValues = z.infer<typeof filterSchema>

/** Short links whose target the brand changed after the creator pinned the comment: what people now reach is not
 *  what the creator agreed to show. Newest first; one bid's changes with the filter. */
export default function LinkChangesPage() {
  const form = useForm<FilterValues>({ resolver: zodResolver(filterSchema), defaultValues: { bidId: '' } })
  const [bidId, setBidId] = React.useState('')
  return (
    <DeskPage id="links-title" title="Link changes" intro="Short links whose target changed after their comment was pinned. The targets are shown as text: open one only if you mean to.">
      <FilterForm form={form} label="Filter the link changes" onFilter={(values) => setBidId(values.bidId)}>
        <FilterField control={form.control} name="bidId" id="links-bid" label="Bid id" className="min-w-0 flex-1" maxLength={64} placeholder="any" autoComplete="off" />
      </FilterForm>
      <LinkChangeTable bidId={bidId} />
    </DeskPage>
  )
}

function LinkChangeTable({ bidId }: { bidId: string }) {
  const changes = useLinkChanges(bidId)
  const empty = <EmptyState icon={Link2} text={bidId ? 'No target change on this bid’s link.' : 'No link target changed after a pin.'} />
  return (
    <DeskList query={changes} loading="Loading link changes..." failed="Could not load the link changes." empty={empty}>
      {(items) => (
        <div className="overflow-x-auto rounded-lg border">
          <table className="w-full min-w-[44rem] text-sm">
            <caption className="sr-only">Link changes</caption>
            <thead className="bg-muted/40 text-left text-muted-foreground">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">Bid</th>
                <th scope="col" className="px-3 py-2 font-medium">Old target</th>
                <th scope="col" className="px-3 py-2 font-medium">New target</th>
                <th scope="col" className="px-3 py-2 font-medium">Changed at</th>
                <th scope="col" className="px-3 py-2 font-medium">By</th>
              </tr>
            </thead>
            <tbody>
              {items.map((c) => (
                <LinkChangeRow key={c.id} change={c} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </DeskList>
  )
}

function LinkChangeRow({ change: c }: { change: LinkChange }) {
  return (
    <tr className="border-t align-top">
      <td className="px-3 py-2">
        <span className="font-mono text-xs" title={c.bidId}>
          {c.bidId.slice(0, 8)}
        </span>
        <span className="block text-xs text-muted-foreground">
          /go/{c.code} · {creatorName(c.creatorName)}, pinned <When iso={c.pinnedAt} />
        </span>
      </td>
      <td className="max-w-64 break-all px-3 py-2 font-mono text-xs text-muted-foreground">{c.fromUrl}</td>
      <td className="max-w-64 break-all px-3 py-2 font-mono text-xs">{c.toUrl}</td>
      <td className="whitespace-nowrap px-3 py-2">
        <When iso={c.changedAt} />
      </td>
      {/* only the brand that won the bid can set its link's target */}
      <td className="px-3 py-2">{brandName(c.buyerName)}</td>
    </tr>
  )
}
