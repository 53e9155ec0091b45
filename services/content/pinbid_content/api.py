"""Content's HTTP routes: the blog reads and the newsletter (all public)."""

from datetime import date
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query
from fastapi.responses import RedirectResponse
from pinbid_kit.api import ApiModel, PlainText
from pydantic import Field
from sqlalchemy import Row

from .blog import Blog
from .domain.articles import CATEGORY
from .newsletter import Newsletter


class FaqOut(ApiModel):
    question: str
    answer: str


class SeoOut(ApiModel):
    title: str
    description: str


class ArticleSummary(ApiModel):
    slug: str
    type: Literal["md", "mdx", "html"]
    title: str
    author: str
    published_at: date
    excerpt: str
    category: str
    tags: list[str]
    featured: bool
    image_url: str | None
    views: int
    read_time: int = Field(description="minutes")

    @classmethod
    def of(cls, row: Row[Any]) -> "ArticleSummary":
        return cls(slug=row.slug, type=row.type, title=row.title, author=row.author, published_at=row.published_at,
                   excerpt=row.excerpt, category=row.category, tags=list(row.tags), featured=row.featured,
                   image_url=row.image_url, views=row.views, read_time=row.read_time)


class ArticleOut(ArticleSummary):
    content: str = Field(description="md and mdx: the Markdown source without front matter; html: sanitised HTML")
    faq: list[FaqOut]
    seo: SeoOut | None

    @classmethod
    def of(cls, row: Row[Any]) -> "ArticleOut":
        summary = ArticleSummary.of(row).model_dump()
        return cls(**summary, content=row.content, faq=[FaqOut(**item) for item in row.faq],
                   seo=SeoOut(**row.seo) if row.seo else None)


class ArticlePage(ApiModel):
    articles: list[ArticleSummary]
    total: int
    total_pages: int
    page: int


class ArticleList(ApiModel):
    articles: list[ArticleSummary]


class CategoryList(ApiModel):
    categories: list[str]


class ArticleQuery(ApiModel):
    q: PlainText | None = Field(default=None, max_length=200)
    category: str | None = Field(default=None, max_length=60, pattern=CATEGORY.pattern)  # the pattern is stricter
    page: int = Field(default=1, ge=1, le=100_000)
    limit: int = Field(default=10, ge=1, le=50)


class SubscribeIn(ApiModel):
    email: PlainText = Field(max_length=320)


class DetailOut(ApiModel):
    detail: str


def routes(blog: Blog, newsletter: Newsletter) -> list[APIRouter]:
    articles = APIRouter(prefix="/blog", tags=["blog"])

    @articles.get("/articles", response_model=ArticlePage)
    async def list_articles(query: Annotated[ArticleQuery, Query()]) -> ArticlePage:
        found = await blog.page(q=query.q or None, category=query.category or None, page=query.page,
                                limit=query.limit)
        return ArticlePage(articles=[ArticleSummary.of(r) for r in found.articles], total=found.total,
                           total_pages=found.total_pages, page=found.page)

    @articles.get("/featured", response_model=ArticleList)
    async def featured() -> ArticleList:
        return ArticleList(articles=[ArticleSummary.of(r) for r in await blog.featured()])

    @articles.get("/categories", response_model=CategoryList)
    async def categories() -> CategoryList:
        return CategoryList(categories=await blog.categories())

    @articles.get("/articles/{slug}", response_model=ArticleOut,
                  responses={404: {"description": "Unknown or unpublished: {detail: 'Blog post not found.'}"}})
    async def read(slug: Annotated[PlainText, Path()]) -> ArticleOut:
        return ArticleOut.of(await blog.read(slug))

    letters = APIRouter(prefix="/newsletter", tags=["newsletter"])

    @letters.post("/subscribe", response_model=DetailOut, status_code=202)
    async def subscribe(body: SubscribeIn) -> DetailOut:
        return DetailOut(detail=await newsletter.subscribe(body.email))

    @letters.get("/confirm", response_class=RedirectResponse, status_code=303)
    async def confirm(token: Annotated[str, Query()] = "") -> RedirectResponse:
        return RedirectResponse(await newsletter.confirm(token), status_code=303)

    @letters.get("/unsubscribe", response_class=RedirectResponse, status_code=303)
    async def unsubscribe(token: Annotated[str, Query()] = "") -> RedirectResponse:
        return RedirectResponse(await newsletter.unsubscribe(token), status_code=303)

    return [articles, letters]
