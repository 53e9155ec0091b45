"""The operator's desk for payments: find a bid's or a user's payments, and refund one in full. The refund is
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
from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, events_out, settlement
from .domain import disputes, stages
from .models import Earning, EarningRelease, Payment
from .refunds import Refunds

log = logging.getLogger("pinbid.payments.operator_refunds")


class OperatorPayments:
    def __init__(self, db: Database, refunds: Refunds, clock: Clock = utcnow):
        self.db = db
        self.refunds = refunds
        self.clock = clock

    async def find(self, *, bid_id: uuid.UUID | None, user_id: uuid.UUID | None) -> list[tuple[Payment, int]]:
        """Payments with what was released to the creator, newest first."""
        conditions = []
        if bid_id is not None:
            conditions.append(Payment.bid_id == bid_id)
        if user_id is not None:
            conditions.append(or_(Payment.buyer_id == user_id, Payment.creator_id == user_id))
        async with self.db.transaction() as session:
            rows = (await session.execute(
                select(Payment, func.coalesce(Earning.released_cents, 0))
                .outerjoin(Earning, Earning.payment_id == Payment.id).where(*conditions)
                .order_by(Payment.created_at.desc()).limit(200))).all()
        return [(payment, int(released)) for payment, released in rows]

    async def standing(self, bid_id: uuid.UUID) -> tuple[Payment, disputes.Standing]:
        """A bid's payment as it stands, for what each outcome of its dispute would move (domain/disputes.py)."""
        async with self.db.transaction() as session:
            payment = await session.scalar(select(Payment).where(Payment.bid_id == bid_id))
            if payment is None or payment.completed_at is None:
                raise NotFound("This bid has no payment.", code="payment_not_found")
            earning = await session.get(Earning, payment.id)
            unpaid = int(await session.scalar(select(func.coalesce(func.sum(
                EarningRelease.cents - EarningRelease.recovered_cents), 0)).where(
                EarningRelease.payment_id == payment.id, EarningRelease.payout_id.is_(None))))
        net = payment.creator_cents
        due = net if payment.placement_completed_at is not None else stages.released_by(
            net, days_kept=payment.days_kept, duration_days=payment.duration_days or 1)
        early_made = payment.early_refunded_at is not None
        return payment, disputes.Standing(
            money=settlement.money_of(payment),
            paid=payment.status == "COMPLETED" and payment.full_refund_requested_at is None,
            pinned=payment.pinned_at is not None, ended_early=payment.ended_early_at is not None,
            released=earning.released_cents if earning else 0, unpaid=unpaid,
            early_refund=(payment.early_refund_cents or 0) if early_made else 0,
            early_refund_creator=earning.refunded_cents if earning and early_made else 0, due=due)

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
