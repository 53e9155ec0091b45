"""Payment requests: opened when a creator approves a bid, expired when the pay window runs out."""

import logging
from datetime import timedelta

from pinbid_kit import outbox
from pinbid_kit.clock import Clock, replayed, utcnow
from pinbid_kit.db import Database
from pinbid_kit.events import EventData
from pinbid_kit.events.marketplace import BidApproved
from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, events_out
from .domain.money import split
from .metrics import PAY_WINDOWS_EXPIRED
from .models import Payment
from .settings import PaymentsSettings

log = logging.getLogger("pinbid.payments.requests")


class PaymentRequests:
    def __init__(self, db: Database, settings: PaymentsSettings, clock: Clock = utcnow):
        self.db = db
        self.settings = settings
        self.clock = clock

    async def open(self, session: AsyncSession, events: list[EventData], approved: BidApproved) -> Payment | None:
        """Inside the event's transaction, its event added to `events`. A second approval of the same bid changes
        nothing."""
        money = split(approved.final_price_cents, fee_percent=self.settings.platform_fee_percent,
                      buyer_fee_cents=self.settings.buyer_fee_cents)
        expires = self.clock() + timedelta(seconds=self.settings.pay_window_seconds)
        inserted = await session.scalar(insert(Payment).values(
            bid_id=approved.bid_id, slot_id=approved.slot_id, slot_title=approved.slot_title,
            buyer_id=approved.buyer_id, creator_id=approved.creator_id, price_cents=money.price_cents,
            fee_cents=money.fee_cents, creator_cents=money.creator_cents, buyer_fee_cents=money.buyer_fee_cents,
            amount_cents=money.total_cents, currency=approved.currency.upper(), status="REQUESTED",
            expires_at=expires, **({"created_at": moment} if (moment := replayed()) is not None else {}),
        ).on_conflict_do_nothing(index_elements=["bid_id"]).returning(Payment.id))
        if inserted is None:
            log.info("bid %s already has a payment request", approved.bid_id)
            return None
        payment = await session.get(Payment, inserted)
        events.append(events_out.payment_requested(payment))
        return payment

    async def expire_due(self, limit: int = 100) -> int:
        """A job. The conditional UPDATE is the only way to EXPIRED, as the webhook's is the only way to
        COMPLETED; each needs status REQUESTED, so one payment can never be both."""
        async with self.db.transaction() as session:
            due = (select(Payment.id).where(Payment.status == "REQUESTED", Payment.expires_at <= self.clock())
                   .order_by(Payment.expires_at).limit(limit).with_for_update(skip_locked=True).scalar_subquery())
            expired = list(await session.scalars(
                update(Payment).where(Payment.id.in_(due), Payment.status == "REQUESTED")
                .values(status="EXPIRED").returning(Payment)))
            await outbox.publish_all(session, [events_out.payment_expired(p) for p in expired], source=SERVICE)
        PAY_WINDOWS_EXPIRED.inc(len(expired))
        return len(expired)


