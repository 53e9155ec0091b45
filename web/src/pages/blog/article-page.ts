import * as React from 'react'
import type { Article } from '@/api/blog'
import { formatDate } from '@/lib/utils'
import { categoryLabel, formatViews } from './util'

/** What a post's page writes from its article, each as one string. The gateway writes the same strings into the
 *  post frame the build prerendered (gateway/pinbid_gateway/post_page.py; both are checked against
 *  post-text.cases.json), so that the page the browser first shows is the one the app hydrates. */
export const ARTICLE_TEXT = ['pageTitle', 'description', 'category', 'title', 'excerpt', 'initial', 'author', 'publishedAt', 'date', 'readTime', 'views', 'imageUrl'] as const
export type ArticleText = Record<(typeof ARTICLE_TEXT)[number], string>

export function articleText(article: Article): ArticleText {
  return {
    pageTitle: `${article.seo?.title || article.title} — Pinbid Blog`,
    description: article.seo?.description || article.excerpt,
    category: categoryLabel(article.category),
    title: article.title,
    excerpt: article.excerpt,
    initial: (Array.from(article.author)[0] ?? '').toUpperCase(),
    author: article.author,
    publishedAt: article.publishedAt,
    date: formatDate(article.publishedAt),
    readTime: `${article.readTime} min read`,
    views: formatViews(article.views),
    imageUrl: article.imageUrl ?? '',
  }
}

/** The build's post frame (entry-server's renderPostFrame): every string of ArticleText as its slot, `@@name@@`. */
export const PostFrame = React.createContext<ArticleText | null>(null)

export const ARTICLE_DATA_ID = 'article-data'

/** The article the gateway wrote into the page as a JSON data block (not a script: the CSP allows none inline), when
 *  it is this slug's. The page's query starts from it: the first render is the HTML already on screen, and the
 *  article is neither fetched nor counted as a view a second time. */
export function articleFromPage(slug: string): Article | undefined {
  if (typeof document === 'undefined') return undefined
  const block = document.getElementById(ARTICLE_DATA_ID)
  const article = block?.textContent ? (JSON.parse(block.textContent) as Article) : undefined
  return article?.slug === slug ? article : undefined
}
