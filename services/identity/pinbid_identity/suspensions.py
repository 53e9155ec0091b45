"""Operators suspend and restore accounts. Each is a once-only change of the user's status; a suspension also
revokes every token of the user (the token version goes up, SessionsRevoked tells every process), and both
tell the user why and announce the operator's action for the audit log, in the same transaction."""

import uuid

from pinbid_kit import outbox
from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from pinbid_kit.errors import Conflict, Forbidden, NotFound
from pinbid_kit.events import EventData
from sqlalchemy import select, update

from . import SERVICE, events_out
from .domain import notices
from .domain.accounts import ACTIVE, OPERATOR, SUSPENDED
from .models import User
from .notifications import Notifier


class Suspensions:
    def __init__(self, db: Database, notifier: Notifier, clock: Clock = utcnow):
        self.db = db
        self.notifier = notifier
        self.clock = clock

    async def suspend(self, operator_id: uuid.UUID, user_id: uuid.UUID, reason: str) -> User:
        now = self.clock()
        async with self.db.transaction() as session:
            user = await session.scalar(
                update(User)
                .where(User.id == user_id, User.status == ACTIVE, User.role != OPERATOR)
                .values(status=SUSPENDED, suspended_reason=reason, suspended_at=now,
                        token_version=User.token_version + 1, tokens_revoked_at=now)
                .returning(User).execution_options(populate_existing=True))
            if user is None:
                await self._why_not(user_id, SUSPENDED)
            events: list[EventData] = [*events_out.user_suspended(user, operator_id, uuid.uuid4())]
            await self.notifier.deliver(session, events, [notices.account_suspended(user.id, reason)], None)
            await outbox.publish_all(session, events, source=SERVICE)
            return user

    async def restore(self, operator_id: uuid.UUID, user_id: uuid.UUID, reason: str) -> User:
        now = self.clock()
        async with self.db.transaction() as session:
            user = await session.scalar(
                update(User)
                .where(User.id == user_id, User.status == SUSPENDED)
                .values(status=ACTIVE, suspended_reason=None, suspended_at=None)
                .returning(User).execution_options(populate_existing=True))
            if user is None:
                await self._why_not(user_id, ACTIVE)
            events: list[EventData] = [*events_out.user_restored(user, operator_id, uuid.uuid4(), reason, now)]
            await self.notifier.deliver(session, events, [notices.account_restored(user.id, reason)], None)
            await outbox.publish_all(session, events, source=SERVICE)
            return user

    async def _why_not(self, user_id: uuid.UUID, wanted: str) -> None:
        async with self.db.autocommit() as conn:
            row = (await conn.execute(select(User.role, User.status).where(User.id == user_id))).first()
        if row is None:
            raise NotFound("No such user.")
        if row.role == OPERATOR:
            raise Forbidden("Operator accounts cannot be suspended here.", code="operator_account")
        if wanted == SUSPENDED:
            raise Conflict("This account is already suspended.", code="already_suspended")
        raise Conflict("This account is not suspended.", code="not_suspended")
