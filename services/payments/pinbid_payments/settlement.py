"""What happens to the money of one payment: paid, released to the creator once pinned, refunded.
Each function runs inside the caller's transaction with the payment row locked."""

import logging
from datetime import datetime, timedelta

from pinbid_kit import outbox
from pinbid_kit.events.payments import PaymentCompleted, PaymentRefunded
from sqlalchemy.ext.asyncio import AsyncSession

from . import bookkeeping
from .domain import ledger
from .domain.money import Split
from .models import Earning, Payment

SOURCE = "payments"
log = logging.getLogger("pinbid.payments.settlement")


def money_of(payment: Payment) -> Split:
    return Split(payment.price_cents, payment.fee_cents, payment.creator_cents, payment.buyer_fee_cents)


async def record_payment(session: AsyncSession, payment: Payment, *, now: datetime, session_id: str,
                         payment_intent: str | None, pin_deadline: timedelta) -> None:
    """The buyer's money is in: ledger, the creator's pending earning."""
    payment.completed_at = now
    payment.provider_session_id = session_id
    payment.payment_intent = payment_intent
    payment.pin_deadline_at = now + pin_deadline
    received = ledger.payment_received(payment.id, payment.buyer_id, payment.creator_id, money_of(payment))
    await bookkeeping.post(session, received, payment_id=payment.id)
    session.add(Earning(payment_id=payment.id, bid_id=payment.bid_id, creator_id=payment.creator_id,
                        buyer_id=payment.buyer_id, slot_title=payment.slot_title, gross_cents=payment.price_cents,
                        fee_cents=payment.fee_cents, net_cents=payment.creator_cents, currency=payment.currency,
                        status="PENDING", earned_at=now))
    await session.flush()


async def complete(session: AsyncSession, payment: Payment, **kwargs) -> None:
    payment.status = "COMPLETED"
    await record_payment(session, payment, **kwargs)
    await outbox.publish(session, PaymentCompleted(
        payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id, creator_id=payment.creator_id,
        amount_cents=payment.amount_cents, currency=payment.currency, pin_deadline_at=payment.pin_deadline_at),
        source=SOURCE)


async def release(session: AsyncSession, payment: Payment, pinned_at: datetime) -> bool:
    """The comment is pinned: the creator's share becomes available for payout."""
    if payment.status != "COMPLETED" or payment.pinned_at is not None:
        return False
    earning = await session.get(Earning, payment.id, with_for_update=True)
    payment.pinned_at = pinned_at
    earning.status = "AVAILABLE"
    earning.available_at = pinned_at
    await bookkeeping.post(session, ledger.earnings_released(payment.creator_id, earning.net_cents),
                           payment_id=payment.id)
    return True


async def reverse(session: AsyncSession, payment: Payment, *, now: datetime, reason: str) -> None:
    """The buyer got everything back (the provider already refunded): undo the payment in the ledger."""
    earning = await session.get(Earning, payment.id, with_for_update=True)
    from_pending = from_available = 0
    if earning.status == "PENDING":
        from_pending = earning.net_cents
    elif earning.status == "AVAILABLE" and earning.payout_id is None:
        from_available = earning.net_cents
    # else: already in a payout; the creator keeps it and the platform books the loss
    refunded = ledger.payment_refunded(payment.id, payment.buyer_id, payment.creator_id, money_of(payment),
                                       from_pending=from_pending, from_available=from_available)
    await bookkeeping.post(session, refunded, payment_id=payment.id)
    earning.status = "REFUNDED"
    payment.status = "REFUNDED"
    payment.refunded_at = now
    payment.refund_reason = reason
    await outbox.publish(session, PaymentRefunded(
        payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id, creator_id=payment.creator_id,
        amount_cents=payment.amount_cents, currency=payment.currency, reason=reason), source=SOURCE)
