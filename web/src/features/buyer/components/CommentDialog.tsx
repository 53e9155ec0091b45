import * as React from 'react'
import { FormDialogFooter } from '@/components/form-dialog-footer'
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { toast } from 'sonner'
import { z } from '@/lib/zod'
import { serverMessage } from '@/api/errors'
import type { Bid } from '@/api/types'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Textarea } from '@/components/ui/textarea'
import { useFocusReturn } from '@/hooks/use-focus-return'
import { maxNewCommentLength } from '@/lib/disclosure'
import { showServerErrors } from '@/lib/server-errors'
import { useSubmitComment } from '../api/mutations'

// spec: nothing happens on empty text, so the rule has no message to show
const commentSchema = z.object({ commentText: z.string().trim().min(1, '') })
type CommentValues = z.infer<typeof commentSchema>

/** A won bid's comment, written after the auction (POST /buyer/comment-submission). */
export function CommentDialog({ bid, onClose }: { bid: Bid | null; onClose: () => void }) {
  const focusReturn = useFocusReturn()
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
    <Dialog open={bid !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent {...focusReturn}>
        <Form {...form}>
          <form onSubmit={form.handleSubmit(onSubmit)} className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Submit Your Pinned Comment</DialogTitle>
              <DialogDescription>For {bid?.pinSlot.title}</DialogDescription>
            </DialogHeader>
            <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground">
              <li>Keep it relevant to the post.</li>
              <li>Pinbid puts the ad disclosure first, naming your brand (for example “Ad · @yourbrand: …”): no need to add #ad.</li>
              <li>Be respectful and engaging.</li>
            </ul>
            <FormField
              control={form.control}
              name="commentText"
              render={({ field }) => (
                <FormItem controlId="pinned-comment">
                  <FormLabel>Your comment</FormLabel>
                  <FormControl>
                    <Textarea {...field} maxLength={maxNewCommentLength()} />
                  </FormControl>
                  <p className="text-xs text-muted-foreground tabular-nums">{maxNewCommentLength() - text.length} characters left. The creator approves the exact text before it is posted.</p>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormDialogFooter error={error} onCancel={onClose} pending={submit.isPending}>
              Submit Comment
            </FormDialogFooter>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  )
}
