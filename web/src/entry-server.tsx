import { StrictMode } from 'react'
import { prerender } from 'react-dom/static'
import { StaticRouter } from 'react-router'
import { QueryClientProvider } from '@tanstack/react-query'
import { AppBody, createQueryClient } from './App'
import { Toaster } from '@/components/ui/sonner'
import { pageTitle } from './titles'

export { pageTitle }

/** One public page as a signed-out visitor first sees it, for scripts/prerender.mjs (a Vite SSR build of this
 *  file): the same tree as main.tsx's App with a static router, every lazy route resolved; what a page fetches
 *  from the API is left in its loading state (no query runs on the server). */
export async function render(url: string): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <StaticRouter location={url}>
          <AppBody />
        </StaticRouter>
        <Toaster />
      </QueryClientProvider>
    </StrictMode>,
    {
      // every boundary in place: React outlines a large one (the landing page's) behind an inline script that
      // moves it into place, which the page's CSP (script-src 'self') refuses
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError(error) {
        throw error
      },
    },
  )
  return new Response(prelude).text()
}
