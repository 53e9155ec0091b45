"""Tables every service has in its own database: the outbox, the inbox and the mail queue."""

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Identity,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    func,
)
from sqlalchemy.dialects.postgresql import JSONB, UUID


def add_messaging_tables(metadata: MetaData) -> None:
    """Adds `outbox`, `inbox` and `mail_queue` to a service's metadata (its Alembic migrations create them)."""
    outbox = Table(
        "outbox",
        metadata,
        Column("seq", BigInteger, Identity(), primary_key=True),
        Column("id", UUID(as_uuid=True), nullable=False, unique=True),
        Column("type", String(200), nullable=False),
        Column("envelope", JSONB, nullable=False),
        Column("headers", JSONB, nullable=False, server_default="{}"),
        Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
        Column("sent_at", DateTime(timezone=True)),
        Column("attempts", Integer, nullable=False, server_default="0"),
        Column("next_attempt_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
        Column("last_error", Text),
    )
    Index("outbox_unsent", outbox.c.seq, postgresql_where=outbox.c.sent_at.is_(None))
    Table(
        "inbox",
        metadata,
        Column("event_id", UUID(as_uuid=True), nullable=False),
        Column("handler", String(200), nullable=False),
        Column("event_type", String(200), nullable=False),
        Column("processed_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
        PrimaryKeyConstraint("event_id", "handler"),
    )
    mail_queue = Table(
        "mail_queue",
        metadata,
        Column("id", BigInteger, Identity(), primary_key=True),
        Column("to_address", String(320), nullable=False),
        Column("subject", String(300), nullable=False),
        Column("body", Text, nullable=False),
        Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
        Column("sent_at", DateTime(timezone=True)),
        Column("attempts", Integer, nullable=False, server_default="0"),
        Column("next_attempt_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
        Column("last_error", Text),
    )
    Index("mail_queue_unsent", mail_queue.c.id, postgresql_where=mail_queue.c.sent_at.is_(None))
