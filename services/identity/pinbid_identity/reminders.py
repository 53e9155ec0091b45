"""Reminders before a window closes: the pay window (to the brand) and the pin deadline (to the creator).
Scheduled by the event that opens the window, cancelled by the one that closes it, fired once by a job."""

import uuid
from datetime import datetime

from pinbid_kit import outbox
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.events import EventData
from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE
from .domain import notices
from .domain.notices import Notice
from .models import Reminder
from .notifications import Notifier

PAYMENT = "payment.reminder"
PIN = "pin.reminder"


async def schedule(session: AsyncSession, kind: str, subject_id: uuid.UUID, user_id: uuid.UUID, due_at: datetime,
                   closes_at: datetime, amount_cents: int | None = None, currency: str | None = None) -> None:
    """Idempotent: a redelivered event, or a window already closed (its cancel arrived first), changes nothing."""
    await session.execute(insert(Reminder).values(
        id=uuid.uuid4(), kind=kind, subject_id=subject_id, user_id=user_id, due_at=due_at, closes_at=closes_at,
        amount_cents=amount_cents, currency=currency).on_conflict_do_nothing(constraint="reminders_kind_subject"))


async def cancel(session: AsyncSession, kind: str, subject_id: uuid.UUID) -> None:
    """The window closed (paid, expired, pinned, refunded). Leaves a cancelled row when the reminder was not
    scheduled yet, so a late scheduling event cannot bring it back."""
    statement = insert(Reminder).values(id=uuid.uuid4(), kind=kind, subject_id=subject_id, cancelled_at=func.now())
    await session.execute(statement.on_conflict_do_update(
        constraint="reminders_kind_subject", set_={"cancelled_at": func.coalesce(Reminder.cancelled_at, func.now())},
        where=Reminder.fired_at.is_(None)))


def notice_of(reminder: Reminder) -> Notice:
    if reminder.kind == PAYMENT:
        return notices.payment_reminder(reminder.user_id, reminder.subject_id, reminder.amount_cents,
                                        reminder.currency, reminder.closes_at)
    return notices.pin_reminder(reminder.user_id, reminder.subject_id, reminder.closes_at)


class Reminders:
    """The job: fires due reminders. Several replicas may run it at once: a due row is claimed with
    SKIP LOCKED and marked fired in the transaction that makes its notice."""

    def __init__(self, db: Database, notifier: Notifier, clock: Clock):
        self.db, self.notifier, self.clock = db, notifier, clock

    async def run_once(self, batch: int = 50) -> int:
        async with self.db.transaction() as session:
            due = list(await session.scalars(
                select(Reminder).where(Reminder.fired_at.is_(None), Reminder.cancelled_at.is_(None),
                                       Reminder.due_at <= self.clock())
                .order_by(Reminder.due_at).limit(batch).with_for_update(skip_locked=True)))
            fired = []
            for reminder in due:
                if reminder.closes_at <= self.clock():  # the job was away past the window: too late to remind
                    reminder.cancelled_at = self.clock()
                    continue
                reminder.fired_at = self.clock()
                fired.append(notice_of(reminder))
            events: list[EventData] = []
            await self.notifier.deliver(session, events, fired, None)
            await outbox.publish_all(session, events, source=SERVICE)
            return len(fired)
