"""Content's HTTP request and response models: the blog and the newsletter."""

from datetime import date
from typing import Annotated, Any, Literal

from pinbid_kit.api import ApiModel, PlainText
from pydantic import Field
from sqlalchemy import Row

from .domain.articles import CATEGORY


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


class HtmlPart(ApiModel):
    kind: Literal["html"]
    html: str = Field(description="sanitised HTML")


class DemoPart(ApiModel):
    kind: Literal["formula", "steps"] = Field(description="an mdx article's <FormulaDemo /> or <StepsDemo /> line")


BodyPart = Annotated[HtmlPart | DemoPart, Field(discriminator="kind")]


class ArticleOut(ArticleSummary):
    content: str = Field(description="md and mdx: the Markdown source without front matter; html: sanitised HTML")
    body: list[BodyPart] = Field(description="what the page shows: the content as sanitised HTML, and an mdx "
                                             "article's demos between its parts")
    faq: list[FaqOut]
    seo: SeoOut | None

    @classmethod
    def of(cls, row: Row[Any]) -> "ArticleOut":
        summary = ArticleSummary.of(row).model_dump()
        return cls(**summary, content=row.content, body=row.body, faq=[FaqOut(**item) for item in row.faq],
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
