import { useQuery } from '@tanstack/react-query'
import { RefreshCw } from 'lucide-react'
import { secondFactorQuery } from '@/api/queries'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { PasskeysSection } from './components/PasskeysSection'

/** An operator's passkeys, on the operator desk: a passkey answers their sign-in's second-factor question too
 *  (their authenticator app is made by the operator command, so the desk shows passkeys only). */
export default function OperatorPasskeysPage() {
  const factors = useQuery(secondFactorQuery())
  return (
    <section aria-labelledby="passkeys-page-title" className="grid max-w-2xl gap-4">
      <div>
        <h1 id="passkeys-page-title" className="text-2xl font-bold">
          Passkeys
        </h1>
        <p className="text-sm text-muted-foreground">Sign in to the desk with a passkey instead of your password and code.</p>
      </div>
      {factors.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner /> Loading your passkeys...
        </p>
      ) : factors.isError ? (
        <div className="flex flex-wrap items-center gap-3">
          <p role="alert" className="text-sm text-destructive">
            Could not load your passkeys.
          </p>
          <Button variant="outline" size="sm" onClick={() => factors.refetch()}>
            <RefreshCw aria-hidden="true" /> Try again
          </Button>
        </div>
      ) : (
        <PasskeysSection passkeys={factors.data.passkeys} totpEnabled={factors.data.totpEnabled} />
      )}
    </section>
  )
}
