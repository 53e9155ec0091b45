"""What payments does with other services' events."""

import logging

from pinbid_kit.envelope import Envelope
from pinbid_kit.events import identity as i
from pinbid_kit.events import marketplace as m
from pinbid_kit.events import social as s
from pinbid_kit.inbox import Consumers
from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from . import settlement
from .models import Payment, User
from .payment_requests import PaymentRequests

log = logging.getLogger("pinbid.payments.handlers")


def register(consumers: Consumers, requests: PaymentRequests) -> None:
    on = consumers.on

    @on(m.BidApproved.event_type)
    async def request_payment(session: AsyncSession, data: m.BidApproved, _: Envelope) -> None:
        await requests.open(session, data)

    async def payment_of(session: AsyncSession, bid_id) -> Payment | None:
        return await session.scalar(select(Payment).where(Payment.bid_id == bid_id).with_for_update())

    @on(s.CommentPinned.event_type)
    async def first_stage(session: AsyncSession, data: s.CommentPinned, _: Envelope) -> None:
        payment = await payment_of(session, data.bid_id)
        released = payment is not None and await settlement.pinned(
            session, payment, data.pinned_at, awaits_acceptance=data.awaits_acceptance)
        if not released and not data.awaits_acceptance:
            log.warning("pin of bid %s releases nothing (payment %s)", data.bid_id,
                        payment.status if payment else "missing")

    @on(s.PlacementAccepted.event_type)
    async def accepted(session: AsyncSession, data: s.PlacementAccepted, _: Envelope) -> None:
        payment = await payment_of(session, data.bid_id)
        if payment is not None:
            await settlement.accepted(session, payment, data.accepted_at)

    @on(s.PlacementDisputed.event_type)
    async def disputed(session: AsyncSession, data: s.PlacementDisputed, _: Envelope) -> None:
        payment = await payment_of(session, data.bid_id)
        if payment is not None:
            await settlement.disputed(session, payment, data.dispute_id, data.reported_at)

    @on(s.DisputeDecided.event_type)
    async def decided(session: AsyncSession, data: s.DisputeDecided, _: Envelope) -> None:
        payment = await payment_of(session, data.bid_id)
        if payment is None:
            log.warning("decision %s on bid %s without a payment", data.dispute_id, data.bid_id)
            return
        await settlement.decided(session, payment, dispute_id=data.dispute_id, outcome=data.outcome,
                                 at=data.decided_at)

    @on(s.PlacementKept.event_type)
    async def day_kept(session: AsyncSession, data: s.PlacementKept, _: Envelope) -> None:
        payment = await payment_of(session, data.bid_id)
        if payment is not None:
            await settlement.kept(session, payment, days_kept=data.days_kept, duration_days=data.duration_days,
                                  at=data.checked_at)

    @on(s.PlacementCompleted.event_type)
    async def last_stage(session: AsyncSession, data: s.PlacementCompleted, _: Envelope) -> None:
        payment = await payment_of(session, data.bid_id)
        if payment is not None:
            await settlement.completed(session, payment, data.completed_at)

    @on(s.CommentUnpinned.event_type)
    async def ended_early(session: AsyncSession, data: s.CommentUnpinned, _: Envelope) -> None:
        payment = await payment_of(session, data.bid_id)
        if payment is not None:
            await settlement.end_early(session, payment, at=data.unpinned_at, reason=data.reason)

    @on(i.UserRegistered.event_type)
    @on(i.UserUpdated.event_type)
    async def remember_user(session: AsyncSession, data: i.UserRegistered, _: Envelope) -> None:
        values = {"name": data.name, "email": data.email, "role": data.role}
        await session.execute(insert(User).values(id=data.user_id, **values)
                              .on_conflict_do_update(index_elements=["id"], set_=values))
