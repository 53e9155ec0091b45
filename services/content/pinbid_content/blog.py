"""The blog's application layer: the folder sync (the articles kept as files, upserted into the database). The
public reads are in `queries.py`."""

import logging
from dataclasses import dataclass
from typing import Any

from pinbid_kit.db import Database
from sqlalchemy import func, literal_column, text, update
from sqlalchemy.dialects.postgresql import insert

from .domain.articles import Article
from .library import FolderScan
from .models import ArticleRow

log = logging.getLogger("pinbid.content.blog")
SYNC_LOCK = 724_301  # advisory lock: replicas that start together sync one after the other


@dataclass(frozen=True)
class SyncResult:
    created: int
    updated: int
    unpublished: int
    problems: int


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
