"""Notifications and their preferences; notices made from other services' events."""

import uuid
from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from pinbid_kit.clock import replayed
from pinbid_kit.db import Database
from pinbid_kit.events import EventData
from sqlalchemy import func, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from . import events_out
from .domain.notices import DEFAULT_PREFERENCES, ROLE_CATEGORIES, Category, Notice, wanted
from .models import Notification, NotificationPreferences, User
from .notice_mail import NoticeMailQueue, Recipient

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


@dataclass(frozen=True)
class Told:
    """The notices one event or job run causes, where their events go, and the moment they are dated (a replayed
    past; None: the database's time when each is made)."""
    events: list[EventData]
    notices: list[Notice]
    source_event_id: uuid.UUID | None
    moment: datetime | None = None


class Notifier:
    """Turns notices into the users' notifications, their events for the live stream, and (when the user's
    preferences allow) mails. Runs inside the transaction of the event(s) or reminder that caused them."""

    def __init__(self, mails: NoticeMailQueue):
        self.mails = mails

    async def deliver(self, session: AsyncSession, events: list[EventData], notices: list[Notice],
                      source_event_id: uuid.UUID | None) -> list[Notification]:
        """The notices one event or job run causes: their notifications and mails; their events are added to the
        use case's `events`, which it writes once."""
        return await self.deliver_all(session, [Told(events, notices, source_event_id, replayed())])

    async def deliver_all(self, session: AsyncSession, told: list[Told]) -> list[Notification]:
        """The notices of several causes (a burst of events) at once: one read of their users, one insert, their
        mails; each cause's notices' events added to its own `events`, each with the user's unread count right
        after its own notice."""
        recipients = await _recipients(session, {notice.user_id for t in told for notice in t.notices})
        made = [(t, notice) for t in told for notice in t.notices if notice.user_id in recipients]
        notes = await _insert_all(session, made)
        mails: list[tuple[Notice, Recipient, uuid.UUID]] = []
        for (t, notice), (note, unread_count) in zip(made, notes, strict=True):
            t.events.append(events_out.notification_created(note, unread_count))
            recipient = recipients[notice.user_id]
            # demo accounts' addresses reach nobody, and the demo's background bidding would mail them forever
            if not recipient.is_demo and wanted(notice, recipient.preferences):
                mails.append((notice, recipient, notice.topic or note.id))
        await self.mails.add_all(session, mails)
        return [note for note, _ in notes]


async def _recipients(session: AsyncSession, user_ids: set[uuid.UUID]) -> dict[uuid.UUID, Recipient]:
    if not user_ids:
        return {}
    chosen = [getattr(NotificationPreferences, column) for column in _COLUMNS.values()]
    rows = await session.execute(
        select(User.id, User.name, User.email, User.is_demo, NotificationPreferences.user_id, *chosen)
        .outerjoin(NotificationPreferences, NotificationPreferences.user_id == User.id)
        .where(User.id.in_(user_ids)))
    return {row[0]: Recipient(row[0], row[1], row[2], row[3], dict(DEFAULT_PREFERENCES) if row[4] is None
                              else dict(zip(_COLUMNS, row[5:], strict=True)))
            for row in rows}


# in the notices' order (each dated by the database's clock as it is made, so a burst's notices keep their order);
# each row's unread count as the statement's snapshot sees it, which holds the transaction's earlier notices but
# none of this statement's
_INSERT_ALL = text(
    "INSERT INTO notifications (id, user_id, kind, title, message, link, source_event_id, created_at) "
    "SELECT n.id, n.user_id, n.kind, n.title, n.message, n.link, n.source_event_id, coalesce(n.at, clock_timestamp()) "
    "FROM unnest(CAST(:id AS uuid[]), CAST(:user_id AS uuid[]), CAST(:kind AS text[]), CAST(:title AS text[]), "
    "CAST(:message AS text[]), CAST(:link AS text[]), CAST(:source_event_id AS uuid[]), CAST(:at AS timestamptz[])) "
    "WITH ORDINALITY AS n(id, user_id, kind, title, message, link, source_event_id, at, position) ORDER BY n.position "
    "RETURNING id, created_at, (SELECT count(*) FROM notifications AS u "
    "WHERE u.user_id = notifications.user_id AND u.read_at IS NULL)"
)


async def _insert_all(session: AsyncSession, made: list[tuple[Told, Notice]]) -> list[tuple[Notification, int]]:
    """The notices' rows, each with its user's unread count right after it, in one statement."""
    if not made:
        return []
    notes = [Notification(id=uuid.uuid4(), user_id=notice.user_id, kind=notice.kind, title=notice.title,
                          message=notice.message, link=notice.link, source_event_id=t.source_event_id)
             for t, notice in made]
    values = {column: [getattr(note, column) for note in notes]
              for column in ("id", "user_id", "kind", "title", "message", "link", "source_event_id")}
    values["at"] = [t.moment for t, _ in made]
    returned = {row[0]: (row[1], row[2]) for row in await session.execute(_INSERT_ALL, values)}
    counted: list[tuple[Notification, int]] = []
    earlier: Counter[uuid.UUID] = Counter()  # this statement's notices of the same user before this one
    for note in notes:
        note.created_at, unread_before = returned[note.id]
        earlier[note.user_id] += 1
        counted.append((note, unread_before + earlier[note.user_id]))
    return counted
