"""Content's tables (its own database)."""

import uuid
from datetime import date, datetime

from pinbid_kit.tables import KitTables
from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Index,
    Integer,
    String,
    Text,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, UUID
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(KitTables, DeclarativeBase):
    """Content's tables, the kit's outbox, inbox and mail queue among them."""


class ArticleRow(Base):
    """An article as last read from its file; `views` belongs to the database and survives every sync."""

    __tablename__ = "articles"
    __table_args__ = (
        CheckConstraint("type IN ('md', 'mdx', 'html')", name="articles_type"),
        CheckConstraint("views >= 0", name="articles_views"),
        Index("articles_listing", "published_at", "slug", postgresql_where=text("published")),
        Index("articles_featured", "published_at", postgresql_where=text("published AND featured")),
        # substring search (LIKE '%term%') over title, excerpt, tags and body; migration 0002 adds pg_trgm
        Index("articles_search_trgm", "search_text", postgresql_using="gin",
              postgresql_ops={"search_text": "gin_trgm_ops"}),
    )

    slug: Mapped[str] = mapped_column(String(120), primary_key=True)
    type: Mapped[str] = mapped_column(String(8))
    title: Mapped[str] = mapped_column(String(200))
    author: Mapped[str] = mapped_column(String(100))
    published_at: Mapped[date] = mapped_column(Date)
    excerpt: Mapped[str] = mapped_column(String(500))
    category: Mapped[str] = mapped_column(String(60))
    tags: Mapped[list[str]] = mapped_column(ARRAY(String(40)))
    featured: Mapped[bool] = mapped_column(Boolean)
    image_url: Mapped[str | None] = mapped_column(String(500))
    published: Mapped[bool] = mapped_column(Boolean)
    read_time: Mapped[int] = mapped_column(Integer)
    content: Mapped[str] = mapped_column(Text)
    # the body as the page shows it (domain.articles.render_body): HTML parts and the demos between them
    body: Mapped[list[dict[str, str]]] = mapped_column(JSONB)
    faq: Mapped[list[dict[str, str]]] = mapped_column(JSONB)
    seo: Mapped[dict[str, str] | None] = mapped_column(JSONB)
    search_text: Mapped[str] = mapped_column(Text)
    source_hash: Mapped[str] = mapped_column(String(64))
    views: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class Subscriber(Base):
    __tablename__ = "subscribers"
    __table_args__ = (
        CheckConstraint("status IN ('PENDING', 'CONFIRMED', 'UNSUBSCRIBED')", name="subscribers_status"),
    )

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    status: Mapped[str] = mapped_column(String(16))
    confirm_token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    confirm_expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_mail_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    unsubscribed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
