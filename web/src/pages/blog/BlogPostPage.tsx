import * as React from 'react'
import { Link, useParams } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { toast } from 'sonner'
import { ArrowLeft, Bookmark, BookmarkCheck, CalendarDays, Clock, Eye, Share2 } from 'lucide-react'
import { getArticle, type Article } from '@/api/blog'
import { isNotFound, retryUnlessNotFound } from '@/api/errors'
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { useHydrated } from '@/hooks/use-hydrated'
import { articleFromPage, articleText, PostFrame } from './article-page'
import { BodyPartView } from './BodyPartView'

export const POST_NOT_FOUND = 'Blog post not found.'
export const POST_LOAD_FAILED = 'Failed to load blog post. Please try again later.'
export const MDX_FAILED = 'Failed to render MDX content.'

function ErrorText({ children }: { children: React.ReactNode }) {
  return (
    <p role="alert" className="py-16 text-center font-medium text-red-600">
      {children}
    </p>
  )
}

/** When there is no article to show, what went wrong is the page's heading. */
function PageError({ children }: { children: React.ReactNode }) {
  return (
    <div role="alert">
      <h1 className="py-16 text-center text-xl font-medium text-red-600">{children}</h1>
    </div>
  )
}

export default function BlogPostPage() {
  const { slug = '' } = useParams()
  const query = useQuery({
    queryKey: ['blog', 'article', slug],
    queryFn: () => getArticle(slug),
    initialData: () => articleFromPage(slug),
    initialDataUpdatedAt: performance.timeOrigin, // as fresh as the page
    retry: retryUnlessNotFound,
  })

  const notFound = isNotFound(query.error)
  React.useEffect(() => {
    if (notFound) document.title = 'Blog post not found — Pinbid'
  }, [notFound])

  React.useEffect(() => {
    if (!query.data) return
    const { pageTitle, description } = articleText(query.data)
    document.title = pageTitle
    const meta = document.querySelector<HTMLMetaElement>('meta[name="description"]')
    const previous = meta?.content
    if (meta) meta.content = description
    return () => {
      if (meta && previous !== undefined) meta.content = previous
    }
  }, [query.data])

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 md:py-14">
      <Button asChild variant="ghost" size="sm" className="-ml-3 mb-6 text-muted-foreground">
        <Link to="/blog">
          <ArrowLeft /> Back to Blog
        </Link>
      </Button>
      {query.isPending ? (
        // a screen tall at least, so the footer below does not jump when the article arrives
        <div role="status" aria-label="Loading article" className="min-h-svh space-y-4">
          <Skeleton className="h-6 w-28 rounded-full" />
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="mt-8 h-64 w-full rounded-2xl" />
        </div>
      ) : query.isError ? (
        <PageError>{notFound ? POST_NOT_FOUND : POST_LOAD_FAILED}</PageError>
      ) : (
        <ArticleView article={query.data} />
      )}
    </div>
  )
}

const savedListeners = new Set<() => void>()

function subscribeSaved(listener: () => void) {
  savedListeners.add(listener)
  window.addEventListener('storage', listener)
  return () => {
    savedListeners.delete(listener)
    window.removeEventListener('storage', listener)
  }
}

/** Read after hydration (the page's HTML was written for no one in particular: not saved). */
function useSaved(slug: string) {
  const key = `pinbid.saved.${slug}`
  const saved = React.useSyncExternalStore(subscribeSaved, () => localStorage.getItem(key) === '1', () => false)
  const toggle = () => {
    const next = !saved
    if (next) localStorage.setItem(key, '1')
    else localStorage.removeItem(key)
    savedListeners.forEach((listener) => listener())
    toast.success(next ? 'Saved for later' : 'Removed from saved articles')
  }
  return [saved, toggle] as const
}

