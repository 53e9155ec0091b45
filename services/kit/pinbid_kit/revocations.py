"""Which tokens were revoked: the lowest valid token version per user.

Identity publishes `identity.user.sessions_revoked` when a password (or email) change revokes a user's
earlier tokens. Every process that verifies tokens keeps the versions in memory (fed by a broadcast
subscription, so every replica learns at once) and, so that a restart does not forget them, a service
also records them in its own `token_revocations` table through its durable queue and reads that table
back when it starts. The gateway has no database: it asks identity at start instead."""

import uuid
from collections.abc import Awaitable, Callable

from sqlalchemy import Column, DateTime, Integer, MetaData, Table, func, select
from sqlalchemy.dialects.postgresql import UUID, insert
from sqlalchemy.ext.asyncio import AsyncSession

from .db import Database
from .envelope import Envelope
from .events.identity import SessionsRevoked
from .inbox import Consumers

EVENT = SessionsRevoked.event_type


class Revocations:
    def __init__(self) -> None:
        self._min_version: dict[uuid.UUID, int] = {}

    def apply(self, user_id: uuid.UUID, token_version: int) -> None:
        if token_version > self._min_version.get(user_id, 0):
            self._min_version[user_id] = token_version

    def is_revoked(self, user_id: uuid.UUID, token_version: int) -> bool:
        return token_version < self._min_version.get(user_id, 0)

    def forget(self) -> None:
        """As after a restart (tests)."""
        self._min_version.clear()

    async def on_event(self, envelope: Envelope, _headers: dict[str, str]) -> None:
        data = SessionsRevoked.model_validate(envelope.data)
        self.apply(data.user_id, data.token_version)


def add_revocations_table(metadata: MetaData) -> Table:
    return Table(
        "token_revocations",
        metadata,
        Column("user_id", UUID(as_uuid=True), primary_key=True),
        Column("token_version", Integer, nullable=False),
        Column("revoked_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
    )


class RevocationStore:
    """A service's `token_revocations` table: written by its durable consumer, read at start."""

    def __init__(self, table: Table, db: Database, revocations: Revocations):
        self.table = table
        self.db = db
        self.revocations = revocations

    async def record(self, session: AsyncSession, data: SessionsRevoked, _envelope: Envelope) -> None:
        statement = insert(self.table).values(user_id=data.user_id, token_version=data.token_version)
        await session.execute(statement.on_conflict_do_update(
            index_elements=[self.table.c.user_id],
            set_={"token_version": func.greatest(self.table.c.token_version, statement.excluded.token_version),
                  "revoked_at": func.now()}))
        self.revocations.apply(data.user_id, data.token_version)

    async def load(self) -> None:
        async with self.db.transaction() as session:
            for user_id, version in await session.execute(select(self.table.c.user_id, self.table.c.token_version)):
                self.revocations.apply(user_id, version)


def keep_revocations(consumers: Consumers, table: Table, revocations: Revocations) -> Callable[[], Awaitable[None]]:
    """Records revocations through the service's durable queue; returns the loader to run at start."""
    store = RevocationStore(table, consumers.db, revocations)
    consumers.on(EVENT, name=f"{consumers.service}.record_revocation")(store.record)
    return store.load
