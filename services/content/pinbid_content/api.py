"""Content's HTTP routes: the blog reads and the newsletter (all public)."""

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query
from fastapi.responses import RedirectResponse
from pinbid_kit.api import PlainText
from pinbid_kit.deps import from_state

from .newsletter import Newsletter
from .queries import BlogQueries
from .schemas import (
    ArticleList,
    ArticleOut,
    ArticlePage,
    ArticleQuery,
    ArticleSummary,
    CategoryList,
    DetailOut,
    SubscribeIn,
)

BlogDep = Annotated[BlogQueries, Depends(from_state("blog"))]
NewsletterDep = Annotated[Newsletter, Depends(from_state("newsletter"))]

articles = APIRouter(prefix="/blog", tags=["blog"])


@articles.get("/articles", response_model=ArticlePage)
async def list_articles(query: Annotated[ArticleQuery, Query()], blog: BlogDep) -> ArticlePage:
    found = await blog.page(q=query.q or None, category=query.category or None, page=query.page,
                            limit=query.limit)
    return ArticlePage(articles=[ArticleSummary.of(r) for r in found.articles], total=found.total,
                       total_pages=found.total_pages, page=found.page)


@articles.get("/featured", response_model=ArticleList)
async def featured(blog: BlogDep) -> ArticleList:
    return ArticleList(articles=[ArticleSummary.of(r) for r in await blog.featured()])


@articles.get("/categories", response_model=CategoryList)
async def categories(blog: BlogDep) -> CategoryList:
    return CategoryList(categories=await blog.categories())


@articles.get("/articles/{slug}", response_model=ArticleOut,
              responses={404: {"description": "Unknown or unpublished: {detail: 'Blog post not found.'}"}})
async def read(slug: Annotated[PlainText, Path()], blog: BlogDep) -> ArticleOut:
    return ArticleOut.of(await blog.read(slug))


letters = APIRouter(prefix="/newsletter", tags=["newsletter"])


@letters.post("/subscribe", response_model=DetailOut, status_code=202)
async def subscribe(body: SubscribeIn, newsletter: NewsletterDep) -> DetailOut:
    return DetailOut(detail=await newsletter.subscribe(body.email))


@letters.get("/confirm", response_class=RedirectResponse, status_code=303)
async def confirm(newsletter: NewsletterDep, token: Annotated[str, Query()] = "") -> RedirectResponse:
    return RedirectResponse(await newsletter.confirm(token), status_code=303)


@letters.get("/unsubscribe", response_class=RedirectResponse, status_code=303)
async def unsubscribe(newsletter: NewsletterDep, token: Annotated[str, Query()] = "") -> RedirectResponse:
    return RedirectResponse(await newsletter.unsubscribe(token), status_code=303)


ROUTERS = (articles, letters)
