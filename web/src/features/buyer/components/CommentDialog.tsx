import * as React from 'react'
import { FormDialog } from '@/components/form-dialog'
import { TextareaField } from '@/components/text-field'
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { toast } from 'sonner'
import { z } from '@/lib/zod'
import { serverMessage } from '@/api/errors'
import type { Bid } from '@/api/types'
import { maxNewCommentLength } from '@/lib/disclosure'
import { showServerErrors } from '@/lib/server-errors'
import { useSubmitComment } from '../api/mutations'

// spec: nothing happens on empty text, so the rule has no message to show
const commentSchema = z.object({ commentText: z.string().trim().min(1, '') })
type CommentValues = z.infer<typeof commentSchema>

/** A won bid's comment, written after the auction (POST /buyer/comment-submission). */
export function CommentDialog({ bid, onClose }: { bid: Bid | null; onClose: () => void }) {
  const form = useForm<CommentValues>({ resolver: zodResolver(commentSchema), defaultValues: { commentText: '' } })
  const text = useWatch({ control: form.control, name: 'commentText' })
  const [error, setError] = React.useState<string | null>(null)
  React.useEffect(() => {
    // a comment chosen from the brand's own (by id) is replaced by writing a new one, not by editing its words
    form.reset({ commentText: bid?.commentId ? '' : (bid?.comment ?? '') })
    setError(null)
  }, [bid, form])
  const submit = useSubmitComment({
    onSuccess: () => {
      toast.success('Comment Submitted', { description: 'The creator will pin it on the post.' })
      onClose()
    },
    onError: (err) => {
      showServerErrors(form, err)
      setError(`Failed to submit comment. ${serverMessage(err, '')}`.trim())
    },
  })
  const onSubmit = ({ commentText }: CommentValues) => bid && submit.mutate({ bidId: bid.id, commentText })

  return (
    <FormDialog
      open={bid !== null}
      form={form}
      onSubmit={form.handleSubmit(onSubmit)}
      title="Submit Your Pinned Comment"
      description={<>For {bid?.pinSlot.title}</>}
      error={error}
      pending={submit.isPending}
      onCancel={onClose}
      submitLabel="Submit Comment"
    >
      <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground">
        <li>Keep it relevant to the post.</li>
        <li>Pinbid puts the ad disclosure first, naming your brand (for example “Ad · @yourbrand: …”): no need to add #ad.</li>
        <li>Be respectful and engaging.</li>
      </ul>
      <TextareaField
        control={form.control}
        name="commentText"
        id="pinned-comment"
        label="Your comment"
        maxLength={maxNewCommentLength()}
        note={<p className="text-xs text-muted-foreground tabular-nums">{maxNewCommentLength() - text.length} characters left. The creator approves the exact text before it is posted.</p>}
      />
    </FormDialog>
  )
}
