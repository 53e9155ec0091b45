"""A paid bid whose comment is not pinned by the pin deadline is refunded in full (a job)."""

import logging
from datetime import timedelta

from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from sqlalchemy import select

from . import settlement
from .models import Payment
from .providers.ports import CheckoutProvider, ProviderError

log = logging.getLogger("pinbid.payments.refunds")
_RETRY = timedelta(minutes=5)  # a refund the provider refused is tried again after this


class PinDeadlineRefunds:
    def __init__(self, db: Database, provider: CheckoutProvider, clock: Clock = utcnow):
        self.db = db
        self.provider = provider
        self.clock = clock

    async def run_once(self, limit: int = 50) -> int:
        refunded = 0
        for _ in range(limit):
            outcome = await self._refund_next()
            if outcome is None:
                break
            refunded += outcome
        return refunded

    async def _refund_next(self) -> int | None:
        """One payment per transaction: the row stays locked (SKIP LOCKED for other replicas, and the
        pinned event waits) while the provider refunds it under an idempotency key."""
        async with self.db.transaction() as session:
            payment = await session.scalar(
                select(Payment).where(Payment.status == "COMPLETED", Payment.pinned_at.is_(None),
                                      Payment.pin_deadline_at <= self.clock())
                .order_by(Payment.pin_deadline_at).limit(1).with_for_update(skip_locked=True))
            if payment is None:
                return None
            try:
                if payment.payment_intent:
                    await self.provider.refund(payment.payment_intent, f"refund-{payment.id}")
            except ProviderError as exc:
                log.warning("refund of payment %s failed, will retry: %s", payment.id, exc)
                payment.last_failure = f"refund failed: {exc}"[:1000]
                payment.pin_deadline_at = self.clock() + _RETRY
                return 0
            await settlement.reverse(session, payment, now=self.clock(), reason="not_pinned_in_time")
            return 1

