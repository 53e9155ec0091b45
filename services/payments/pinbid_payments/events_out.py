"""The integration events payments announces, built from its rows (money as integer cents). Each function only
builds its event: the use case that causes it collects it and writes all of its events once, in its own
transaction (`outbox.publish_all`, or `outbox_rows` inside a statement of its own as completion.py does)."""

import uuid
from datetime import datetime

from pinbid_kit.events.campaigns import CampaignDrawn, CampaignFunded, CampaignFundingReversed, CampaignReturned
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
    PayoutAccountChanged,
    PayoutCreated,
    PayoutFailed,
    PayoutPaid,
    RecoveryRecorded,
)

from .models import Campaign, CampaignFunding, CreatorRecovery, Earning, Payment, Payout


def payment_requested(payment: Payment) -> PaymentRequested:
    return PaymentRequested(
        payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id, creator_id=payment.creator_id,
        amount_cents=payment.amount_cents, currency=payment.currency, expires_at=payment.expires_at)


def payment_expired(payment: Payment) -> PaymentExpired:
    return PaymentExpired(payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id,
                          creator_id=payment.creator_id)


def payment_failed(payment: Payment, reason: str) -> PaymentFailed:
    return PaymentFailed(payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id,
                         creator_id=payment.creator_id, reason=reason)


def payment_completed(payment: Payment, pin_deadline_at: datetime | None) -> PaymentCompleted:
    return PaymentCompleted(
        payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id, creator_id=payment.creator_id,
        amount_cents=payment.amount_cents, currency=payment.currency, pin_deadline_at=pin_deadline_at)


def payment_partially_refunded(payment: Payment, refund_cents: int) -> PaymentPartiallyRefunded:
    return PaymentPartiallyRefunded(
        payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id, creator_id=payment.creator_id,
        amount_cents=payment.amount_cents, refund_cents=refund_cents, currency=payment.currency,
        reason=payment.early_end_reason or "UNPINNED")


def payment_refunded(payment: Payment, reason: str, *, refund_cents: int, recovered_cents: int,
                     owed_cents: int) -> PaymentRefunded:
    """`refund_cents`: what this refund gave back (the payment's amount less any partial refund before it)."""
    return PaymentRefunded(
        payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id, creator_id=payment.creator_id,
        amount_cents=payment.amount_cents, currency=payment.currency, reason=reason, refund_cents=refund_cents,
        recovered_cents=recovered_cents, owed_cents=owed_cents)


def payment_paid_after_expiry(payment: Payment, at: datetime) -> PaymentPaidAfterExpiry:
    return PaymentPaidAfterExpiry(
        payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id, creator_id=payment.creator_id,
        amount_cents=payment.amount_cents, currency=payment.currency, paid_at=at)


def earning_released(payment: Payment, earning: Earning, *, kind: str, stage: int, cents: int,
                     fee_cents: int, transaction_id: uuid.UUID, at: datetime) -> EarningReleased:
    """One release of `earning` (already counted in its `released_cents`)."""
    return EarningReleased(
        payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id, creator_id=payment.creator_id,
        kind=kind, stage=stage, amount_cents=cents, fee_cents=fee_cents, released_cents=earning.released_cents,
        net_cents=earning.net_cents, currency=earning.currency, ledger_transaction_id=transaction_id,
        released_at=at, idempotency_key=f"release-{payment.id}-{stage}")


def payout_created(payout: Payout) -> PayoutCreated:
    return PayoutCreated(
        payout_id=payout.id, creator_id=payout.creator_id, period=payout.period, gross_cents=payout.gross_cents,
        fee_cents=payout.fee_cents, net_cents=payout.net_cents, currency=payout.currency, method=payout.method,
        idempotency_key=payout.idempotency_key)


def payout_paid(payout: Payout) -> PayoutPaid:
    return PayoutPaid(
        payout_id=payout.id, creator_id=payout.creator_id, period=payout.period,
        gross_cents=payout.gross_cents, fee_cents=payout.fee_cents, net_cents=payout.net_cents,
        currency=payout.currency, idempotency_key=payout.idempotency_key)


