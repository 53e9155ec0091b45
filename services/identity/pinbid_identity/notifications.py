"""Notifications and their preferences; notices made from other services' events."""

import uuid

from pinbid_kit.db import Database
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from .domain.notices import DEFAULT_PREFERENCES, Category, Notice, wanted
from .models import Notification, NotificationPreferences, User

RECENT = 50
_COLUMNS = {Category.NEW_BIDS: "new_bids", Category.APPROVALS: "approvals", Category.PAYOUTS: "payouts",
            Category.MARKETING: "marketing"}


def preference_columns(preferences: dict[Category, bool]) -> dict[str, bool]:
    return {_COLUMNS[category]: value for category, value in preferences.items()}


def as_dict(row: NotificationPreferences | None) -> dict[Category, bool]:
    if row is None:
        return dict(DEFAULT_PREFERENCES)
    return {category: getattr(row, column) for category, column in _COLUMNS.items()}

class Notifications:
    def __init__(self, db: Database):
        self.db = db

    async def recent(self, user_id: uuid.UUID) -> list[Notification]:
        async with self.db.transaction() as session:
            rows = await session.scalars(select(Notification).where(Notification.user_id == user_id)
                                         .order_by(Notification.created_at.desc()).limit(RECENT))
            return list(rows)

    async def preferences(self, user_id: uuid.UUID) -> dict[Category, bool]:
        async with self.db.transaction() as session:
            return as_dict(await session.get(NotificationPreferences, user_id))

    async def set_preferences(self, user_id: uuid.UUID, values: dict[Category, bool]) -> dict[Category, bool]:
        async with self.db.transaction() as session:
            row = await session.get(NotificationPreferences, user_id, with_for_update=True)
            if row is None:
                row = NotificationPreferences(user_id=user_id, **preference_columns(DEFAULT_PREFERENCES))
                session.add(row)
            for category, value in values.items():
                setattr(row, _COLUMNS[category], value)
            await session.flush()
            return as_dict(row)

async def deliver(session: AsyncSession, notice: Notice, source_event_id: uuid.UUID) -> bool:
    """Store the notice if its user exists and wants this category. Runs inside the event's transaction."""

    if await session.get(User, notice.user_id) is None:
        return False
    preferences = as_dict(await session.get(NotificationPreferences, notice.user_id))
    if not wanted(notice, preferences):
        return False
    session.add(Notification(user_id=notice.user_id, kind=notice.kind, title=notice.title, message=notice.message,
                             source_event_id=source_event_id))
    return True
