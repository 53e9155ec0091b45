"""The integration events payments announces, built from its rows (money as integer cents).

`payment_completed_event` only builds its event (completion.py writes it with its own statement); the others
record one in the session's transaction."""

import uuid
from datetime import datetime

from pinbid_kit import outbox
from pinbid_kit.events import EventData
from pinbid_kit.events.payments import (
    DisputeSettled,
    EarningReleased,
    PaymentCompleted,
    PaymentExpired,
    PaymentFailed,
    PaymentPaidAfterExpiry,
    PaymentPartiallyRefunded,
    PaymentRefunded,
    PaymentRequested,
    PaymentsAccountSignal,
    PaymentsOperatorAction,
    PayoutCreated,
    PayoutFailed,
    PayoutPaid,
    RecoveryRecorded,
)
from pinbid_kit.events.trust import signal_hash
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE
from .models import CreatorRecovery, Earning, Payment, Payout


async def payment_requested(session: AsyncSession, payment: Payment) -> None:
    await outbox.publish(session, PaymentRequested(
        payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id, creator_id=payment.creator_id,
        amount_cents=payment.amount_cents, currency=payment.currency, expires_at=payment.expires_at),
        source=SERVICE)


def payment_expired(payment: Payment) -> PaymentExpired:
    return PaymentExpired(payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id,
                          creator_id=payment.creator_id)


async def publish_all(session: AsyncSession, events: list[EventData]) -> None:
    """The events of one use case, in one outbox write."""
    await outbox.publish_all(session, events, source=SERVICE)


async def payment_failed(session: AsyncSession, payment: Payment, reason: str) -> None:
    await outbox.publish(session, PaymentFailed(payment_id=payment.id, bid_id=payment.bid_id,
                                                buyer_id=payment.buyer_id, creator_id=payment.creator_id,
                                                reason=reason), source=SERVICE)


def payment_completed_event(payment: Payment, pin_deadline_at: datetime | None) -> PaymentCompleted:
    return PaymentCompleted(
        payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id, creator_id=payment.creator_id,
        amount_cents=payment.amount_cents, currency=payment.currency, pin_deadline_at=pin_deadline_at)


async def payment_completed(session: AsyncSession, payment: Payment) -> None:
    await outbox.publish(session, payment_completed_event(payment, payment.pin_deadline_at), source=SERVICE)


async def payment_partially_refunded(session: AsyncSession, payment: Payment, refund_cents: int) -> None:
    await outbox.publish(session, PaymentPartiallyRefunded(
        payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id, creator_id=payment.creator_id,
        amount_cents=payment.amount_cents, refund_cents=refund_cents, currency=payment.currency,
        reason=payment.early_end_reason or "UNPINNED"), source=SERVICE)


async def payment_refunded(session: AsyncSession, payment: Payment, reason: str, *, refund_cents: int,
                           recovered_cents: int, owed_cents: int) -> None:
    """`refund_cents`: what this refund gave back (the payment's amount less any partial refund before it)."""
    await outbox.publish(session, PaymentRefunded(
        payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id, creator_id=payment.creator_id,
        amount_cents=payment.amount_cents, currency=payment.currency, reason=reason, refund_cents=refund_cents,
        recovered_cents=recovered_cents, owed_cents=owed_cents), source=SERVICE)


async def payment_paid_after_expiry(session: AsyncSession, payment: Payment, at: datetime) -> None:
    await outbox.publish(session, PaymentPaidAfterExpiry(
        payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id, creator_id=payment.creator_id,
        amount_cents=payment.amount_cents, currency=payment.currency, paid_at=at), source=SERVICE)


async def earning_released(session: AsyncSession, payment: Payment, earning: Earning, *, kind: str, stage: int,
                           cents: int, fee_cents: int, transaction_id: uuid.UUID, at: datetime) -> None:
    """One release of `earning` (already counted in its `released_cents`)."""
    await outbox.publish(session, EarningReleased(
        payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id, creator_id=payment.creator_id,
        kind=kind, stage=stage, amount_cents=cents, fee_cents=fee_cents, released_cents=earning.released_cents,
        net_cents=earning.net_cents, currency=earning.currency, ledger_transaction_id=transaction_id,
        released_at=at, idempotency_key=f"release-{payment.id}-{stage}"), source=SERVICE)


async def payout_created(session: AsyncSession, payout: Payout) -> None:
    await outbox.publish(session, PayoutCreated(
        payout_id=payout.id, creator_id=payout.creator_id, period=payout.period, gross_cents=payout.gross_cents,
        fee_cents=payout.fee_cents, net_cents=payout.net_cents, currency=payout.currency, method=payout.method,
        idempotency_key=payout.idempotency_key), source=SERVICE)


async def payout_paid(session: AsyncSession, payout: Payout) -> None:
    await outbox.publish(session, PayoutPaid(
        payout_id=payout.id, creator_id=payout.creator_id, period=payout.period,
        gross_cents=payout.gross_cents, fee_cents=payout.fee_cents, net_cents=payout.net_cents,
        currency=payout.currency, idempotency_key=payout.idempotency_key), source=SERVICE)


async def payout_failed(session: AsyncSession, payout: Payout) -> None:
    await outbox.publish(session, PayoutFailed(
        payout_id=payout.id, creator_id=payout.creator_id, period=payout.period, net_cents=payout.net_cents,
        currency=payout.currency, reason=payout.failure_reason, idempotency_key=payout.idempotency_key),
        source=SERVICE)


async def dispute_settled(session: AsyncSession, payment: Payment, *, dispute_id: uuid.UUID, outcome: str,
                          refunded_cents: int = 0, released_cents: int = 0, recovered_cents: int = 0,
                          owed_cents: int = 0, transaction_ids: list[uuid.UUID], at: datetime) -> None:
    await outbox.publish(session, DisputeSettled(
        dispute_id=dispute_id, payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id,
        creator_id=payment.creator_id, outcome=outcome, refunded_cents=refunded_cents, released_cents=released_cents,
        recovered_cents=recovered_cents, owed_cents=owed_cents, currency=payment.currency,
        ledger_transaction_ids=transaction_ids, settled_at=at), source=SERVICE)


async def recovery_recorded(session: AsyncSession, recovery: CreatorRecovery) -> None:
    await outbox.publish(session, RecoveryRecorded(
        recovery_id=recovery.id, creator_id=recovery.creator_id, kind=recovery.kind, amount_cents=recovery.cents,
        owed_cents=recovery.owed_after_cents, currency=recovery.currency,
        refunded_payment_id=recovery.refunded_payment_id, ledger_transaction_id=recovery.transaction_id,
        recorded_at=recovery.recorded_at), source=SERVICE)


async def operator_refunded(session: AsyncSession, payment: Payment, *, operator_id: uuid.UUID, reason: str,
                            at: datetime) -> None:
    await outbox.publish(session, PaymentsOperatorAction(
        action_id=uuid.uuid4(), operator_id=operator_id, action="payment.refund", object_type="payment",
        object_id=str(payment.id), reason=reason, acted_at=at), source=SERVICE)


async def account_signal(session: AsyncSession, user_id: uuid.UUID, kind: str, value: str, at: datetime) -> None:
    """Only the hash leaves payments (see pinbid_kit.events.trust.AccountSignal); a value that is no signal (an
    empty or unusable email or name) is not announced."""
    value_hash = signal_hash(kind, value)
    if value_hash is None:
        return
    await outbox.publish(session, PaymentsAccountSignal(user_id=user_id, kind=kind, value_hash=value_hash,
                                                        observed_at=at), source=SERVICE)
