import { Link } from 'react-router'
import { CalendarDays, Clock, Eye, Pin } from 'lucide-react'
import type { ArticleSummary } from '@/api/blog'
import { Badge } from '@/components/ui/badge'
import { Skeleton } from '@/components/ui/skeleton'
import { cn, formatDate } from '@/lib/utils'
import { categoryLabel, formatViews } from './util'

const GRADIENTS = [
  'from-violet-500 to-fuchsia-500',
  'from-sky-500 to-indigo-500',
  'from-amber-400 to-pink-500',
  'from-emerald-400 to-teal-600',
  'from-rose-400 to-orange-400',
]

function gradientFor(slug: string) {
  let h = 0
  for (const c of slug) h = (h * 31 + c.charCodeAt(0)) >>> 0
  return GRADIENTS[h % GRADIENTS.length]
}

export function ArticleCard({ article, featured = false }: { article: ArticleSummary; featured?: boolean }) {
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-2xl border bg-card shadow-xs transition-shadow focus-within:ring-[3px] focus-within:ring-ring/50 hover:shadow-md">
      <div className={cn('relative overflow-hidden', featured ? 'aspect-[16/8]' : 'aspect-[16/9]')}>
        {article.imageUrl ? (
          <img src={article.imageUrl} alt="" loading="lazy" className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.02]" />
        ) : (
          <div aria-hidden="true" className={cn('relative flex size-full items-center justify-center bg-gradient-to-br', gradientFor(article.slug))}>
            <div className="absolute inset-0 bg-[radial-gradient(circle_at_1px_1px,rgb(255_255_255/0.25)_1px,transparent_0)] bg-[length:18px_18px]" />
            <div className="relative flex size-16 items-center justify-center rounded-2xl bg-white/20 text-white shadow-lg ring-1 ring-white/30 backdrop-blur-sm transition-transform duration-300 group-hover:scale-105">
              <Pin className="size-7" />
            </div>
          </div>
        )}
        {featured && <Badge className="absolute top-3 left-3 shadow">Featured</Badge>}
      </div>
      <div className="flex flex-1 flex-col gap-3 p-5">
        <Badge variant="soft" className="capitalize">
          {categoryLabel(article.category)}
        </Badge>
        <h3 className={cn('leading-snug font-semibold', featured ? 'text-xl' : 'text-lg')}>
          <Link to={`/blog/${article.slug}`} className="outline-none after:absolute after:inset-0 hover:text-primary">
            {article.title}
          </Link>
        </h3>
        <p className="line-clamp-3 text-sm text-muted-foreground">{article.excerpt}</p>
        <div className="mt-auto flex flex-wrap items-center gap-x-4 gap-y-1 pt-2 text-xs text-muted-foreground">
          <span className="inline-flex items-center gap-1">
            <CalendarDays className="size-3.5" aria-hidden="true" />
            <time dateTime={article.publishedAt}>{formatDate(article.publishedAt, 'short')}</time>
          </span>
          <span className="inline-flex items-center gap-1">
            <Clock className="size-3.5" aria-hidden="true" /> {article.readTime} min read
          </span>
          <span className="inline-flex items-center gap-1">
            <Eye className="size-3.5" aria-hidden="true" /> {formatViews(article.views)}
          </span>
        </div>
      </div>
    </article>
  )
}

/** The card's shape while it loads: the same picture ratio and lines of text, so nothing moves when it arrives. */
export function ArticleCardSkeleton({ featured = false }: { featured?: boolean }) {
  return (
    <div data-slot="skeleton" aria-hidden="true" className="flex h-full flex-col overflow-hidden rounded-2xl border bg-card">
      <Skeleton className={cn('rounded-none', featured ? 'aspect-[16/8]' : 'aspect-[16/9]')} />
      <div className="flex flex-1 flex-col gap-3 p-5">
        <Skeleton className="h-5 w-24 rounded-full" />
        <Skeleton className={cn('w-4/5', featured ? 'h-16' : 'h-[4.5rem]')} />
        <Skeleton className="h-15" />
        <div className="mt-auto pt-2">
          <Skeleton className="h-8 w-3/5" />
        </div>
      </div>
    </div>
  )
}
