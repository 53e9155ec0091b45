import * as React from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { CheckCircle2, ExternalLink, Flag, ShieldCheck, ThumbsUp } from 'lucide-react'
import { ApiError, isNotFound, serverMessage } from '@/api/errors'
import { KEYS } from '@/api/keys'
import { acceptPlacement, trustQuery, type PlacementTrust } from '@/api/trust'
import { fmtDateTime, LoadError } from '@/components/common'
import { DisputeSummary } from '@/components/dispute-summary'
import { EvidenceGallery } from '@/components/evidence-gallery'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { useOnce } from '@/hooks/use-once'
import { ReportDialog, type ReportKind } from './ReportDialog'

export const TRUST_LOAD_ERROR = 'Failed to load the proof of the pin. Please try again later.'

function describe(trust: PlacementTrust): string {
  if (trust.acceptance.status === 'AWAITING') return 'The creator pinned your comment in the Instagram app and sent this screenshot. Check the post, then tell us.'
  if (trust.method === 'MANUAL') return 'The creator pins in the Instagram app: these screenshots are the proof.'
  return 'Pinbid checks this pin itself, through the creator’s Instagram login.'
}

function acceptedLine(trust: PlacementTrust): string | null {
  const { acceptance } = trust
  if (acceptance.status !== 'ACCEPTED') return null
  const when = fmtDateTime(acceptance.acceptedAt)
  return acceptance.acceptedBy === 'SILENCE' ? `Accepted automatically when the window closed, ${when}.` : `You accepted it on ${when}.`
}

/** The brand's side of issue 22 on its placement page: the proof, "Looks right" / "Report a problem", reports
 *  while it runs, and the dispute's state. */
export function PlacementTrustCard({ bidId, postUrl }: { bidId: string; postUrl?: string | null }) {
  const queryClient = useQueryClient()
  const trust = useQuery(trustQuery(bidId))
  const [reporting, setReporting] = React.useState<ReportKind | null>(null)
  const once = useOnce()
  const accept = useMutation({
    mutationFn: () => acceptPlacement(bidId),
    onSuccess: (answer) => {
      queryClient.setQueryData(KEYS.placementTrust(bidId), answer)
      toast.success('Placement accepted', { description: 'The creator’s earnings are now released as the comment stays pinned.' })
      void queryClient.invalidateQueries({ queryKey: KEYS.buyerBids })
    },
    onError: (err) => {
      toast.error('Could not accept the placement', { description: serverMessage(err, 'Please try again.') })
      if (err instanceof ApiError && err.status === 409) void queryClient.invalidateQueries({ queryKey: KEYS.placementTrust(bidId) })
    },
  })

  if (trust.isPending) {
    return (
      <Card>
        <CardContent role="status" className="flex items-center gap-2 py-6 text-muted-foreground">
          <Spinner className="text-primary" /> Loading the proof of the pin...
        </CardContent>
      </Card>
    )
  }
  // not started yet (or not this brand's): the results above say where it stands
  if (trust.isError && isNotFound(trust.error)) return null
  if (trust.isError) return <LoadError message={TRUST_LOAD_ERROR} onRetry={() => void trust.refetch()} />
  const t = trust.data
  const { accept: acceptable, report: reportable } = t.actions
  const awaiting = acceptable.open
  const accepted = acceptedLine(t)

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck className="size-5 text-primary" aria-hidden="true" /> Proof of the pin
        </CardTitle>
        <CardDescription>{describe(t)}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {awaiting && (
          <div role="status" className="grid gap-1 rounded-lg border border-primary/30 bg-primary/5 p-3 text-sm">
            <p className="font-medium">Check that your comment is pinned at the top of the post.</p>
            {acceptable.until && <p>Counts as accepted on {fmtDateTime(acceptable.until)} if you do nothing.</p>}
          </div>
        )}
        {postUrl && (
          <a href={postUrl} target="_blank" rel="noreferrer" className="inline-flex w-fit items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline">
            Open the post on Instagram <ExternalLink className="size-3.5" aria-hidden="true" />
          </a>
        )}
        {(t.method === 'MANUAL' || t.evidence.length > 0) && <EvidenceGallery evidence={t.evidence} />}
        {accepted && (
          <p className="flex items-center gap-2 text-sm text-success">
            <CheckCircle2 className="size-4" aria-hidden="true" /> {accepted}
          </p>
        )}
        {t.dispute && <DisputeSummary dispute={t.dispute} viewer="BRAND" />}
        {t.ended && (
          <p className="rounded-lg bg-muted/60 p-3 text-sm">
            This placement has ended{t.endReason ? `: ${t.endReason}` : '.'}
          </p>
        )}
        {(awaiting || reportable.open) && (
          <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
            {awaiting && (
              <Button disabled={accept.isPending} onClick={() => once((done) => accept.mutate(undefined, { onSettled: done }))}>
                {accept.isPending ? <Spinner /> : <ThumbsUp />} Looks right
              </Button>
            )}
            {reportable.open &&
              (awaiting ? (
                <Button variant="outline" disabled={accept.isPending} onClick={() => setReporting('problem')}>
                  <Flag /> Report a problem
                </Button>
              ) : (
                <Button variant="outline" onClick={() => setReporting('unpinned')}>
                  <Flag /> Report: no longer pinned
                </Button>
              ))}
          </div>
        )}
      </CardContent>
      <ReportDialog bidId={bidId} kind={reporting} onClose={() => setReporting(null)} />
    </Card>
  )
}
