import * as React from 'react'
import { Link } from 'react-router'
import { ArrowLeft, RefreshCw, type LucideIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { cn } from '@/lib/utils'
import { isNotFound, isRefused, serverMessage } from '@/api/errors'

/**
 * How long the result of a step that cannot be undone (End Auction, Approve, Reject) stays on screen. Sonner's
 * default of 4 s was too short: a person (or a walk that looks a few seconds after the click) found no toast.
 */
export const OUTCOME_TOAST_MS = 10_000

export function fmtDateTime(iso: string | null | undefined) {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  return d.toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' })
}

export function fmtShortDateTime(iso: string | null | undefined) {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  return d.toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' })
}

/** A spinner with what it waits for; `page` when it stands for a whole page (more room above and below). */
export function Loading({ text, page = false }: { text: string; page?: boolean }) {
  return (
    <div role="status" className={cn('flex flex-1 items-center justify-center gap-2 text-muted-foreground', page ? 'py-24' : 'py-16')}>
      <Spinner className="size-5 text-primary" /> {text}
    </div>
  )
}

/** A read that failed: `message` and Try again; when the server refused what was asked (`error` a 422), its own
 *  message instead, and no Try again, which would ask the same. */
export function LoadError({ message, onRetry, error }: { message: string; onRetry?: () => void; error?: unknown }) {
  const refused = isRefused(error)
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 py-6 text-center">
        <p role="alert" className="font-medium text-destructive">
          {refused ? serverMessage(error, message) : message}
        </p>
        {onRetry && !refused && (
          <Button variant="outline" size="sm" onClick={onRetry}>
            <RefreshCw /> Try again
          </Button>
        )}
      </CardContent>
    </Card>
  )
}

export function StatCard({ icon: Icon, label, value, hint, className }: { icon: LucideIcon; label: string; value: React.ReactNode; hint?: string; className?: string }) {
  return (
    <Card className={cn('gap-0 py-0', className)}>
      <CardContent className="flex items-start justify-between gap-2 p-3 sm:p-5">
        <div className="min-w-0">
          <p className="text-sm text-muted-foreground">{label}</p>
          <p className="mt-1 text-xl font-bold break-words tabular-nums sm:text-2xl">{value}</p>
          {hint && <p className="mt-0.5 text-xs text-muted-foreground">{hint}</p>}
        </div>
        <div aria-hidden="true" className="hidden size-9 shrink-0 min-[420px]:flex items-center justify-center rounded-lg bg-primary/10 text-primary">
          <Icon className="size-4" />
        </div>
      </CardContent>
    </Card>
  )
}

export function EmptyState({ icon: Icon, text, children }: { icon?: LucideIcon; text: string; children?: React.ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed px-4 py-10 text-center text-muted-foreground">
      {Icon && <Icon aria-hidden="true" className="size-8 text-muted-foreground/60" />}
      <p>{text}</p>
      {children}
    </div>
  )
}

/** The way back from a detail page to its list. */
export function BackLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Link to={to} className="inline-flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
      <ArrowLeft className="size-4" aria-hidden="true" /> {children}
    </Link>
  )
}

/** A detail page until its object is in: the page's spinner, then, if it could not be read, the way back and
 *  "not there" for a 404 (or another's object) or the error with Try again. */
export function DetailWait({
  query,
  back,
  loading,
  missingIcon,
  missingText,
  failedText,
}: {
  query: { isError: boolean; error: unknown; refetch: () => unknown }
  back: React.ReactNode
  loading: string
  missingIcon: LucideIcon
  missingText: string
  failedText: string
}) {
  if (!query.isError) return <Loading page text={loading} />
  return (
    <div className="mx-auto w-full max-w-3xl space-y-4">
      {back}
      {isNotFound(query.error) ? <EmptyState icon={missingIcon} text={missingText} /> : <LoadError message={failedText} onRetry={() => void query.refetch()} />}
    </div>
  )
}
