import uuid
from datetime import datetime

from .catalog import EventData, event
from .trust import AccountSignal, OperatorAction


@event("payments.payment.requested.v1")
class PaymentRequested(EventData):
    """The buyer of an approved bid is asked to pay `amountCents` before `expiresAt`."""

    payment_id: uuid.UUID
    bid_id: uuid.UUID
    buyer_id: uuid.UUID
    creator_id: uuid.UUID
    amount_cents: int
    currency: str = "USD"
    expires_at: datetime


@event("payments.payment.completed.v1")
class PaymentCompleted(EventData):
    """The buyer paid for a bid. The creator must pin its comment by `pinDeadlineAt`, or the buyer is refunded."""

    payment_id: uuid.UUID
    bid_id: uuid.UUID
    buyer_id: uuid.UUID
    creator_id: uuid.UUID
    amount_cents: int
    currency: str = "USD"
    pin_deadline_at: datetime | None = None


@event("payments.payout.paid.v1")
class PayoutPaid(EventData):
    """A payout reached the creator. For finance: amounts in minor units, one idempotency key per payout."""

    payout_id: uuid.UUID
    creator_id: uuid.UUID
    period: str
    gross_cents: int
    fee_cents: int
    net_cents: int
    currency: str = "USD"
    idempotency_key: str


@event("payments.payment.expired.v1")
class PaymentExpired(EventData):
    """The pay window of an approved bid ran out unpaid."""

    payment_id: uuid.UUID
    bid_id: uuid.UUID
    buyer_id: uuid.UUID
    creator_id: uuid.UUID


@event("payments.payment.refunded.v1")
class PaymentRefunded(EventData):
    """A paid bid was refunded in full (for example: not pinned within the pin deadline)."""

    payment_id: uuid.UUID
    bid_id: uuid.UUID
    buyer_id: uuid.UUID
    creator_id: uuid.UUID
    amount_cents: int
    currency: str = "USD"
    reason: str


@event("payments.payout.created.v1")
class PayoutCreated(EventData):
    """A payout was created for a creator and period. For finance: minor units, one idempotency key."""

    payout_id: uuid.UUID
    creator_id: uuid.UUID
    period: str
    gross_cents: int
    fee_cents: int
    net_cents: int
    currency: str = "USD"
    method: str
    idempotency_key: str


@event("payments.payout.failed.v1")
class PayoutFailed(EventData):
    """A payout could not be delivered; the money stays in the creator's available balance."""

    payout_id: uuid.UUID
    creator_id: uuid.UUID
    period: str
    net_cents: int
    currency: str = "USD"
    reason: str
    idempotency_key: str


@event("payments.payment.failed.v1")
class PaymentFailed(EventData):
    """An attempt to pay for a bid failed (for example a declined card). The request stays open: the
    buyer may try again until it expires."""

    payment_id: uuid.UUID
    bid_id: uuid.UUID
    buyer_id: uuid.UUID
    creator_id: uuid.UUID
    reason: str


@event("payments.payment.partially_refunded.v1")
class PaymentPartiallyRefunded(EventData):
    """Part of a paid bid went back to the buyer: the share of a placement not earned because the comment was
    unpinned, hidden or deleted early (`reason`). `refundCents` of `amountCents` were refunded."""

    payment_id: uuid.UUID
    bid_id: uuid.UUID
    buyer_id: uuid.UUID
    creator_id: uuid.UUID
    amount_cents: int
    refund_cents: int
    currency: str = "USD"
    reason: str


@event("payments.operator.acted.v1")
class PaymentsOperatorAction(OperatorAction):
    """An operator acted in payments (refunded a payment, ...): for the audit log."""


@event("payments.account.signal_observed.v1")
class PaymentsAccountSignal(AccountSignal):
    """A user connected a payout account (PAYOUT_ACCOUNT) or paid with a card (CARD, the provider's card
    fingerprint), for finding associated accounts."""
