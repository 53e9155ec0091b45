import uuid
from datetime import datetime

from .catalog import EventData, event


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
    """The buyer paid for a bid."""

    payment_id: uuid.UUID
    bid_id: uuid.UUID
    buyer_id: uuid.UUID
    creator_id: uuid.UUID
    amount_cents: int
    currency: str = "USD"


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
