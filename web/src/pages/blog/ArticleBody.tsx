/* An article's Markdown or MDX body, in its own chunk: react-markdown and remark-gfm are most of the post page's
   script, so the article's header (its largest paint) shows before the body's parser has loaded. */
import type * as React from 'react'
import type { Article } from '@/api/blog'
import { Markdown, MdxContent, RenderBoundary } from './mdx'

export default function ArticleBody({ article, mdxFailed }: { article: Article; mdxFailed: React.ReactNode }) {
  if (article.type === 'mdx') {
    return (
      <RenderBoundary fallback={mdxFailed}>
        <MdxContent source={article.content} />
      </RenderBoundary>
    )
  }
  return <Markdown source={article.content} />
}
