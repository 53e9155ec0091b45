import * as React from 'react'
import type { UseQueryResult } from '@tanstack/react-query'
import { LoadError, Loading } from '@/components/common'
import { Card, CardContent } from '@/components/ui/card'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { serverMessage } from '@/api/errors'

/** One page of the operator's desk: its heading (which names the section), a line on what it shows, its content. */
export function DeskPage({ id, title, intro, children }: { id: string; title: string; intro?: React.ReactNode; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid gap-4">
      <div>
        <h1 id={id} className="text-2xl font-bold">
          {title}
        </h1>
        {intro && <p className="text-sm text-muted-foreground">{intro}</p>}
      </div>
      {children}
    </section>
  )
}

/** A desk page of one list by status (disputes, flags), a tab a status. `statuses` names each one, keyed by the
 *  contract's status type so that the compiler says when the server adds or drops one; the first opens first, and only
 *  the chosen tab's list is read. */
export function StatusDeskPage<S extends string>({
  id,
  title,
  intro,
  statuses,
  label,
  children,
}: {
  id: string
  title: string
  intro?: React.ReactNode
  statuses: Record<S, string>
  label: string
  children: (status: S) => React.ReactNode
}) {
  const values = Object.keys(statuses) as S[]
  const [status, setStatus] = React.useState<S>(values[0])
  return (
    <DeskPage id={id} title={title} intro={intro}>
      <Tabs value={status} onValueChange={(v) => setStatus(v as S)}>
        <TabsList aria-label={label}>
          {values.map((s) => (
            <TabsTrigger key={s} value={s}>
              {statuses[s]}
            </TabsTrigger>
          ))}
        </TabsList>
        {values.map((s) => (
          <TabsContent key={s} value={s} className="mt-4">
            {s === status && children(s)}
          </TabsContent>
        ))}
      </Tabs>
    </DeskPage>
  )
}

/** What a desk list shows until its data is in: the spinner, or the server's error with Try again. */
export function QueryWait({ query, loading, failed }: { query: UseQueryResult<unknown>; loading: string; failed: string }) {
  if (query.isError) return <LoadError message={serverMessage(query.error, failed)} onRetry={() => void query.refetch()} />
  return <Loading text={loading} />
}

/** A desk list's states: QueryWait until its items are in, `empty` when there are none, else the items as `children`
 *  lays them out. */
export function DeskList<T>({
  query,
  loading,
  failed,
  empty,
  children,
}: {
  query: UseQueryResult<T[]>
  loading: string
  failed: string
  empty: React.ReactNode
  children: (items: T[]) => React.ReactNode
}) {
  if (!query.isSuccess) return <QueryWait query={query} loading={loading} failed={failed} />
  if (query.data.length === 0) return empty
  return children(query.data)
}

/** A named list of desk rows, one an item. */
export function DeskRows<T extends { id: string }>({ label, items, children }: { label: string; items: T[]; children: (item: T) => React.ReactNode }) {
  return (
    <ul aria-label={label} className="grid gap-3">
      {items.map((item) => (
        <DeskRow key={item.id}>{children(item)}</DeskRow>
      ))}
    </ul>
  )
}

/** One entry of a desk list: a card with what it is on the left and its state or actions on the right. */
function DeskRow({ children }: { children: React.ReactNode }) {
  return (
    <li>
      <Card className="py-0">
        <CardContent className="grid gap-2 p-4 sm:grid-cols-[1fr_auto] sm:items-center">{children}</CardContent>
      </Card>
    </li>
  )
}
