import * as React from 'react'
import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query'
import { toast } from 'sonner'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from '@/lib/zod'
import { Mail, RefreshCw, Search, X } from 'lucide-react'
import { blogCategories, BLOG_PAGE_SIZE, featuredArticles, listArticles, subscribeNewsletter } from '@/api/blog'
import { serverMessage } from '@/api/errors'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Spinner } from '@/components/ui/spinner'
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { emailField } from '@/lib/validation'
import { showServerErrors } from '@/lib/server-errors'
import { cn } from '@/lib/utils'
import { ArticleCard, ArticleCardSkeleton } from './ArticleCard'
import { categoryLabel } from './util'
import { useHydrated } from '@/hooks/use-hydrated'
import { useDebounced } from '@/hooks/use-debounced'

export default function BlogIndexPage() {
  const [search, setSearch] = React.useState('')
  const [category, setCategory] = React.useState<string | null>(null)
  const q = useDebounced(search.trim(), 300)
  const filtering = Boolean(q || category)

  // the cards are rendered as a deferred update, which React can split and pause, rather than in the one task
  // that hears the answer (a query's answer renders synchronously: 300 ms of a phone's main thread for the list)
  const featured = React.useDeferredValue(useQuery({ queryKey: ['blog', 'featured'], queryFn: featuredArticles }))
  const categories = useQuery({ queryKey: ['blog', 'categories'], queryFn: blogCategories })
  const listQuery = useInfiniteQuery({
    queryKey: ['blog', 'articles', q, category],
    queryFn: ({ pageParam }) => listArticles({ q: q || undefined, category: category ?? undefined, page: pageParam, limit: BLOG_PAGE_SIZE }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page < last.totalPages ? last.page + 1 : undefined),
  })
  const list = React.useDeferredValue(listQuery)

  const articles = list.data?.pages.flatMap((p) => p.articles) ?? []
  const total = list.data?.pages.at(-1)?.total ?? 0

  return (
    <div className="pb-16">
      <section className="border-b bg-gradient-to-b from-primary/8 to-background">
        <div className="mx-auto max-w-6xl px-4 pt-12 pb-10 text-center sm:px-6 md:pt-16">
          <p className="mb-2 text-sm font-semibold tracking-wide text-primary uppercase">Blog</p>
          <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">The Pinbid Blog</h1>
          <p className="mx-auto mt-3 max-w-2xl text-lg text-muted-foreground">
            Playbooks for pinned comments: how creators price their slots and how brands write the comment everyone reads first.
          </p>
          <div className="relative mx-auto mt-8 max-w-xl">
            <Search className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
            <Input
              type="search"
              aria-label="Search articles"
              placeholder="Search articles, topics, or tags..."
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              className="h-12 rounded-full bg-background pr-10 pl-10 text-base shadow-sm"
            />
            {search && (
              <button
                type="button"
                onClick={() => setSearch('')}
                className="absolute top-1/2 right-3 -translate-y-1/2 cursor-pointer rounded-full p-1 text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                aria-label="Clear search"
              >
                <X className="size-4" />
              </button>
            )}
          </div>
          {/* the height of the loaded row (two lines on a phone), so the articles below do not move when the categories arrive */}
          <div role="group" aria-label="Filter by category" className="mt-6 flex min-h-[4.5rem] flex-wrap content-start justify-center gap-2 sm:min-h-8">
            <CategoryButton active={category === null} onClick={() => setCategory(null)}>
              All Categories
            </CategoryButton>
            {categories.data?.map((c) => (
              <CategoryButton key={c} active={category === c} onClick={() => setCategory(c)}>
                {categoryLabel(c)}
              </CategoryButton>
            ))}
          </div>
        </div>
      </section>

      <div className="mx-auto max-w-6xl space-y-14 px-4 pt-12 sm:px-6">
        {!filtering && (featured.isPending || (featured.data && featured.data.length > 0)) && (
          <section aria-labelledby="featured-title">
            <h2 id="featured-title" className="mb-5 text-2xl font-bold">
              Featured Articles
            </h2>
            <div className="grid gap-6 md:grid-cols-2">
              {featured.isPending
                ? [0, 1].map((i) => <ArticleCardSkeleton key={i} featured />)
                : featured.data?.map((a) => <ArticleCard key={a.slug} article={a} featured />)}
            </div>
          </section>
        )}

        <section aria-labelledby="latest-title">
          <div className="mb-5 flex flex-wrap items-end justify-between gap-2">
            <h2 id="latest-title" className="text-2xl font-bold">
              {filtering ? 'Search results' : 'Latest Articles'}
            </h2>
            {list.isSuccess && (
              <p className="text-sm text-muted-foreground" aria-live="polite">
                Showing {articles.length} of {total} articles
              </p>
            )}
          </div>

          {list.isPending ? (
            <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {Array.from({ length: 6 }, (_, i) => (
                <ArticleCardSkeleton key={i} />
              ))}
            </div>
          ) : list.isError ? (
            <div className="flex flex-col items-center gap-3 rounded-2xl border py-12 text-center">
              <p role="alert" className="font-medium text-destructive">
                Failed to load articles. Please try again later.
              </p>
              <Button variant="outline" size="sm" onClick={() => list.refetch()}>
                <RefreshCw /> Try again
              </Button>
            </div>
          ) : articles.length === 0 ? (
            <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed py-14 text-center">
              <Search className="size-8 text-muted-foreground" aria-hidden="true" />
              <p className="font-medium">{filtering ? 'No articles match your search.' : 'No articles published yet.'}</p>
              {filtering && (
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => {
                    setSearch('')
                    setCategory(null)
                  }}
                >
                  Clear filters
                </Button>
              )}
            </div>
          ) : (
            <>
              <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
                {articles.map((a) => (
                  <ArticleCard key={a.slug} article={a} />
                ))}
              </div>
              {list.hasNextPage && (
                <div className="mt-10 flex justify-center">
                  <Button variant="outline" size="lg" onClick={() => list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                    {list.isFetchingNextPage && <Spinner />}
                    {list.isFetchingNextPage ? 'Loading...' : 'Load More Articles'}
                  </Button>
                </div>
              )}
            </>
          )}
        </section>

        <Newsletter />
      </div>
    </div>
  )
}

