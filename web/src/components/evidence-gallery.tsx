import { ImageOff, RefreshCw } from 'lucide-react'
import type { Evidence, EvidenceKind } from '@/api/trust'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { fmtDateTime } from '@/components/common'
import { useEvidenceImage } from '@/hooks/use-evidence-image'

const KIND_LABELS: Record<EvidenceKind, string> = {
  PIN: 'Sent with “I pinned it”',
  RECHECK: 'Fresh screenshot',
  ANSWER: 'Sent with the answer',
}

/** The creator's screenshots, newest last; each is fetched with the session's token and shown from memory. */
export function EvidenceGallery({ evidence }: { evidence: Evidence[] }) {
  if (evidence.length === 0) return <p className="text-sm text-muted-foreground">No screenshot yet.</p>
  return (
    <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2" aria-label="Screenshots">
      {evidence.map((item) => (
        <li key={item.id}>
          <EvidenceImage evidence={item} />
        </li>
      ))}
    </ul>
  )
}

function EvidenceImage({ evidence }: { evidence: Evidence }) {
  const { src, isError, retry } = useEvidenceImage(evidence.url)
  const caption = `${KIND_LABELS[evidence.kind]} · ${fmtDateTime(evidence.uploadedAt)}`
  return (
    <figure className="grid gap-1">
      {isError ? (
        <div className="flex aspect-[9/16] max-h-80 flex-col items-center justify-center gap-2 rounded-lg border bg-muted/40 p-3 text-center">
          <ImageOff className="size-6 text-muted-foreground" aria-hidden="true" />
          <p role="alert" className="text-sm text-destructive">
            The screenshot could not be loaded.
          </p>
          <Button size="sm" variant="outline" onClick={retry}>
            <RefreshCw /> Try again
          </Button>
        </div>
      ) : src ? (
        <a href={src} target="_blank" rel="noreferrer" className="block rounded-lg focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none">
          <img src={src} alt={`Screenshot: ${caption}`} className="max-h-80 w-full rounded-lg border bg-muted/40 object-contain" />
        </a>
      ) : (
        <div role="status">
          <Skeleton className="aspect-[9/16] max-h-80 w-full rounded-lg" />
          <span className="sr-only">Loading the screenshot…</span>
        </div>
      )}
      <figcaption className="text-xs text-muted-foreground">{caption}</figcaption>
    </figure>
  )
}
