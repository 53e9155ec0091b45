import { StrictMode, type ReactNode } from 'react'
import { prerender } from 'react-dom/static'
import { StaticRouter } from 'react-router'
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import type { Article } from '@/api/blog'
import { AppBody, createQueryClient } from './App'
import { Toaster } from '@/components/ui/sonner'
import { ARTICLE_DATA_ID, ARTICLE_TEXT, PostFrame, type ArticleText } from '@/pages/blog/article-page'
import { BodyPartView } from '@/pages/blog/BodyPartView'
import { pageTitle } from './titles'

export { ARTICLE_DATA_ID, pageTitle }

async function html(node: ReactNode): Promise<string> {
  const { prelude } = await prerender(node, {
    // every boundary in place: React outlines a large one (the landing page's) behind an inline script that
    // moves it into place, which the page's CSP (script-src 'self') refuses
    progressiveChunkSize: Number.POSITIVE_INFINITY,
    onError(error) {
      throw error
    },
  })
  return new Response(prelude).text()
}

/** One public page as a signed-out visitor first sees it, for scripts/prerender.mjs (a Vite SSR build of this
 *  file): the same tree as main.tsx's App with a static router, every lazy route resolved; what a page fetches
 *  from the API is left in its loading state (no query runs on the server) unless `client` holds it. */
export async function render(url: string, client: QueryClient = createQueryClient(), frame: ArticleText | null = null): Promise<string> {
  return html(
    <StrictMode>
      <QueryClientProvider client={client}>
        <PostFrame value={frame}>
          <StaticRouter location={url}>
            <AppBody />
          </StaticRouter>
        </PostFrame>
        <Toaster />
      </QueryClientProvider>
    </StrictMode>,
  )
}

export const slot = (name: string) => `@@${name}@@`
export const POST_FRAME_ROUTE = '/blog/_post' // no article has this slug: slugs are lowercase words and digits

/** A blog post's page with a slot, `@@name@@`, for each string of its article (ArticleText), `@@body@@` for its
 *  body and `@@cover@@` for its cover picture; and what the gateway puts there: `parts.html` (`@@html@@` holding
 *  one HTML part of the body), `parts.formula` and `parts.steps` (an mdx article's demos as they first render),
 *  `parts.cover` (the picture, `@@imageUrl@@` its address). The gateway fills it for each post
 *  (gateway/pinbid_gateway/post_page.py). */
export async function renderPostFrame(): Promise<{ html: string; parts: Record<string, string> }> {
  const text = Object.fromEntries(ARTICLE_TEXT.map((name) => [name, slot(name)])) as ArticleText
  const template: Article = {
    slug: POST_FRAME_ROUTE.split('/')[2],
    type: 'md',
    title: '',
    author: '',
    publishedAt: '',
    excerpt: '',
    category: '',
    tags: [],
    featured: false,
    imageUrl: text.imageUrl,
    views: 0,
    readTime: 0,
    content: '',
    body: [{ kind: 'html', html: slot('body') }],
    faq: [],
    seo: null,
  }
  const client = createQueryClient()
  client.setQueryData(['blog', 'article', template.slug], template)
  const page = await render(POST_FRAME_ROUTE, client, text)
  const parts = {
    html: await html(<BodyPartView part={{ kind: 'html', html: slot('html') }} />),
    formula: await html(<BodyPartView part={{ kind: 'formula' }} />),
    steps: await html(<BodyPartView part={{ kind: 'steps' }} />),
    cover: '',
  }
  const body = parts.html.replace(slot('html'), slot('body'))
  const cover = new RegExp(`<img [^>]*src="${slot('imageUrl')}"[^>]*>`).exec(page)?.[0]
  if (page.split(body).length !== 2 || !cover || page.split(cover).length !== 2) throw new Error('the post frame has not one body and one cover')
  parts.cover = cover
  // React preloads the picture from the top of the page; the <img> is early in the HTML all the same
  const preload = new RegExp(`<link rel="preload" as="image" href="${slot('imageUrl')}"/>`)
  return { html: page.replace(preload, '').replace(body, slot('body')).replace(cover, slot('cover')), parts }
}
