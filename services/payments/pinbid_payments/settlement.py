"""What happens to the money of one payment: paid, released to the creator in stages while the comment stays
pinned (domain/stages.py), the unearned share refunded when the placement ends early, or all of it refunded.
Each function runs inside the caller's transaction with the payment row locked."""

import logging
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from . import bookkeeping, events_out
from .domain import ledger, stages
from .domain.money import Split
from .models import Earning, EarningRelease, Payment

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
    await events_out.payment_completed(session, payment)


COMPLETION_STAGE = 100_000  # the stage number of the remainder released at completion (after any day's)


async def release(session: AsyncSession, payment: Payment, *, stage: int, released_by: int, at: datetime) -> int:
    """Release the creator's share up to `released_by` cents in all, as `stage`; returns what this stage released.
    A stage released before (a redelivery) or overtaken by a later one (reordered events) releases nothing."""
    if payment.status != "COMPLETED" or payment.ended_early_at is not None:
        return 0
    earning = await session.get(Earning, payment.id, with_for_update=True)
    if earning is None or earning.status not in ("PENDING", "RELEASING"):
        return 0
    cents = min(released_by, earning.net_cents) - earning.released_cents
    if cents <= 0:
        return 0
    # the fee share by cumulative difference, so an earning's releases carry exactly its fee
    fee = (earning.fee_cents * (earning.released_cents + cents) // earning.net_cents
           - earning.fee_cents * earning.released_cents // earning.net_cents)
    stored = await session.scalar(insert(EarningRelease).values(
        payment_id=payment.id, stage=stage, creator_id=payment.creator_id, cents=cents, fee_cents=fee,
        released_at=at,
    ).on_conflict_do_nothing().returning(EarningRelease.stage))
    if stored is None:
        return 0
    earning.released_cents += cents
    earning.status = "AVAILABLE" if earning.released_cents == earning.net_cents else "RELEASING"
    earning.available_at = earning.available_at or at
    await bookkeeping.post(session, ledger.earnings_released(payment.creator_id, cents), payment_id=payment.id)
    return cents


async def pinned(session: AsyncSession, payment: Payment, pinned_at: datetime) -> int:
    """The comment is pinned: the first stage (a quarter of the creator's share)."""
    if payment.status == "COMPLETED" and payment.pinned_at is None:
        payment.pinned_at = pinned_at
    return await release(session, payment, stage=0, released_by=stages.released_by(
        payment.creator_cents, days_kept=0, duration_days=1), at=pinned_at)


async def kept(session: AsyncSession, payment: Payment, *, days_kept: int, duration_days: int, at: datetime) -> int:
    return await release(session, payment, stage=days_kept, released_by=stages.released_by(
        payment.creator_cents, days_kept=days_kept, duration_days=duration_days), at=at)


async def completed(session: AsyncSession, payment: Payment, at: datetime) -> int:
    return await release(session, payment, stage=COMPLETION_STAGE, released_by=payment.creator_cents, at=at)


async def end_early(session: AsyncSession, payment: Payment, *, at: datetime, reason: str) -> bool:
    """The comment was unpinned, hidden or deleted before its duration ran out: nothing more is released, and the
    unearned share is to go back to the buyer (the refund job asks the provider, then books it)."""
    if payment.status != "COMPLETED" or payment.pinned_at is None or payment.ended_early_at is not None:
        return False
    earning = await session.get(Earning, payment.id, with_for_update=True)
    back = stages.early_end(money_of(payment), earning.released_cents)
    payment.ended_early_at, payment.early_end_reason = at, reason
    payment.early_refund_cents = back.refund_cents
    earning.status = "ENDED_EARLY"
    if back.refund_cents == 0:
        payment.early_refunded_at = at
    else:
        payment.early_refund_next_at = at
    return True


async def early_refund_done(session: AsyncSession, payment: Payment, *, now: datetime) -> None:
    """The provider refunded the unearned share: book it (balanced) and tell everyone."""
    earning = await session.get(Earning, payment.id, with_for_update=True)
    back = stages.early_end(money_of(payment), earning.released_cents)
    await bookkeeping.post(session, ledger.placement_ended_early(
        payment.id, payment.buyer_id, payment.creator_id, creator_cents=back.creator_cents,
        fee_cents=back.fee_cents), payment_id=payment.id)
    earning.refunded_cents = back.creator_cents
    payment.early_refunded_at, payment.early_refund_next_at = now, None
    await events_out.payment_partially_refunded(session, payment, back.refund_cents)


async def reverse(session: AsyncSession, payment: Payment, *, now: datetime, reason: str) -> None:
    """The buyer got everything back (the provider already refunded): undo what is left of the payment in the
    ledger. The creator's share is taken back from where it is: not released yet, or released and not paid out
    (those releases are withdrawn); what was already paid out stays with the creator as the platform's loss."""
    earning = await session.get(Earning, payment.id, with_for_update=True)
    money = money_of(payment)
    already = payment.early_refund_cents if payment.early_refunded_at is not None else 0
    unpaid = await session.scalar(select(func.coalesce(func.sum(EarningRelease.cents), 0)).where(
        EarningRelease.payment_id == payment.id, EarningRelease.payout_id.is_(None)))
    await session.execute(delete(EarningRelease).where(EarningRelease.payment_id == payment.id,
                                                       EarningRelease.payout_id.is_(None)))
    from_pending = earning.net_cents - earning.released_cents - earning.refunded_cents
    refunded = ledger.payment_refunded(
        payment.id, payment.buyer_id, payment.creator_id, to_buyer=money.total_cents - already,
        from_fees=money.platform_cents - (already - earning.refunded_cents), from_pending=from_pending,
        from_available=int(unpaid))
    await bookkeeping.post(session, refunded, payment_id=payment.id)
    earning.released_cents -= int(unpaid)
    earning.refunded_cents += from_pending + int(unpaid)
    earning.status = "REFUNDED"
    payment.status = "REFUNDED"
    payment.refunded_at = now
    payment.refund_reason = reason
    payment.early_refund_next_at = None  # nothing is left for the early-end refund to give back
    await events_out.payment_refunded(session, payment, reason)
