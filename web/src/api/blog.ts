/** Blog and newsletter calls (content service, through the gateway), typed by the generated contract. */
import { api, type Schemas } from './client'
import { unwrap } from './errors'

export type ArticleSummary = Schemas['ArticleSummary']
export type Article = Schemas['ArticleOut']
export type ArticlePage = Schemas['ArticlePage']
export type ArticleType = ArticleSummary['type']

export const BLOG_PAGE_SIZE = 10

export async function listArticles(params: { q?: string; category?: string; page: number; limit?: number }): Promise<ArticlePage> {
  const query = {
    page: params.page,
    limit: params.limit ?? BLOG_PAGE_SIZE,
    ...(params.q ? { q: params.q } : {}),
    ...(params.category ? { category: params.category } : {}),
  }
  return unwrap(await api().GET('/blog/articles', { params: { query } }))
}

export async function featuredArticles(): Promise<ArticleSummary[]> {
  return unwrap(await api().GET('/blog/featured')).articles.slice(0, 2)
}

export async function blogCategories(): Promise<string[]> {
  return unwrap(await api().GET('/blog/categories')).categories
}

export async function getArticle(slug: string): Promise<Article> {
  return unwrap(await api().GET('/blog/articles/{slug}', { params: { path: { slug } } }))
}

/** Double opt-in: the server mails a confirmation link and answers 202 {detail}. */
export async function subscribeNewsletter(email: string): Promise<string> {
  return unwrap(await api().POST('/newsletter/subscribe', { body: { email } })).detail
}
