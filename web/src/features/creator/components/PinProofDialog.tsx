import * as React from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { toast } from 'sonner'
import { toldByAction } from '@/lib/told'
import { z } from '@/lib/zod'
import { serverMessage } from '@/api/errors'
import { KEYS } from '@/api/keys'
import { confirmPinWithScreenshot } from '@/api/upload'
import type { Bid } from '@/api/types'
import { FormDialog } from '@/components/form-dialog'
import { ScreenshotField, UploadProgress } from '@/components/screenshot-field'
import { useOnce } from '@/hooks/use-once'
import { screenshotHint, screenshotRefusal, screenshotSchema } from '@/lib/screenshot'
import { showServerErrors } from '@/lib/server-errors'

const proofSchema = z.object({ screenshot: screenshotSchema })
type ProofValues = z.infer<typeof proofSchema>

/** "I pinned it" on the app path: the creator sends a screenshot of the pinned comment, which the brand checks. */
export function PinProofDialog({ bid, onClose }: { bid: Bid | null; onClose: () => void }) {
  const queryClient = useQueryClient()
  const once = useOnce()
  const form = useForm<ProofValues>({ resolver: zodResolver(proofSchema), defaultValues: { screenshot: null } })
  const [error, setError] = React.useState<string | null>(null)
  const [progress, setProgress] = React.useState<number | null>(null)
  const abort = React.useRef<AbortController | null>(null)
  React.useEffect(() => {
    form.reset({ screenshot: null })
    setError(null)
  }, [bid, form])
  const confirm = useMutation({
    mutationFn: ({ bidId, screenshot }: { bidId: string; screenshot: File }) => {
      abort.current = new AbortController()
      setProgress(null)
      return confirmPinWithScreenshot(bidId, screenshot, { onProgress: setProgress, signal: abort.current.signal })
    },
    onSuccess: (_, { bidId }) => {
      queryClient.setQueryData<Bid[]>(KEYS.approvals, (list) => list?.map((b) => (b.id === bidId ? { ...b, status: 'PINNED' } : b)))
      toldByAction(['comment.pinned']) // "Placement started" says the same
      toast.success('Comment Pinned', { description: 'The brand now checks your screenshot; your earnings are released once it is accepted.' })
      for (const key of [KEYS.approvals, KEYS.influencerDashboard, KEYS.earnings, KEYS.placementTrust(bidId)]) void queryClient.invalidateQueries({ queryKey: key })
      onClose()
    },
    onError: (err) => {
      if (abort.current?.signal.aborted) return
      const onField = showServerErrors(form, err)
      const refusal = screenshotRefusal(err)
      if (!onField && refusal) form.setError('screenshot', { type: 'server', message: refusal }, { shouldFocus: true })
      setError(onField || refusal ? null : serverMessage(err, 'Could not confirm the pin. Please try again.'))
    },
  })
  const cancel = () => {
    abort.current?.abort()
    onClose()
  }
  const onSubmit = ({ screenshot }: ProofValues) => {
    if (!bid || !screenshot) return
    once((done) => confirm.mutate({ bidId: bid.id, screenshot }, { onSettled: done }))
  }

  return (
    <FormDialog
      open={bid !== null}
      form={form}
      onSubmit={form.handleSubmit(onSubmit)}
      title="Show the pinned comment"
      description="Take a screenshot of your post in the Instagram app with the comment pinned at the top, then send it here. The brand checks it; your earnings are released once it is accepted."
      error={error}
      pending={confirm.isPending}
      onCancel={cancel}
      submitLabel="Send and confirm"
    >
      <ScreenshotField control={form.control} name="screenshot" id="pin-screenshot" label="Screenshot" hint={screenshotHint()} disabled={confirm.isPending} />
      {confirm.isPending && <UploadProgress share={progress} />}
    </FormDialog>
  )
}
