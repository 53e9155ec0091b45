"""Notifications and their preferences; notices made from other services' events."""

import uuid

from pinbid_kit.clock import replayed
from pinbid_kit.db import Database
from pinbid_kit.events import EventData
from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from . import events_out
from .domain.notices import DEFAULT_PREFERENCES, ROLE_CATEGORIES, Category, Notice, wanted
from .models import Notification, NotificationPreferences, User
from .notice_mail import NoticeMailQueue

RECENT = 50
_COLUMNS = {Category.NEW_BIDS: "new_bids", Category.APPROVALS: "approvals", Category.PAYOUTS: "payouts",
            Category.MARKETING: "marketing"}


def preference_columns(preferences: dict[Category, bool]) -> dict[str, bool]:
    return {_COLUMNS[category]: value for category, value in preferences.items()}


def as_dict(row: NotificationPreferences | None) -> dict[Category, bool]:
    if row is None:
        return dict(DEFAULT_PREFERENCES)
    return {category: getattr(row, column) for category, column in _COLUMNS.items()}


async def unread(session: AsyncSession, user_id: uuid.UUID) -> int:
    return await session.scalar(select(func.count()).select_from(Notification)
                                .where(Notification.user_id == user_id, Notification.read_at.is_(None)))


class Notifications:
    def __init__(self, db: Database):
        self.db = db

    async def recent(self, user_id: uuid.UUID) -> list[Notification]:
        async with self.db.transaction() as session:
            rows = await session.scalars(select(Notification).where(Notification.user_id == user_id)
                                         .order_by(Notification.created_at.desc()).limit(RECENT))
            return list(rows)

    async def unread_count(self, user_id: uuid.UUID) -> int:
        async with self.db.transaction() as session:
            return await unread(session, user_id)

    async def mark_read(self, user_id: uuid.UUID, ids: list[uuid.UUID] | None) -> int:
        """Marks the user's notices read (all of them when `ids` is None; ids of other users' notices change
        nothing) and answers the unread count after."""
        async with self.db.transaction() as session:
            mark = (update(Notification).where(Notification.user_id == user_id, Notification.read_at.is_(None))
                    .values(read_at=func.now()))
            if ids is not None:
                mark = mark.where(Notification.id.in_(ids))
            await session.execute(mark)
            return await unread(session, user_id)

    async def preferences(self, user_id: uuid.UUID) -> tuple[dict[Category, bool], tuple[Category, ...]]:
        """The user's preferences, and the categories that apply to the user's role."""
        async with self.db.transaction() as session:
            role = await session.scalar(select(User.role).where(User.id == user_id))
            return as_dict(await session.get(NotificationPreferences, user_id)), applicable(role)

    async def set_preferences(self, user_id: uuid.UUID, values: dict[Category, bool]
                              ) -> tuple[dict[Category, bool], tuple[Category, ...]]:
        async with self.db.transaction() as session:
            role = await session.scalar(select(User.role).where(User.id == user_id))
            row = await session.get(NotificationPreferences, user_id, with_for_update=True)
            if row is None:
                row = NotificationPreferences(user_id=user_id, **preference_columns(DEFAULT_PREFERENCES))
                session.add(row)
            for category, value in values.items():
                setattr(row, _COLUMNS[category], value)
            await session.flush()
            return as_dict(row), applicable(role)


def applicable(role: str | None) -> tuple[Category, ...]:
    return ROLE_CATEGORIES.get(role or "", tuple(Category))


class Notifier:
    """Turns a notice into the user's notification, its event for the live stream, and (when the user's
    preferences allow) a mail. Runs inside the transaction of the event or reminder that caused it."""

    def __init__(self, mails: NoticeMailQueue):
        self.mails = mails

    async def deliver(self, session: AsyncSession, events: list[EventData], notices: list[Notice],
                      source_event_id: uuid.UUID | None) -> list[Notification]:
        """The notices one event or job run causes: their notifications and mails; their events are added to the
        use case's `events`, which it writes once. Each event's unread count is the user's right after its own
        notice."""
        delivered: list[Notification] = []
        for notice in notices:
            found = (await session.execute(
                select(User, NotificationPreferences)
                .outerjoin(NotificationPreferences, NotificationPreferences.user_id == User.id)
                .where(User.id == notice.user_id))).first()
            if found is None:
                continue
            user, preferences = found
            note, unread_count = await _insert(session, notice, user.id, source_event_id)
            events.append(events_out.notification_created(note, unread_count))
            # demo accounts' addresses reach nobody, and the demo's background bidding would mail them forever
            if not user.is_demo and wanted(notice, as_dict(preferences)):
                await self.mails.add(session, notice, user, notice.topic or note.id)
            delivered.append(note)
        return delivered


async def _insert(session: AsyncSession, notice: Notice, user_id: uuid.UUID,
                  source_event_id: uuid.UUID | None) -> tuple[Notification, int]:
    """The notice's row, and the user's unread count right after it, in one statement. The count in RETURNING
    is read from the statement's own snapshot, which does not hold the row it inserts: hence the + 1 (the new
    notice is unread); the transaction's earlier notices are in it."""
    note = Notification(id=uuid.uuid4(), user_id=user_id, kind=notice.kind, title=notice.title,
                        message=notice.message, link=notice.link, source_event_id=source_event_id)
    values = {column: getattr(note, column) for column in ("id", "user_id", "kind", "title", "message", "link",
                                                            "source_event_id")}
    # a replayed past (the demo): the notice is dated when its cause happened; otherwise the database's time when
    # it is made (not the transaction's start: a burst's notices, one transaction, keep their order)
    values["created_at"] = moment if (moment := replayed()) is not None else func.clock_timestamp()
    unread_before = (select(func.count()).select_from(Notification)
                     .where(Notification.user_id == user_id, Notification.read_at.is_(None)).scalar_subquery())
    # the database's time, as for every notice
    note.created_at, unread_count = (await session.execute(
        insert(Notification).values(values).returning(Notification.created_at, unread_before + 1))).one()
    return note, unread_count
