import { ExternalLink } from 'lucide-react'
import { cn } from '@/lib/utils'

export const OPEN_POST = 'Open the post on Instagram'

/** The post's own address when it is a web address (http or https), else null: nothing else is linked to. */
export function postHref(permalink: string | null | undefined): string | null {
  if (!permalink) return null
  try {
    const url = new URL(permalink)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null
  } catch {
    return null
  }
}

/** "Open the post on Instagram", in a new tab; nothing when the post has no web address. */
export function PostLink({ permalink, className }: { permalink: string | null | undefined; className?: string }) {
  const href = postHref(permalink)
  if (!href) return null
  return (
    <a href={href} target="_blank" rel="noreferrer" className={cn('inline-flex w-fit items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline', className)}>
      {OPEN_POST} <ExternalLink className="size-3.5" aria-hidden="true" />
    </a>
  )
}
