import { useParams } from 'react-router'
import { ExternalLink, ImageOff, RefreshCw } from 'lucide-react'
import { BackLink, LoadError, Loading } from '@/components/common'
import { Button } from '@/components/ui/button'
import { TitledCard } from '@/components/titled-card'
import { Skeleton } from '@/components/ui/skeleton'
import { serverMessage } from '@/api/errors'
import { useEvidenceImage } from '@/hooks/use-evidence-image'
import { useDispute } from './api/queries'
import type { Evidence } from '@/api/trust'
import { OUTCOMES, type DisputeDetail } from './api/types'
import { DecideForm } from './components/DecideForm'
import { Money, StatusBadge, When } from './components/status'
import { disputeTitle, stepAuthor, stepText } from './names'

const EVIDENCE_KIND = { PIN: 'At the pin', RECHECK: 'Fresh screenshot', ANSWER: "Creator's answer" } as const

export default function DisputeDetailPage() {
  const { disputeId = '' } = useParams()
  const dispute = useDispute(disputeId)
  return (
    <section aria-labelledby="dispute-title" className="grid gap-4">
      <BackLink to="/ops">All disputes</BackLink>
      {dispute.isPending ? (
        <Loading text="Loading the dispute..." />
      ) : dispute.isError ? (
        <LoadError message={serverMessage(dispute.error, 'Could not load this dispute.')} onRetry={() => void dispute.refetch()} />
      ) : (
        <DisputeView dispute={dispute.data} />
      )}
    </section>
  )
}

function DisputeView({ dispute }: { dispute: DisputeDetail }) {
  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <h1 id="dispute-title" className="text-2xl font-bold">
          {disputeTitle(dispute)}
        </h1>
        <StatusBadge status={dispute.status} />
      </div>
      <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
        <div className="grid content-start gap-4">
          <TitledCard title="The report" contentClassName="grid gap-2 text-sm">
            <p className="whitespace-pre-wrap">{dispute.reason}</p>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-muted-foreground">
              <dt>Reported</dt>
              <dd>
                <When iso={dispute.reportedAt} /> by {dispute.reporter === 'BRAND' ? 'the brand' : 'Pinbid'}
              </dd>
              <dt>Amount</dt>
              <dd>
                <Money amount={dispute.amount} />
              </dd>
              <dt>Creator answers by</dt>
              <dd>
                <When iso={dispute.answerBy} />
              </dd>
            </dl>
            {dispute.postUrl && (
              <a href={dispute.postUrl} target="_blank" rel="noreferrer noopener" className="flex w-fit items-center gap-1 text-primary hover:underline">
                The post on Instagram <ExternalLink className="size-3.5" aria-hidden="true" />
              </a>
            )}
          </TitledCard>
          <TitledCard title="The creator&apos;s note" contentClassName="text-sm">
            {dispute.creatorNote ? <p className="whitespace-pre-wrap">{dispute.creatorNote}</p> : <p className="text-muted-foreground">The creator has not answered.</p>}
          </TitledCard>
          <TitledCard title="Evidence">
            {dispute.evidence.length === 0 ? (
              <p className="text-sm text-muted-foreground">No screenshots.</p>
            ) : (
              <ul aria-label="Evidence" className="grid gap-3 sm:grid-cols-2">
                {dispute.evidence.map((e) => (
                  <li key={e.id}>
                    <EvidenceImage evidence={e} />
                  </li>
                ))}
              </ul>
            )}
          </TitledCard>
        </div>
        <div className="grid content-start gap-4">
          {dispute.status === 'OPEN' ? (
            <DecideForm dispute={dispute} />
          ) : (
            <TitledCard title="Decision" contentClassName="grid gap-1 text-sm">
              <p className="font-medium">{OUTCOMES.find((o) => o.value === dispute.outcome)?.label ?? dispute.outcome}</p>
              {dispute.decisionReason && <p className="whitespace-pre-wrap">{dispute.decisionReason}</p>}
              <p className="text-muted-foreground">
                <When iso={dispute.decidedAt} />
              </p>
            </TitledCard>
          )}
          <TitledCard title="History">
            <ol aria-label="History" className="grid gap-2 text-sm">
              {dispute.history.map((h, i) => (
                <li key={`${h.at}-${i}`} className="border-l-2 pl-3">
                  <p>{stepText(h.what)}</p>
                  <p className="text-xs text-muted-foreground">
                    <When iso={h.at} /> · {stepAuthor(h.by)}
                  </p>
                </li>
              ))}
            </ol>
          </TitledCard>
        </div>
      </div>
    </>
  )
}

function EvidenceImage({ evidence }: { evidence: Evidence }) {
  const { src, isError, retry } = useEvidenceImage(evidence.url)
  const label = `${EVIDENCE_KIND[evidence.kind]}, uploaded`
  return (
    <figure className="grid gap-1">
      {isError ? (
        <div role="alert" className="flex aspect-[9/16] flex-col items-center justify-center gap-2 rounded-md border text-sm text-muted-foreground">
          <span className="flex items-center gap-2">
            <ImageOff className="size-4" aria-hidden="true" /> Could not load the screenshot
          </span>
          <Button size="sm" variant="outline" onClick={retry}>
            <RefreshCw /> Try again
          </Button>
        </div>
      ) : src ? (
        <a href={src} target="_blank" rel="noreferrer noopener">
          <img src={src} alt={`${EVIDENCE_KIND[evidence.kind]} screenshot`} className="w-full rounded-md border object-contain" />
        </a>
      ) : (
        <Skeleton className="aspect-[9/16] w-full" aria-label="Loading the screenshot" />
      )}
      <figcaption className="text-xs text-muted-foreground">
        {label} <When iso={evidence.uploadedAt} />
      </figcaption>
    </figure>
  )
}
