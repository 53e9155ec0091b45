/**
 * Blog and newsletter calls, TYPED BY HAND: these paths (content service, via the gateway) are not in
 * contracts/openapi.json yet. The shapes are the fixed contract agreed with the back end.
 * When they appear in the generated schema, switch these calls to `api()` and delete this file's types.
 */
import type { Client } from 'openapi-fetch'
import { getConfig } from '@/config'
import { createApiClient } from './client'
import { unwrap } from './errors'

export type ArticleType = 'md' | 'mdx' | 'html'

export interface ArticleSummary {
  slug: string
  type: ArticleType
  title: string
  author: string
  publishedAt: string
  excerpt: string
  category: string
  tags: string[]
  featured: boolean
  imageUrl: string | null
  views: number
  readTime: number
}

export interface Article extends ArticleSummary {
  content: string
  faq: { question: string; answer: string }[]
}

export interface ArticlePage {
  articles: ArticleSummary[]
  total: number
  totalPages: number
  page: number
}

type Json<T> = { content: { 'application/json': T } }

/** openapi-typescript-style path map for the hand-typed calls. */
export interface BlogPaths {
  '/blog/articles': {
    get: {
      parameters: { query?: { q?: string; category?: string; page?: number; limit?: number } }
      responses: { 200: Json<ArticlePage> }
    }
  }
  '/blog/featured': { get: { responses: { 200: Json<{ articles: ArticleSummary[] }> } } }
  '/blog/categories': { get: { responses: { 200: Json<{ categories: string[] }> } } }
  '/blog/articles/{slug}': {
    get: {
      parameters: { path: { slug: string } }
      responses: { 200: Json<Article>; 404: Json<{ detail: string; code: string }> }
    }
  }
  '/newsletter/subscribe': {
    post: {
      requestBody: Json<{ email: string }>
      responses: { 202: Json<{ detail: string }> }
    }
  }
}

export const BLOG_PAGE_SIZE = 10

let instance: { base: string; client: Client<BlogPaths> } | null = null
function blogApi(): Client<BlogPaths> {
  const base = getConfig().apiBase
  if (!instance || instance.base !== base) instance = { base, client: createApiClient<BlogPaths>() }
  return instance.client
}

export async function listArticles(params: { q?: string; category?: string; page: number; limit?: number }): Promise<ArticlePage> {
  const query = {
    page: params.page,
    limit: params.limit ?? BLOG_PAGE_SIZE,
    ...(params.q ? { q: params.q } : {}),
    ...(params.category ? { category: params.category } : {}),
  }
  return unwrap(await blogApi().GET('/blog/articles', { params: { query } }))
}

export async function featuredArticles(): Promise<ArticleSummary[]> {
  return unwrap(await blogApi().GET('/blog/featured')).articles.slice(0, 2)
}

export async function blogCategories(): Promise<string[]> {
  return unwrap(await blogApi().GET('/blog/categories')).categories
}

export async function getArticle(slug: string): Promise<Article> {
  return unwrap(await blogApi().GET('/blog/articles/{slug}', { params: { path: { slug } } }))
}

export async function subscribeNewsletter(email: string): Promise<string> {
  return unwrap(await blogApi().POST('/newsletter/subscribe', { body: { email } })).detail
}
