"""The refund job: a paid bid whose comment is not pinned by the pin deadline is refunded in full; a placement
that ended early gets its unearned share refunded; a full refund ordered (an operator, a dispute's REFUND_ALL) is
made. The provider is asked first, under an idempotency key; the
ledger books the refund once the provider took it. A refusal is tried again later with a growing delay, counted
(`pinbid_refunds_failed_total`, alerted on) and kept on the payment: never lost."""

import logging

from pinbid_kit import outbox
from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from pinbid_kit.events import EventData
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, campaign_money, settlement
from .domain.retries import FIRST_RETRY, retry_delay
from .metrics import REFUNDS_FAILED
from .models import Payment
from .ports import CheckoutProvider, ProviderError

log = logging.getLogger("pinbid.payments.refunds")
_RETRY = FIRST_RETRY  # a refund the provider refused is tried again after this, doubling up to a day


class Refunds:
    def __init__(self, db: Database, provider: CheckoutProvider, clock: Clock = utcnow):
        self.db = db
        self.provider = provider
        self.clock = clock

    async def run_once(self, limit: int = 50) -> int:
        refunded = 0
        for step in (self._refund_unpinned, self._refund_ended_early, self._refund_ordered):
            for _ in range(limit):
                outcome = await step()
                if outcome is None:
                    break
                refunded += outcome
        return refunded

    async def _refund_unpinned(self) -> int | None:
        """One payment per transaction: the row stays locked (SKIP LOCKED for other replicas, and the
        pinned event waits) while the provider refunds it under an idempotency key."""
        async with self.db.transaction() as session:
            payment = await _next_due(session, Payment.pin_deadline_at, self.clock(), Payment.pinned_at.is_(None))
            if payment is None:
                return None
            campaign = await campaign_money.lock_payer(session, payment)
            if not await self._provider_refunds(payment, f"refund-{payment.id}"):
                payment.pin_deadline_at = self.clock() + _RETRY
                return 0
            events: list[EventData] = []
            await settlement.reverse(session, events, payment, now=self.clock(), reason="not_pinned_in_time")
            await campaign_money.refunded_after_settled(session, events, campaign, payment, self.provider,
                                                        kind="refund", now=self.clock())
            await outbox.publish_all(session, events, source=SERVICE)
            return 1

    async def _refund_ended_early(self) -> int | None:
        async with self.db.transaction() as session:
            now = self.clock()
            payment = await _next_due(session, Payment.early_refund_next_at, now, Payment.early_refunded_at.is_(None))
            if payment is None:
                return None
            campaign = await campaign_money.lock_payer(session, payment)
            if not await self._provider_refunds(payment, f"early-refund-{payment.id}", payment.early_refund_cents):
                payment.early_refund_attempts += 1
                payment.early_refund_next_at = now + retry_delay(payment.early_refund_attempts)
                return 0
            events: list[EventData] = []
            await settlement.early_refund_done(session, events, payment, now=now)
            await campaign_money.refunded_after_settled(session, events, campaign, payment, self.provider,
                                                        kind="early", now=now)
            await outbox.publish_all(session, events, source=SERVICE)
            return 1

    async def _refund_ordered(self) -> int | None:
        """The full refund ordered longest ago and due."""
        async with self.db.transaction() as session:
            payment = await _next_due(session, Payment.full_refund_next_at, self.clock())
            if payment is None:
                return None
            return int(await self.make_ordered(session, payment))

    async def make_ordered(self, session: AsyncSession, payment: Payment) -> bool:
        """Make `payment`'s ordered full refund at the provider and book it, in the caller's transaction, which
        holds the row, with its events (False: the provider refused; the job tries again later with a growing
        delay)."""
        now = self.clock()
        campaign = await campaign_money.lock_payer(session, payment)
        if not await self._provider_refunds(payment, f"refund-{payment.id}"):
            payment.full_refund_attempts += 1
            payment.full_refund_next_at = now + retry_delay(payment.full_refund_attempts)
            return False
        events: list[EventData] = []
        await settlement.reverse(session, events, payment, now=now, reason=payment.full_refund_reason or "refunded")
        await campaign_money.refunded_after_settled(session, events, campaign, payment, self.provider, kind="refund",
                                                    now=now)
        await outbox.publish_all(session, events, source=SERVICE)
        return True

    async def _provider_refunds(self, payment: Payment, idempotency_key: str, amount_cents: int | None = None) -> bool:
        """The provider takes the refund (all that is left of the payment when `amount_cents` is None; a payment
        without a payment intent has nothing to give back there); False when it refused: counted, logged and kept
        on the payment for the caller to try again later."""
        try:
            if payment.payment_intent:
                await self.provider.refund(payment.payment_intent, idempotency_key, amount_cents=amount_cents)
        except ProviderError as exc:
            log.warning("refund of payment %s failed, will retry: %s", payment.id, exc)
            payment.last_failure = f"refund failed: {exc}"[:1000]
            REFUNDS_FAILED.inc()
            return False
        return True


async def _next_due(session: AsyncSession, due, now, *more) -> Payment | None:
    """The completed payment whose `due` time came longest ago (and that meets `more`), locked; SKIP LOCKED lets
    another replica take the next one meanwhile."""
    return await session.scalar(select(Payment).where(due <= now, Payment.status == "COMPLETED", *more)
                                .order_by(due).limit(1).with_for_update(skip_locked=True))
