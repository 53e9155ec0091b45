/* A brand's placement: the short link and promo code to put in the comment (links in Instagram comments are not
   clickable, so people type the short one), and the results: likes, replies and counted clicks over time. */
import * as React from 'react'
import { useParams } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { toast } from 'sonner'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from '@/lib/zod'
import { Copy, Heart, Link2, MessageCircle, MousePointerClick } from 'lucide-react'
import { serverMessage } from '@/api/errors'
import { Button } from '@/components/ui/button'
import { Card, CardContent } from '@/components/ui/card'
import { TitledCard } from '@/components/titled-card'
import { Form } from '@/components/ui/form'
import { TextField } from '@/components/text-field'
import { showServerErrors } from '@/lib/server-errors'
import { SubmitButton } from '@/components/submit-button'
import { placementSeries } from '@/lib/charts'
import { placementEnd } from '@/lib/bids'
import type { Bid } from '@/api/types'
import { PlacementChart } from '@/components/charts'
import { BackLink, DetailWait, EmptyState, StatCard } from '@/components/common'
import { placementResultsQuery, useBuyerBids } from './api/queries'
import { useSaveShortLink } from './api/mutations'
import { PlacementTrustCard } from './components/PlacementTrustCard'

export default function PlacementPage() {
  const { bidId = '' } = useParams()
  const results = useQuery(placementResultsQuery(bidId))
  const bid = useBuyerBids().data?.find((b) => b.id === bidId)
  const postUrl = bid?.pinSlot.post.permalink ?? bid?.pinSlot.instagramPost?.permalink
  const back = <BackLink to="/my-bids">My Bids</BackLink>
  if (!results.isSuccess) {
    return <DetailWait query={results} back={back} loading="Loading the placement..." missingIcon={Link2} missingText="This placement does not exist, or it is not yours." failedText="Failed to load the placement. Please try again later." />
  }
  const r = results.data
  const ended = bid ? placementEnd(bid) : null
  const points = placementSeries(r.figures, r.clicksByHour)
  return (
    <div className="mx-auto w-full max-w-3xl space-y-6">
      {back}
      <div>
        <h2 className="text-2xl font-bold">Placement results</h2>
        <p className="text-muted-foreground">Your pinned comment's likes and replies, and the people who followed your short link.</p>
      </div>
      <PlacementTrustCard bidId={bidId} postUrl={postUrl} />
      <div className="grid grid-cols-3 gap-3">
        <StatCard icon={Heart} label="Likes" value={r.likes} />
        <StatCard icon={MessageCircle} label="Replies" value={r.replies} />
        <StatCard icon={MousePointerClick} label="Clicks" value={r.clicks} hint="People, not bots or repeats" />
      </div>
      <Card>
        <CardContent className="pt-6">
          {points.length > 1 ? (
            <PlacementChart points={points} title="this placement" />
          ) : (
            <EmptyState icon={MousePointerClick} text={figuresText(points.length, bid)} />
          )}
        </CardContent>
      </Card>
      {ended ? (
        <p className="text-sm text-muted-foreground">
          {ended}: the short link and promo code can no longer change{r.link ? ` (${r.link.shortUrl} still counts the people who follow it)` : ''}.
        </p>
      ) : (
        <LinkForm bidId={bidId} link={r.link} />
      )}
    </div>
  )
}

/** What the empty chart says: the figures come from readings of the pinned comment. */
function figuresText(readings: number, bid: Bid | undefined): string {
  if (readings === 1) return 'One reading so far: the chart fills in as the figures change.'
  if (bid && placementEnd(bid)) return 'No figures were read before the placement ended.'
  if (bid?.pinnedComment) return 'No figures yet: the first reading of the pinned comment comes within the hour.'
  return 'No figures yet: they appear once the comment is pinned and people see it.'
}

// the browser's own check (required, type url) runs first, as before; the server says what else is wrong
const linkSchema = z.object({ url: z.string().trim(), promoCode: z.string().trim() })
type LinkValues = z.infer<typeof linkSchema>

type LinkOut = { code: string; shortUrl: string; destination: string; promoCode?: string | null }

function LinkForm({ bidId, link }: { bidId: string; link: LinkOut | null | undefined }) {
  const form = useForm<LinkValues>({ resolver: zodResolver(linkSchema), defaultValues: { url: link?.destination ?? 'https://', promoCode: link?.promoCode ?? '' } })
  const [error, setError] = React.useState<string | null>(null)
  const save = useSaveShortLink(bidId, {
    onSuccess: () => {
      setError(null)
      toast.success('Short link saved', { description: 'Put it in your comment: people can type it.' })
    },
    onError: (err) => {
      showServerErrors(form, err)
      setError(serverMessage(err, 'Could not save the link. Please try again.'))
    },
  })
  const copy = async () => {
    if (!link) return
    await navigator.clipboard?.writeText(link.shortUrl)
    toast.success('Copied', { description: link.shortUrl })
  }
  return (
    <TitledCard title="Short link and promo code" description="Links in Instagram comments are not clickable: Pinbid gives you a short one people can type, sends them to your page with UTM parameters, and counts them." contentClassName="space-y-4">
      {link && (
        <div className="flex flex-wrap items-center gap-2 rounded-lg border bg-muted/40 p-3">
          <code className="break-all text-sm font-medium">{link.shortUrl}</code>
          <Button size="sm" variant="outline" onClick={() => void copy()} aria-label="Copy the short link">
            <Copy /> Copy
          </Button>
          {link.promoCode && <span className="text-sm text-muted-foreground">Promo code: <b className="text-foreground">{link.promoCode}</b></span>}
        </div>
      )}
      <Form {...form}>
      <form className="grid gap-3" aria-label="Short link" onSubmit={form.handleSubmit((values) => save.mutate(values))}>
        <TextField control={form.control} name="url" id="link-url" label="Your page" className="gap-1" type="url" inputMode="url" maxLength={2000} required aria-invalid={error || form.formState.errors.url ? true : undefined} />
        <TextField control={form.control} name="promoCode" id="link-promo" label="Promo code (optional)" className="gap-1" maxLength={32} placeholder="SUMMER-25" />
        {error && (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
        <div>
          <SubmitButton pending={save.isPending}>{link ? 'Update link' : 'Make my short link'}</SubmitButton>
        </div>
      </form>
      </Form>
    </TitledCard>
  )
}