def payout_failed(payout: Payout) -> PayoutFailed:
    return PayoutFailed(
        payout_id=payout.id, creator_id=payout.creator_id, period=payout.period, net_cents=payout.net_cents,
        currency=payout.currency, reason=payout.failure_reason, idempotency_key=payout.idempotency_key)


def dispute_settled(payment: Payment, *, dispute_id: uuid.UUID, outcome: str, refunded_cents: int = 0,
                    released_cents: int = 0, recovered_cents: int = 0, owed_cents: int = 0,
                    transaction_ids: list[uuid.UUID], at: datetime) -> DisputeSettled:
    return DisputeSettled(
        dispute_id=dispute_id, payment_id=payment.id, bid_id=payment.bid_id, buyer_id=payment.buyer_id,
        creator_id=payment.creator_id, outcome=outcome, refunded_cents=refunded_cents, released_cents=released_cents,
        recovered_cents=recovered_cents, owed_cents=owed_cents, currency=payment.currency,
        ledger_transaction_ids=transaction_ids, settled_at=at)


def recovery_recorded(recovery: CreatorRecovery) -> RecoveryRecorded:
    return RecoveryRecorded(
        recovery_id=recovery.id, creator_id=recovery.creator_id, kind=recovery.kind, amount_cents=recovery.cents,
        owed_cents=recovery.owed_after_cents, currency=recovery.currency,
        refunded_payment_id=recovery.refunded_payment_id, ledger_transaction_id=recovery.transaction_id,
        recorded_at=recovery.recorded_at)


def operator_refunded(payment: Payment, *, operator_id: uuid.UUID, reason: str,
                      at: datetime) -> PaymentsOperatorAction:
    return PaymentsOperatorAction(
        action_id=uuid.uuid4(), operator_id=operator_id, action="payment.refund", object_type="payment",
        object_id=str(payment.id), reason=reason, acted_at=at)


def account_signals(user_id: uuid.UUID, observed: list[tuple[str, str]],
                    at: datetime) -> list[PaymentsAccountSignal]:
    """`observed`: (kind, raw value) pairs. Only the hash leaves payments (see
    pinbid_kit.events.trust.AccountSignal); a value that is no signal (an empty or unusable email or name) is
    not announced."""
    return PaymentsAccountSignal.observed(user_id, observed, at)


def payout_account_changed(creator_id: uuid.UUID, method: str, account: str, at: datetime) -> PayoutAccountChanged:
    return PayoutAccountChanged(creator_id=creator_id, method=method, account=account, changed_at=at)


def campaign_funded(campaign: Campaign, funding: CampaignFunding, *, balance_cents: int) -> CampaignFunded:
    return CampaignFunded(
        campaign_id=campaign.id, buyer_id=campaign.buyer_id, amount_cents=funding.amount_cents,
        balance_cents=balance_cents, currency=funding.currency, payment_id=funding.id,
        funded_cents=campaign.funded_cents, idempotency_key=f"campaign-funded-{funding.id}")


def campaign_drawn(campaign: Campaign, payment: Payment, *, balance_cents: int) -> CampaignDrawn:
    return CampaignDrawn(
        campaign_id=campaign.id, buyer_id=campaign.buyer_id, amount_cents=payment.amount_cents,
        balance_cents=balance_cents, currency=payment.currency, payment_id=payment.id, bid_id=payment.bid_id,
        idempotency_key=f"campaign-drawn-{payment.bid_id}")


def campaign_returned(campaign: Campaign, cents: int, *, balance_cents: int, key: str) -> CampaignReturned:
    return CampaignReturned(
        campaign_id=campaign.id, buyer_id=campaign.buyer_id, amount_cents=cents, balance_cents=balance_cents,
        currency=campaign.currency, idempotency_key=key)


def campaign_funding_reversed(campaign: Campaign, funding: CampaignFunding, cents: int, *, balance_cents: int,
                              key: str) -> CampaignFundingReversed:
    return CampaignFundingReversed(
        campaign_id=campaign.id, buyer_id=campaign.buyer_id, amount_cents=cents, balance_cents=balance_cents,
        currency=funding.currency, payment_id=funding.id, funded_cents=campaign.funded_cents, idempotency_key=key)
