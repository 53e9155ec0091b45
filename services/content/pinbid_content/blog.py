"""The blog's application layer: the folder sync and the public reads. Each public method is one transaction."""

import logging
import math
from dataclasses import dataclass
from typing import Any

from pinbid_kit.db import Database
from pinbid_kit.errors import NotFound
from sqlalchemy import Row, func, literal_column, select, text, update
from sqlalchemy.dialects.postgresql import insert

from .domain.articles import SLUG, Article, like_pattern, search_terms
from .library import FolderScan
from .models import ArticleRow

log = logging.getLogger("pinbid.content.blog")
SYNC_LOCK = 724_301  # advisory lock: replicas that start together sync one after the other
NOT_FOUND = "Blog post not found."
FEATURED = 2
_t = ArticleRow.__table__.c
SUMMARY = (_t.slug, _t.type, _t.title, _t.author, _t.published_at, _t.excerpt, _t.category, _t.tags, _t.featured,
           _t.image_url, _t.views, _t.read_time)
FULL = SUMMARY + (_t.content, _t.body, _t.faq, _t.seo)


@dataclass(frozen=True)
class SyncResult:
    created: int
    updated: int
    unpublished: int
    problems: int


@dataclass(frozen=True)
class Page:
    articles: list[Row[Any]]
    total: int
    total_pages: int
    page: int


def _row_values(article: Article) -> dict[str, Any]:
    return {
        "slug": article.slug, "type": article.type, "title": article.title, "author": article.author,
        "published_at": article.published_at, "excerpt": article.excerpt, "category": article.category,
        "tags": list(article.tags), "featured": article.featured, "image_url": article.image_url,
        "published": article.published, "read_time": article.read_time, "content": article.content,
        "body": list(article.body),
        "faq": [{"question": f.question, "answer": f.answer} for f in article.faq],
        "seo": {"title": article.seo.title, "description": article.seo.description} if article.seo else None,
        "search_text": article.search_text, "source_hash": article.source_hash,
    }


class Blog:
    def __init__(self, db: Database):
        self.db = db

    async def sync(self, scan: FolderScan) -> SyncResult:
        """Upsert every article by slug (views untouched) and unpublish those whose file is gone.

        When a file could not be read, nothing is unpublished: a typo must not take a live article offline."""
        created = updated = unpublished = 0
        async with self.db.transaction() as session:
            await session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": SYNC_LOCK})
            for article in scan.articles:
                values = _row_values(article)
                statement = insert(ArticleRow).values(**values)
                changed = (ArticleRow.source_hash != statement.excluded.source_hash) | (
                    ArticleRow.published != statement.excluded.published)
                statement = statement.on_conflict_do_update(
                    index_elements=[ArticleRow.slug],
                    set_={**{k: statement.excluded[k] for k in values if k != "slug"}, "updated_at": func.now()},
                    where=changed,
                ).returning(literal_column("xmax = 0").label("inserted"))
                inserted = await session.scalar(statement)
                if inserted is True:
                    created += 1
                elif inserted is False:
                    updated += 1
            if not scan.problems:
                present = [a.slug for a in scan.articles]
                result = await session.execute(
                    update(ArticleRow).where(ArticleRow.published, ArticleRow.slug.not_in(present))
                    .values(published=False, updated_at=func.now()))
                unpublished = result.rowcount
        outcome = SyncResult(created, updated, unpublished, len(scan.problems))
        if created or updated or unpublished:
            log.info("articles synced: %d new, %d changed, %d unpublished", created, updated, unpublished)
        return outcome

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
