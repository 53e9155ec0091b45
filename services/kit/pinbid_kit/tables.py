"""Tables every service has in its own database: the outbox, the inbox and the mail queue. A service's
`DeclarativeBase` gets them by mixing in `KitTables`."""

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
from sqlalchemy.orm import DeclarativeBase

from .revocations import add_revocations_table


class KitTables:
    """Mixed into a service's declarative base: its metadata gets the messaging tables as the base is made, and
    `token_revocations` too where it is asked for (`class Base(KitTables, DeclarativeBase, revocations=True)`)."""

    def __init_subclass__(cls, revocations: bool = False, **kw: object) -> None:
        super().__init_subclass__(**kw)
        if DeclarativeBase in cls.__bases__:  # the base itself, not the service's mapped classes
            add_messaging_tables(cls.metadata)
            if revocations:
                add_revocations_table(cls.metadata)


def _delivery_columns() -> list[Column]:
    """What the outbox and the mail queue both keep to deliver a row: when it came, was sent, the retries."""
    return [
        Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
        Column("sent_at", DateTime(timezone=True)),
        Column("attempts", Integer, nullable=False, server_default="0"),
        Column("next_attempt_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
        Column("last_error", Text),
    ]


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
        *_delivery_columns(),
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
        *_delivery_columns(),
    )
    Index("mail_queue_unsent", mail_queue.c.id, postgresql_where=mail_queue.c.sent_at.is_(None))
