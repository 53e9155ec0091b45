import { cn } from '@/lib/utils'

export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn('size-8 shrink-0', className)}>
      <defs>
        <linearGradient id="pinbid-g" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="oklch(0.56 0.24 282)" />
          <stop offset="1" stopColor="oklch(0.62 0.22 330)" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill="url(#pinbid-g)" />
      <path d="M11 8h7a6 6 0 0 1 0 12h-3v5h-4z" fill="#fff" />
      <circle cx="17.5" cy="14" r="2.2" fill="oklch(0.56 0.24 282)" />
    </svg>
  )
}

export function Logo({ className, compact = false }: { className?: string; compact?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold tracking-tight', className)}>
      <LogoMark />
      {!compact && <span className="text-lg">Pinbid</span>}
    </span>
  )
}
