import * as React from 'react'
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query'
import { Camera } from 'lucide-react'
import type { Bid } from '@/api/types'
import { Button } from '@/components/ui/button'
import { Label } from '@/components/ui/label'
import { Spinner } from '@/components/ui/spinner'
import { Textarea } from '@/components/ui/textarea'
import { CommentPreview } from '@/components/comment-preview'
import type { CommentMode } from '@/lib/bids'
import { maxNewCommentLength, startsWithDisclosure } from '@/lib/disclosure'
import { cn } from '@/lib/utils'

interface CommentChooserProps {
  comments: UseQueryResult<{ id: string; username: string; comment?: string | null }[]>
  /** the connection, then (when connected) the comments, are still being read */
  loading: boolean
  notConnected: boolean
  keepable: boolean
  mine: Bid | undefined | null
  mode: CommentMode
  onMode: (mode: CommentMode) => void
  selected: string | null
  onSelect: (id: string) => void
  text: string
  onText: (text: string) => void
  brand: string
  connect: UseMutationResult<unknown, Error, void>
}

/** Step 2 of the bid panel: keep the comment, pick one of the brand's own (disclosed at its start), write one, or later. */
export function CommentChooser({ comments, loading, notConnected, keepable, mine, mode: mode2, onMode: setMode, selected, onSelect: setSelected, text, onText: setText, brand, connect }: CommentChooserProps) {
  const hasComments = (comments.data?.length ?? 0) > 0
  return (
  <section className="grid gap-3" aria-labelledby="bid-step-2">
    <h3 id="bid-step-2" className="text-sm font-semibold">
      Step 2: Your comment
    </h3>
    {loading ? (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner /> Loading your comments...
      </p>
    ) : notConnected ? (
      <div className="rounded-lg border border-amber-300/60 bg-amber-50 p-3 text-sm">
        <p className="flex items-center gap-2 font-medium">
          <Camera className="size-4" aria-hidden="true" /> Connect Instagram to use one of your comments
        </p>
        <p className="mt-1 text-muted-foreground">You can still bid now: write a new comment below, or add it later from My Bids.</p>
        <Button type="button" variant="outline" size="sm" className="mt-2 bg-background" onClick={() => connect.mutate()} disabled={connect.isPending}>
          {connect.isPending && <Spinner />} Connect Instagram
        </Button>
      </div>
    ) : null}
    {!loading && (
      <fieldset className="grid gap-2">
        <legend className="sr-only">Comment choice</legend>
        {keepable && mine && (
          <ModeOption
            name="comment-mode"
            value="keep"
            checked={mode2 === 'keep'}
            onChange={setMode}
            label={
              <>
                Keep my comment: <span className="text-muted-foreground">{mine.comment ? `“${mine.comment}”` : 'the one I chose'}</span>
              </>
            }
          />
        )}
        {!notConnected && (
          <ModeOption name="comment-mode" value="existing" checked={mode2 === 'existing'} onChange={setMode} label="Use a previous comment" />
        )}
        {mode2 === 'existing' && !notConnected && (
          <div className="ml-6 grid gap-2">
            {hasComments ? (
              comments.data?.map((c) => {
                const disclosedAtStart = startsWithDisclosure(c.comment ?? '')
                return (
                  <label key={c.id} className={cn('flex gap-2 rounded-md border p-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/5', disclosedAtStart ? 'cursor-pointer' : 'cursor-not-allowed opacity-70')}>
                    <input type="radio" name="comment-id" value={c.id} checked={selected === c.id} disabled={!disclosedAtStart} onChange={() => setSelected(c.id)} className="mt-1 accent-[var(--primary)]" />
                    <span>
                      <span className="font-medium">@{c.username}</span> {c.comment}
                      {!disclosedAtStart && (
                        <span className="mt-1 block text-xs text-muted-foreground">Needs an ad disclosure at its start (for example “#ad …”) before it can be pinned: edit it on Instagram, or write a new comment.</span>
                      )}
                    </span>
                  </label>
                )
              })
            ) : (
              <p className="text-sm text-muted-foreground">You have no comments on this post yet.</p>
            )}
          </div>
        )}
        <ModeOption name="comment-mode" value="new" checked={mode2 === 'new'} onChange={setMode} label="Write a new comment" />
        {mode2 === 'new' && (
          <div className="ml-6 grid gap-1">
            <Label htmlFor="new-comment" className="sr-only">
              New comment
            </Label>
            <Textarea id="new-comment" value={text} onChange={(e) => setText(e.target.value)} maxLength={maxNewCommentLength()} placeholder="What should the pinned comment say?" aria-describedby="new-comment-preview" />
            <CommentPreview id="new-comment-preview" text={text} brand={brand} />
          </div>
        )}
        <ModeOption name="comment-mode" value="later" checked={mode2 === 'later'} onChange={setMode} label="Add my comment later" />
      </fieldset>
    )}
  </section>
  )
}

function ModeOption({ name, value, checked, onChange, label }: { name: string; value: CommentMode; checked: boolean; onChange: (m: CommentMode) => void; label: React.ReactNode }) {
  return (
    <label className="flex cursor-pointer items-start gap-2 text-sm">
      <input type="radio" name={name} value={value} checked={checked} onChange={() => onChange(value)} className="mt-0.5 accent-[var(--primary)]" />
      <span>{label}</span>
    </label>
  )
}
