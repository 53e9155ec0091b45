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

    @on(s.CommentPinned.event_type)
    async def release_earnings(session: AsyncSession, data: s.CommentPinned, _: Envelope) -> None:
        payment = await session.scalar(select(Payment).where(Payment.bid_id == data.bid_id).with_for_update())
        if payment is None or not await settlement.release(session, payment, data.pinned_at):
            log.warning("pin of bid %s releases nothing (payment %s)", data.bid_id,
                        payment.status if payment else "missing")

    @on(i.UserRegistered.event_type)
    @on(i.UserUpdated.event_type)
    async def remember_user(session: AsyncSession, data: i.UserRegistered, _: Envelope) -> None:
        values = {"name": data.name, "email": data.email, "role": data.role}
        await session.execute(insert(User).values(id=data.user_id, **values)
                              .on_conflict_do_update(index_elements=["id"], set_=values))