function ArticleView({ article }: { article: Article }) {
  const [saved, toggleSaved] = useSaved(article.slug)
  const text = React.useContext(PostFrame) ?? articleText(article)
  // the tags and the questions are not in the page the gateway fills (their number varies): they follow hydration
  const hydrated = useHydrated()

  async function share() {
    const url = window.location.href
    try {
      if (navigator.share) {
        await navigator.share({ title: article.title, url })
        return
      }
      await navigator.clipboard.writeText(url)
      toast.success('Link copied to clipboard')
    } catch {
      /* the person closed the share sheet */
    }
  }

  return (
    <article>
      <header>
        <Badge variant="soft" className="capitalize">
          {text.category}
        </Badge>
        <h1 className="mt-4 text-3xl leading-tight font-bold tracking-tight sm:text-4xl md:text-[2.75rem]">{text.title}</h1>
        <p className="mt-4 text-lg text-muted-foreground">{text.excerpt}</p>
        <div className="mt-6 flex flex-wrap items-center justify-between gap-4 border-y py-4">
          <div className="flex items-center gap-3">
            <div aria-hidden="true" className="flex size-10 items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-foreground">
              {text.initial}
            </div>
            <div className="text-sm">
              <p className="font-medium">{text.author}</p>
              <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground">
                <span className="inline-flex items-center gap-1">
                  <CalendarDays className="size-3.5" aria-hidden="true" />
                  <time dateTime={text.publishedAt}>{text.date}</time>
                </span>
                <span className="inline-flex items-center gap-1">
                  <Clock className="size-3.5" aria-hidden="true" /> {text.readTime}
                </span>
                <span className="inline-flex items-center gap-1">
                  <Eye className="size-3.5" aria-hidden="true" /> {text.views}
                </span>
              </p>
            </div>
          </div>
          <div className="flex gap-2">
            <Button variant="outline" size="sm" onClick={share}>
              <Share2 /> Share
            </Button>
            <Button variant="outline" size="sm" onClick={toggleSaved} aria-pressed={saved}>
              {saved ? <BookmarkCheck /> : <Bookmark />} {saved ? 'Saved' : 'Save'}
            </Button>
          </div>
        </div>
      </header>

      {text.imageUrl && <img src={text.imageUrl} alt="" width={1600} height={900} className="mt-8 aspect-[16/9] h-auto w-full rounded-2xl border object-cover" />}

      <div className="prose-article mt-8">
        <RenderBoundary fallback={<ErrorText>{MDX_FAILED}</ErrorText>}>
          {article.body.map((part, i) => (
            <BodyPartView key={i} part={part} />
          ))}
        </RenderBoundary>
      </div>

      {hydrated && article.tags.length > 0 && (
        <ul aria-label="Tags" className="mt-10 flex flex-wrap gap-2">
          {article.tags.map((t) => (
            <li key={t}>
              <Badge variant="outline" className="px-3 py-1 text-sm font-normal">
                #{t}
              </Badge>
            </li>
          ))}
        </ul>
      )}

      {hydrated && article.faq.length > 0 && (
        <section aria-labelledby="article-faq" className="mt-12">
          <h2 id="article-faq" className="mb-2 text-2xl font-semibold">
            Frequently asked questions
          </h2>
          <Accordion type="single" collapsible>
            {article.faq.map((f, i) => (
              <AccordionItem key={i} value={String(i)}>
                <AccordionTrigger>{f.question}</AccordionTrigger>
                <AccordionContent>{f.answer}</AccordionContent>
              </AccordionItem>
            ))}
          </Accordion>
        </section>
      )}

      <footer className="mt-12 flex items-center gap-4 rounded-2xl border bg-muted/40 p-5">
        <div aria-hidden="true" className="flex size-12 shrink-0 items-center justify-center rounded-full bg-primary text-lg font-bold text-primary-foreground">
          {text.initial}
        </div>
        <div>
          <p className="text-sm text-muted-foreground">Written by</p>
          <p className="font-semibold">{text.author}</p>
        </div>
      </footer>

      <aside className="mt-10 rounded-2xl bg-gradient-to-br from-primary to-[oklch(0.5_0.22_320)] p-8 text-center text-primary-foreground">
        <h2 className="text-2xl font-bold">Ready to Monetize Your Social Media?</h2>
        <p className="mt-2 text-primary-foreground/85">Sign up today and start earning from your pinned comments.</p>
        <Button asChild variant="white" size="lg" className="mt-6">
          <Link to="/login">Sign Up Now</Link>
        </Button>
      </aside>
    </article>
  )
}

/** An mdx article's demos are components: one that fails shows the spec's message instead of the page failing. */
class RenderBoundary extends React.Component<{ fallback: React.ReactNode; children: React.ReactNode }, { failed: boolean }> {
  state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  render() {
    return this.state.failed ? this.props.fallback : this.props.children
  }
}
