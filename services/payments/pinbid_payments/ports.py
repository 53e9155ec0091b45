"""What payments needs from a checkout provider and from a payout provider."""

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, Protocol


@dataclass(frozen=True)
class CheckoutOrder:
    """A bid's payment (`bid_id`), or a campaign's funding (`campaign_id`; `payment_id` is the funding's id)."""

    payment_id: uuid.UUID
    bid_id: uuid.UUID | None
    title: str
    price_cents: int
    buyer_fee_cents: int
    currency: str
    customer_email: str | None
    success_url: str
    cancel_url: str
    expires_at: datetime
    idempotency_key: str
    campaign_id: uuid.UUID | None = None

    @property
    def metadata(self) -> dict[str, str]:
        """What the provider sends back on the session, its charge and refunds: the webhook tells a campaign's
        funding (`funding_id`) from a bid's payment (`payment_id`) by it."""
        if self.campaign_id is not None:
            return {"funding_id": str(self.payment_id), "campaign_id": str(self.campaign_id)}
        return {"payment_id": str(self.payment_id), "bid_id": str(self.bid_id)}

    @property
    def reference(self) -> str:
        """Checkout's `client_reference_id`: the bid, or the campaign."""
        return str(self.campaign_id if self.campaign_id is not None else self.bid_id)


@dataclass(frozen=True)
class OpenedCheckout:
    session_id: str
    url: str
    expires_at: datetime


class CheckoutProvider(Protocol):
    async def open_checkout(self, order: CheckoutOrder) -> OpenedCheckout: ...

    async def refund(self, payment_intent: str, idempotency_key: str, *, amount_cents: int | None = None) -> str:
        """Refund `amount_cents` of a payment (all that is left of it when None); returns the provider's refund
        id. The same idempotency key is the same refund, however often it is asked."""
        ...


class ProviderError(Exception):
    """The provider refused or could not be reached; the message is safe to log."""


@dataclass(frozen=True)
class PayoutOrder:
    payout_id: uuid.UUID
    creator_id: uuid.UUID
    method: Literal["BANK_TRANSFER", "PAYPAL"]
    net_cents: int
    currency: str
    period: str
    idempotency_key: str
    destination: dict[str, str] = field(default_factory=dict)  # paypal_email, stripe_account_id, bank_account...


@dataclass(frozen=True)
class PayoutResult:
    status: Literal["PAID", "PENDING", "FAILED"]
    reference: str | None = None
    reason: str | None = None


class PayoutProvider(Protocol):
    async def send(self, order: PayoutOrder) -> PayoutResult:
        """Send a payout. Idempotent on `order.idempotency_key`: sending twice pays once."""
        ...

    async def status(self, order: PayoutOrder, reference: str) -> PayoutResult:
        """The current state of a payout that was PENDING."""
        ...
