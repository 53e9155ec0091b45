"""What payments does with other services' events: module-level handlers in one map (`HANDLERS`, event type ->
its handlers), as the routes are module-level. `register` binds them to the service's dependencies; each runs in
its own transaction (the inbox's), collects the events it causes, and writes them once when it is done."""

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial

from pinbid_kit import outbox
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import EventData
from pinbid_kit.events import identity as i
from pinbid_kit.events import marketplace as m
from pinbid_kit.events import social as s
from pinbid_kit.inbox import Consumers
from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, settlement
from .models import Payment, User
from .payment_requests import PaymentRequests

log = logging.getLogger("pinbid.payments.handlers")


@dataclass(frozen=True)
class Dependencies:
    requests: PaymentRequests


Events = settlement.Events
Handler = Callable[[AsyncSession, EventData, Events, Dependencies], Awaitable[None]]


async def request_payment(session: AsyncSession, data: m.BidApproved, events: Events, deps: Dependencies) -> None:
    await deps.requests.open(session, events, data)


async def payment_of(session: AsyncSession, bid_id) -> Payment | None:
    return await session.scalar(select(Payment).where(Payment.bid_id == bid_id).with_for_update())


async def first_stage(session: AsyncSession, data: s.CommentPinned, events: Events, _: Dependencies) -> None:
    payment = await payment_of(session, data.bid_id)
    released = payment is not None and await settlement.pinned(
        session, events, payment, data.pinned_at, awaits_acceptance=data.awaits_acceptance)
    if not released and not data.awaits_acceptance:
        log.warning("pin of bid %s releases nothing (payment %s)", data.bid_id,
                    payment.status if payment else "missing")


async def accepted(session: AsyncSession, data: s.PlacementAccepted, events: Events, _: Dependencies) -> None:
    payment = await payment_of(session, data.bid_id)
    if payment is not None:
        await settlement.accepted(session, events, payment, data.accepted_at)


async def disputed(session: AsyncSession, data: s.PlacementDisputed, events: Events, _: Dependencies) -> None:
    payment = await payment_of(session, data.bid_id)
    if payment is not None:
        await settlement.disputed(session, payment, data.dispute_id, data.reported_at)


async def decided(session: AsyncSession, data: s.DisputeDecided, events: Events, _: Dependencies) -> None:
    payment = await payment_of(session, data.bid_id)
    if payment is None:
        log.warning("decision %s on bid %s without a payment", data.dispute_id, data.bid_id)
        return
    await settlement.decided(session, events, payment, dispute_id=data.dispute_id, outcome=data.outcome,
                             at=data.decided_at)


async def day_kept(session: AsyncSession, data: s.PlacementKept, events: Events, _: Dependencies) -> None:
    payment = await payment_of(session, data.bid_id)
    if payment is not None:
        await settlement.kept(session, events, payment, days_kept=data.days_kept, duration_days=data.duration_days,
                              at=data.checked_at)


async def last_stage(session: AsyncSession, data: s.PlacementCompleted, events: Events, _: Dependencies) -> None:
    payment = await payment_of(session, data.bid_id)
    if payment is not None:
        await settlement.completed(session, events, payment, data.completed_at)


async def ended_early(session: AsyncSession, data: s.CommentUnpinned, events: Events, _: Dependencies) -> None:
    payment = await payment_of(session, data.bid_id)
    if payment is not None:
        await settlement.end_early(session, payment, at=data.unpinned_at, reason=data.reason)


async def remember_user(session: AsyncSession, data: i.UserRegistered, events: Events, _: Dependencies) -> None:
    values = {"name": data.name, "email": data.email, "role": data.role}
    await session.execute(insert(User).values(id=data.user_id, **values)
                          .on_conflict_do_update(index_elements=["id"], set_=values))


HANDLERS: dict[str, list[Handler]] = {
    m.BidApproved.event_type: [request_payment],
    s.CommentPinned.event_type: [first_stage],
    s.PlacementAccepted.event_type: [accepted],
    s.PlacementDisputed.event_type: [disputed],
    s.DisputeDecided.event_type: [decided],
    s.PlacementKept.event_type: [day_kept],
    s.PlacementCompleted.event_type: [last_stage],
    s.CommentUnpinned.event_type: [ended_early],
    i.UserRegistered.event_type: [remember_user],
    i.UserUpdated.event_type: [remember_user],
}


async def _handle(handler: Handler, deps: Dependencies, session: AsyncSession, data: EventData, _: Envelope) -> None:
    """One handler's unit of work: what it causes, written once in its transaction."""
    events: Events = []
    await handler(session, data, events, deps)
    await outbox.publish_all(session, events, source=SERVICE)


def register(consumers: Consumers, deps: Dependencies) -> None:
    """Each handler under its own name (`payments.<function>`): the inbox remembers what each one handled."""
    for event_type, handlers in HANDLERS.items():
        for handler in handlers:
            consumers.on(event_type, f"{SERVICE}.{handler.__name__}")(partial(_handle, handler, deps))
