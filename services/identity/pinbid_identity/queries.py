"""Reads that serve the operator's desk: the user search and the audit log."""

import uuid
from dataclasses import dataclass
from datetime import datetime

from pinbid_kit.db import Database
from sqlalchemy import case, func, or_, select

from .models import AuditEntry, User

SEARCH_LIMIT = 50
AUDIT_LIMIT = 100
USER_OBJECT = "user"  # the object type of an action on an account (suspend, restore)


@dataclass(frozen=True)
class AuditView:
    """An audit entry with the people it names, as they are now: the operator, and the user acted on when the
    object is a user (None for another object, or an id identity does not know)."""

    entry: AuditEntry
    operator: User | None
    user: User | None


def _user_id(entry: AuditEntry) -> uuid.UUID | None:
    if entry.object_type != USER_OBJECT:
        return None
    try:
        return uuid.UUID(entry.object_id)
    except ValueError:  # the log keeps whatever a service announced; a malformed id names nobody
        return None


class OpsQueries:
    def __init__(self, db: Database):
        self.db = db

    async def search_users(self, q: str | None) -> list[User]:
        """Users whose email or name contains `q` (any case; `%` and `_` are plain characters), prefix matches
        first, then the newest; without `q`, the newest users."""
        query = select(User)
        term = (q or "").strip().lower()
        if term:
            email, name = func.lower(User.email), func.lower(User.name)
            query = query.where(or_(email.contains(term, autoescape=True), name.contains(term, autoescape=True)))
            prefix = or_(email.startswith(term, autoescape=True), name.startswith(term, autoescape=True))
            query = query.order_by(case((prefix, 0), else_=1))
        query = query.order_by(User.created_at.desc(), User.id).limit(SEARCH_LIMIT)
        async with self.db.transaction() as session:
            return list(await session.scalars(query))

    async def audit(self, object_type: str | None = None, object_id: str | None = None,
                    before: datetime | None = None) -> list[AuditView]:
        """The newest entries first; `before` pages back (the `actedAt` of the last entry seen). Two statements: the
        page, then the users it names (operators and users acted on) by primary key."""
        query = select(AuditEntry)
        if object_type:
            query = query.where(AuditEntry.object_type == object_type)
        if object_id:
            query = query.where(AuditEntry.object_id == object_id)
        if before is not None:
            query = query.where(AuditEntry.acted_at < before)
        query = query.order_by(AuditEntry.acted_at.desc(), AuditEntry.id).limit(AUDIT_LIMIT)
        async with self.db.transaction() as session:
            entries = list(await session.scalars(query))
            named = {e.operator_id for e in entries} | {u for e in entries if (u := _user_id(e)) is not None}
            users = {u.id: u for u in await session.scalars(select(User).where(User.id.in_(named)))} if named else {}
        return [AuditView(entry=e, operator=users.get(e.operator_id),
                          user=users.get(user_id) if (user_id := _user_id(e)) else None) for e in entries]

