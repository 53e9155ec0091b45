"""The operator's desk for payments: refund one in full (what the desk reads is `queries.DeskQueries`). The refund is
ordered once (the payment row locked; a second order is 409) with its audit event in one transaction, then made at
once through the provider in another (the refund job makes it if the provider refuses, or if no connection comes
free: under fifty concurrent orders the pool may be busy, and the order is already safe). Each answer comes from
the last write that succeeded, never from a further read."""

import logging
import uuid

from pinbid_kit import outbox
from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from pinbid_kit.errors import Conflict, NotFound, ServiceUnavailable
from pinbid_kit.tokens import Principal
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, events_out, settlement
from .models import Earning, Payment
from .refunds import Refunds

log = logging.getLogger("pinbid.payments.operator_refunds")


class OperatorPayments:
    def __init__(self, db: Database, refunds: Refunds, clock: Clock = utcnow):
        self.db = db
        self.refunds = refunds
        self.clock = clock

    async def one(self, payment_id: uuid.UUID) -> tuple[Payment, int]:
        async with self.db.transaction() as session:
            payment = await session.get(Payment, payment_id)
            if payment is None:
                raise NotFound("There is no such payment.", code="payment_not_found")
            return payment, await _released(session, payment_id)

    async def refund(self, operator: Principal, payment_id: uuid.UUID, reason: str) -> tuple[Payment, int]:
        now = self.clock()
        async with self.db.transaction() as session:
            payment = await session.get(Payment, payment_id, with_for_update=True)
            if payment is None:
                raise NotFound("There is no such payment.", code="payment_not_found")
            if payment.status == "REFUNDED" or payment.full_refund_requested_at is not None:
                raise Conflict("This payment is already refunded.", code="already_refunded")
            if payment.status != "COMPLETED":
                raise Conflict("This payment was never paid, so there is nothing to refund.", code="not_paid")
            if not settlement.request_full_refund(payment, at=now, reason="operator_refund"):
                raise Conflict("This payment is already refunded.", code="already_refunded")
            await outbox.publish_all(session, [events_out.operator_refunded(
                payment, operator_id=operator.user_id, reason=reason, at=now)], source=SERVICE)
            ordered = payment, await _released(session, payment_id)
        try:
            return await self._make_now(payment_id)
        except ServiceUnavailable:
            log.warning("refund of payment %s ordered; the refund job will make it (no connection now)", payment_id)
            return ordered

    async def _make_now(self, payment_id: uuid.UUID) -> tuple[Payment, int]:
        async with self.db.transaction() as session:
            payment = await session.get(Payment, payment_id, with_for_update=True)
            assert payment is not None
            due = payment.full_refund_next_at is not None and payment.full_refund_next_at <= self.clock()
            if payment.status == "COMPLETED" and due:  # neither made by the job meanwhile nor refused and waiting
                await self.refunds.make_ordered(session, payment)
            return payment, await _released(session, payment_id)


async def _released(session: AsyncSession, payment_id: uuid.UUID) -> int:
    """What was released to the creator from this payment (after a refund, what was not taken back)."""
    return int(await session.scalar(select(func.coalesce(func.sum(Earning.released_cents), 0))
                                    .where(Earning.payment_id == payment_id)))
