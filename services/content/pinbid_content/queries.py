"""What the blog's public screens read: a page of articles (search and category), the featured ones, the
categories and one article (counting the read as a view). Each public method is one transaction."""

import math
from dataclasses import dataclass
from typing import Any

from pinbid_kit.db import Database
from pinbid_kit.errors import NotFound
from sqlalchemy import Row, func, select, update

from .domain.articles import SLUG, like_pattern, search_terms
from .models import ArticleRow

NOT_FOUND = "Blog post not found."
FEATURED = 2
_t = ArticleRow.__table__.c
SUMMARY = (_t.slug, _t.type, _t.title, _t.author, _t.published_at, _t.excerpt, _t.category, _t.tags, _t.featured,
           _t.image_url, _t.views, _t.read_time)
FULL = SUMMARY + (_t.content, _t.body, _t.faq, _t.seo)


@dataclass(frozen=True)
class Page:
    articles: list[Row[Any]]
    total: int
    total_pages: int
    page: int


class BlogQueries:
    def __init__(self, db: Database):
        self.db = db

    async def page(self, *, q: str | None, category: str | None, page: int, limit: int) -> Page:
        conditions = [ArticleRow.published]
        if category:
            conditions.append(ArticleRow.category == category)
        # search_text is lowercased on the way in, so a plain LIKE on lowercased terms is case-insensitive
        conditions += [ArticleRow.search_text.like(like_pattern(term), escape="\\") for term in search_terms(q)]
        async with self.db.transaction() as session:
            # one scan gives the page and the total; only a page past the end needs a separate count
            rows = (await session.execute(
                select(*SUMMARY, func.count().over().label("total")).where(*conditions)
                .order_by(ArticleRow.published_at.desc(), ArticleRow.slug)
                .limit(limit).offset((page - 1) * limit))).all()
            if rows:
                total = rows[0].total
            else:
                total = await session.scalar(select(func.count()).select_from(ArticleRow).where(*conditions)) or 0
        return Page(articles=list(rows), total=total, total_pages=math.ceil(total / limit), page=page)

    async def featured(self) -> list[Row[Any]]:
        async with self.db.transaction() as session:
            return list((await session.execute(
                select(*SUMMARY).where(ArticleRow.published, ArticleRow.featured)
                .order_by(ArticleRow.published_at.desc(), ArticleRow.slug).limit(FEATURED))).all())

    async def categories(self) -> list[str]:
        async with self.db.transaction() as session:
            return list(await session.scalars(
                select(ArticleRow.category).where(ArticleRow.published).distinct().order_by(ArticleRow.category)))

    async def read(self, slug: str) -> Row[Any]:
        """The article, counting this read as one view (a single atomic UPDATE)."""
        if len(slug) > 120 or not SLUG.match(slug):
            raise NotFound(NOT_FOUND)
        async with self.db.transaction() as session:
            row = (await session.execute(
                update(ArticleRow).where(ArticleRow.slug == slug, ArticleRow.published)
                .values(views=ArticleRow.views + 1).returning(*FULL))).first()
        if row is None:
            raise NotFound(NOT_FOUND)
        return row
