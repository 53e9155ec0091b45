import * as React from 'react'
import { toast } from 'sonner'
import { Users } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from '@/lib/zod'
import { EmptyState } from '@/components/common'
import { Button } from '@/components/ui/button'
import { Card, CardContent } from '@/components/ui/card'
import { useRefundPayment, useSetSuspension, useUserPayments, useUserSearch } from './api/queries'
import { refundable, type OpsPayment, type OpsUser } from './api/types'
import { DeskList, DeskPage } from './components/DeskPage'
import { FilterField, FilterForm } from './components/FilterForm'
import { ReasonDialog } from './components/ReasonDialog'
import { Money, StatusBadge, When } from './components/status'

const ROLE = { INFLUENCER: 'Creator', BUYER: 'Brand', OPERATOR: 'Operator' } as const

const searchSchema = z.object({ q: z.string().trim().max(254) })
type SearchValues = z.infer<typeof searchSchema>

export default function UsersPage() {
  const form = useForm<SearchValues>({ resolver: zodResolver(searchSchema), defaultValues: { q: '' } })
  const [query, setQuery] = React.useState('')
  return (
    <DeskPage id="users-title" title="Users">
      <FilterForm form={form} search onFilter={({ q }) => setQuery(q)}>
        <FilterField control={form.control} name="q" id="user-search" label="Email or name" hideLabel className="min-w-0 flex-1" placeholder="Email or name" maxLength={254} autoComplete="off" />
      </FilterForm>
      <UserResults q={query} />
    </DeskPage>
  )
}

function UserResults({ q }: { q: string }) {
  const users = useUserSearch(q)
  const [acting, setActing] = React.useState<OpsUser | null>(null)
  const setSuspension = useSetSuspension()
  const suspending = acting?.status === 'ACTIVE'
  const empty = <EmptyState icon={Users} text={q ? `No user's email or name contains “${q}”.` : 'No users yet.'} />
  return (
    <DeskList query={users} loading="Searching..." failed="Could not search the users." empty={empty}>
      {(items) => (
        <>
          <ul aria-label="Users" className="grid gap-3">
            {items.map((u) => (
              <li key={u.id}>
                <UserCard user={u} onSuspension={() => setActing(u)} />
              </li>
            ))}
          </ul>
          <ReasonDialog
            subject={acting}
            onClose={() => setActing(null)}
            title={suspending ? `Suspend ${acting?.name ?? ''}?` : `Restore ${acting?.name ?? ''}?`}
            description={
              suspending
                ? 'They are signed out everywhere and cannot sign in; their open bids are withdrawn and their open slots closed. They are told your reason.'
                : 'They can sign in again. They are told your reason.'
            }
            submitLabel={suspending ? 'Suspend account' : 'Restore account'}
            onSubmit={async (user, reason) => {
              await setSuspension.mutateAsync({ userId: user.id, suspend: suspending, reason })
              toast.success(suspending ? `${user.name} is suspended` : `${user.name} is active again`)
            }}
          />
        </>
      )}
    </DeskList>
  )
}

function UserCard({ user, onSuspension }: { user: OpsUser; onSuspension: () => void }) {
  const [showPayments, setShowPayments] = React.useState(false)
  const paymentsId = `payments-${user.id}`
  return (
    <Card className="py-0">
      <CardContent className="grid gap-3 p-4">
        <div className="grid gap-2 sm:grid-cols-[1fr_auto] sm:items-center">
          <div className="min-w-0">
            <p className="font-medium">
              {user.name} <span className="text-sm font-normal text-muted-foreground">· {ROLE[user.role]}</span>
            </p>
            <p className="truncate text-sm text-muted-foreground">{user.email}</p>
            <p className="text-xs text-muted-foreground">
              Joined <When iso={user.createdAt} />
            </p>
            {user.suspendedReason && <p className="text-sm text-destructive">Suspended: {user.suspendedReason}</p>}
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <StatusBadge status={user.status} />
            {user.role !== 'OPERATOR' && (
              <>
                <Button variant="outline" size="sm" aria-expanded={showPayments} aria-controls={paymentsId} onClick={() => setShowPayments((s) => !s)}>
                  Payments
                </Button>
                <Button variant={user.status === 'ACTIVE' ? 'destructive' : 'outline'} size="sm" onClick={onSuspension}>
                  {user.status === 'ACTIVE' ? 'Suspend' : 'Restore'}
                </Button>
              </>
            )}
          </div>
        </div>
        {showPayments && (
          <div id={paymentsId}>
            <UserPayments userId={user.id} />
          </div>
        )}
      </CardContent>
    </Card>
  )
}

function UserPayments({ userId }: { userId: string }) {
  const payments = useUserPayments(userId)
  const refund = useRefundPayment()
  const [refunding, setRefunding] = React.useState<OpsPayment | null>(null)
  const empty = <p className="text-sm text-muted-foreground">No payments.</p>
  return (
    <DeskList query={payments} loading="Loading payments..." failed="Could not load the payments." empty={empty}>
      {(items) => (
        <>
          <div className="overflow-x-auto">
            <table className="w-full min-w-[32rem] text-sm">
              <caption className="sr-only">Payments</caption>
              <thead className="text-left text-muted-foreground">
                <tr>
                  <th className="py-1 pr-3 font-medium">Paid</th>
                  <th className="py-1 pr-3 font-medium">Amount</th>
                  <th className="py-1 pr-3 font-medium">Released</th>
                  <th className="py-1 pr-3 font-medium">Refunded</th>
                  <th className="py-1 pr-3 font-medium">Status</th>
                  <th className="py-1 font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((p) => (
                  <tr key={p.id} className="border-t">
                    <td className="py-1.5 pr-3">
                      <When iso={p.paidAt} />
                    </td>
                    <td className="py-1.5 pr-3">
                      <Money amount={p.amount} currency={p.currency} />
                    </td>
                    <td className="py-1.5 pr-3">
                      <Money amount={p.released} currency={p.currency} />
                    </td>
                    <td className="py-1.5 pr-3">
                      <Money amount={p.refunded} currency={p.currency} />
                    </td>
                    <td className="py-1.5 pr-3">{p.status.replace(/_/g, ' ').toLowerCase()}</td>
                    <td className="py-1.5 text-right">
                      {refundable(p) && (
                        <Button variant="outline" size="sm" onClick={() => setRefunding(p)}>
                          Refund
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ReasonDialog
            subject={refunding}
            onClose={() => setRefunding(null)}
            title="Refund this payment in full?"
            description="The brand gets the whole payment back; releases stop and what was released is recovered from the creator's next earnings. This cannot be undone."
            submitLabel="Refund in full"
            onSubmit={async (payment, reason) => {
              await refund.mutateAsync({ paymentId: payment.id, reason })
              toast.success('Payment refunded')
            }}
          />
        </>
      )}
    </DeskList>
  )
}