function CategoryButton({ active, onClick, children }: { active: boolean; onClick: () => void; children: React.ReactNode }) {
  return (
    <Button
      type="button"
      size="sm"
      variant={active ? 'default' : 'outline'}
      aria-pressed={active}
      onClick={onClick}
      className={cn('rounded-full capitalize', !active && 'bg-background')}
    >
      {children}
    </Button>
  )
}

const newsletterSchema = z.object({ email: emailField })
type NewsletterValues = z.infer<typeof newsletterSchema>

function Newsletter() {
  const hydrated = useHydrated()
  const form = useForm<NewsletterValues>({ resolver: zodResolver(newsletterSchema), defaultValues: { email: '' } })
  const subscribe = useMutation({
    mutationFn: subscribeNewsletter,
    onSuccess: (detail) => {
      toast.success('Almost there!', { description: detail })
      form.reset({ email: '' })
    },
    onError: (err) => {
      showServerErrors(form, err)
      toast.error('Subscription failed', { description: serverMessage(err, 'Could not subscribe you right now. Please try again.') })
    },
  })

  return (
    <section aria-labelledby="newsletter-title" className="rounded-3xl bg-gradient-to-br from-primary to-[oklch(0.5_0.22_320)] px-6 py-10 text-primary-foreground sm:px-10">
      <div className="mx-auto flex max-w-3xl flex-col items-center gap-4 text-center">
        <Mail className="size-8 opacity-90" aria-hidden="true" />
        <h2 id="newsletter-title" className="text-2xl font-bold sm:text-3xl">
          Stay Updated
        </h2>
        <p className="max-w-xl text-primary-foreground/85">New playbooks on pinned comments, pricing and brand safety, once or twice a month. No spam; unsubscribe in one click.</p>
        <Form {...form}>
          <form inert={!hydrated} onSubmit={form.handleSubmit(({ email }) => subscribe.mutate(email))} noValidate className="mt-2 flex w-full max-w-md flex-col gap-2 sm:flex-row" aria-label="Newsletter signup">
            <FormField
              control={form.control}
              name="email"
              render={({ field }) => (
                <FormItem controlId="newsletter-email" className="flex-1 gap-0 text-left">
                  <FormLabel className="sr-only">Email address</FormLabel>
                  <FormControl>
                    <Input type="email" autoComplete="email" placeholder="you@example.com" className="h-11 border-white/30 bg-white text-foreground" {...field} />
                  </FormControl>
                  <FormMessage className="mt-1.5 text-white" />
                </FormItem>
              )}
            />
            <Button type="submit" variant="white" size="lg" disabled={subscribe.isPending} className="h-11">
              {subscribe.isPending && <Spinner />}
              Subscribe
            </Button>
          </form>
        </Form>
      </div>
    </section>
  )
}
