import * as React from 'react'
import { toast } from 'sonner'
import { Check, Copy, Download } from 'lucide-react'
import { Button } from '@/components/ui/button'

export const RECOVERY_FILE = 'pinbid-recovery-codes.txt'

/** The text of the downloaded file: what the codes are for, then one code a line. */
export function recoveryCodesText(codes: string[], account: string): string {
  return [
    `Pinbid recovery codes for ${account}`,
    'Each code signs you in once when your authenticator app is not at hand. Keep them somewhere safe.',
    '',
    ...codes,
    '',
  ].join('\n')
}

function download(text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }))
  const a = document.createElement('a')
  a.href = url
  a.download = RECOVERY_FILE
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

/** The ten recovery codes, shown once (the server keeps only their hashes), with copy and download. */
export function RecoveryCodes({ codes, account, onDone }: { codes: string[]; account: string; onDone: () => void }) {
  const [copied, setCopied] = React.useState(false)
  const heading = React.useRef<HTMLHeadingElement>(null)
  React.useEffect(() => heading.current?.focus(), [])

  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join('\n'))
      setCopied(true)
      toast.success('Recovery codes copied')
    } catch {
      toast.error('Could not copy', { description: 'Select the codes and copy them, or download them.' })
    }
  }

  return (
    <section aria-labelledby="recovery-codes-title" className="grid gap-3 rounded-xl border border-amber-500/40 bg-amber-500/5 p-4">
      <h4 id="recovery-codes-title" ref={heading} tabIndex={-1} className="text-sm font-semibold outline-none">
        Save your recovery codes
      </h4>
      <p className="text-sm text-muted-foreground">
        Each code signs you in once if you lose your phone. They are shown only now: copy or download them and keep them somewhere safe.
      </p>
      <ol aria-label="Recovery codes" className="grid grid-cols-2 gap-x-4 gap-y-1 rounded-lg bg-background p-3 font-mono text-sm sm:grid-cols-2">
        {codes.map((code) => (
          <li key={code} className="tabular-nums">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" size="sm" onClick={copy}>
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />} {copied ? 'Copied' : 'Copy codes'}
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={() => download(recoveryCodesText(codes, account))}>
          <Download aria-hidden="true" /> Download .txt
        </Button>
        <Button type="button" size="sm" className="sm:ml-auto" onClick={onDone}>
          I have saved them
        </Button>
      </div>
    </section>
  )
}
