"""Reads that serve the operator's desk: the user search and the audit log."""

from datetime import datetime

from pinbid_kit.db import Database
from sqlalchemy import case, func, or_, select

from .models import AuditEntry, User

SEARCH_LIMIT = 50
AUDIT_LIMIT = 100


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
                    before: datetime | None = None) -> list[AuditEntry]:
        """The newest entries first; `before` pages back (the `actedAt` of the last entry seen)."""
        query = select(AuditEntry)
        if object_type:
            query = query.where(AuditEntry.object_type == object_type)
        if object_id:
            query = query.where(AuditEntry.object_id == object_id)
        if before is not None:
            query = query.where(AuditEntry.acted_at < before)
        query = query.order_by(AuditEntry.acted_at.desc(), AuditEntry.id).limit(AUDIT_LIMIT)
        async with self.db.transaction() as session:
            return list(await session.scalars(query))

