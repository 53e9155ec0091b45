import { useQuery } from '@tanstack/react-query'
import { toast } from 'sonner'
import { serverMessage } from '@/api/errors'
import { instagramConnectionQuery } from '@/api/queries'
import { Spinner } from '@/components/ui/spinner'
import { useChoosePinMethod } from '../api/settings'

const PIN_METHODS = [
  {
    value: 'SESSION',
    label: 'Pinbid pins for me',
    text: 'Log in to Instagram once (Secure Instagram Login) and Pin Comment on Approvals pins it. Your password is used once and never stored.',
  },
  {
    value: 'MANUAL',
    label: 'I pin in the Instagram app',
    text: 'No password: Pinbid posts the approved comment on your post, you pin it in the Instagram app and press “I pinned it”. Pinbid checks the comment is there, visible and unchanged; the placement then starts on your word and counts on your reliability record.',
  },
] as const

export function PinMethod() {
  const connection = useQuery(instagramConnectionQuery())
  const choose = useChoosePinMethod()
  const pick = (pinMethod: 'SESSION' | 'MANUAL') =>
    choose.mutate(pinMethod, {
      onSuccess: (out) => toast.success('Pin method saved', { description: out.pinMethod === 'MANUAL' ? 'You pin in the Instagram app.' : 'Pinbid pins with your Instagram login.' }),
      onError: (err) => toast.error('Could not save the pin method', { description: serverMessage(err, 'Please try again.') }),
    })
  if (connection.isPending) return <Spinner className="mt-4" />
  const current = choose.isPending ? choose.variables : (connection.data?.pinMethod ?? 'SESSION')
  return (
    <fieldset className="mt-4 grid gap-2" disabled={choose.isPending}>
      <legend className="mb-1 text-sm font-medium">How you pin winning comments</legend>
      {PIN_METHODS.map((m) => (
        <label key={m.value} className="flex cursor-pointer gap-3 rounded-lg border p-3 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/5">
          <input type="radio" name="pin-method" value={m.value} checked={current === m.value} onChange={() => pick(m.value)} className="mt-1 accent-[var(--primary)]" />
          <span>
            <span className="font-medium">{m.label}</span>
            <span className="block text-muted-foreground">{m.text}</span>
          </span>
        </label>
      ))}
    </fieldset>
  )
}
