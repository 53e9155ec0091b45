import { cn } from '@/lib/utils'

/** Post media: an image, or a video when the media type is VIDEO (the image doubles as its poster). */
export function SlotMedia({ url, mediaType, alt, className }: { url: string; mediaType: string; alt: string; className?: string }) {
  if (!url) return <div aria-hidden="true" className={cn('bg-muted', className)} />
  if (mediaType === 'VIDEO') {
    return <video src={url} poster={url} muted playsInline preload="none" aria-label={alt} className={cn('bg-muted object-cover', className)} />
  }
  return <img src={url} alt={alt} loading="lazy" className={cn('bg-muted object-cover', className)} />
}
