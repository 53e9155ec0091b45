"""What a verified Stripe event asks of us. Pure: reads the event's JSON, decides nothing about state."""

import uuid
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class CheckoutPaid:
    payment_id: uuid.UUID
    session_id: str
    payment_intent: str | None
    amount_cents: int
    currency: str


@dataclass(frozen=True)
class CheckoutExpired:
    payment_id: uuid.UUID
    session_id: str


@dataclass(frozen=True)
class PaymentAttemptFailed:
    payment_id: uuid.UUID | None
    payment_intent: str
    message: str


@dataclass(frozen=True)
class FundingPaid:
    """A campaign's funding checkout was paid (metadata `funding_id` instead of `payment_id`)."""

    funding_id: uuid.UUID
    session_id: str
    payment_intent: str | None
    amount_cents: int
    currency: str


@dataclass(frozen=True)
class FundingExpired:
    funding_id: uuid.UUID
    session_id: str


@dataclass(frozen=True)
class ChargeDisputed:
    """The cardholder's bank opened a dispute: the disputed amount is withdrawn from us meanwhile."""

    payment_intent: str
    amount_cents: int


@dataclass(frozen=True)
class ChargeRefunded:
    payment_id: uuid.UUID | None
    payment_intent: str | None
    amount_cents: int
    refunded_cents: int
    funding_id: uuid.UUID | None = None  # a campaign's funding payment

    @property
    def full(self) -> bool:
        return self.refunded_cents >= self.amount_cents


@dataclass(frozen=True)
class CardCharged:
    """A card charge succeeded: the provider's fingerprint of the card (the same card, the same fingerprint), and
    the billing name and email the payer gave, when it gave them."""

    payment_id: uuid.UUID | None
    payment_intent: str
    fingerprint: str
    billing_name: str | None = None
    billing_email: str | None = None
    funding_id: uuid.UUID | None = None  # a campaign's funding payment


@dataclass(frozen=True)
class Ignored:
    reason: str


Action = (CheckoutPaid | CheckoutExpired | FundingPaid | FundingExpired | PaymentAttemptFailed | ChargeRefunded
          | ChargeDisputed | CardCharged | Ignored)


class Malformed(ValueError):
    pass


def _metadata_id(obj: dict[str, Any], key: str) -> uuid.UUID | None:
    metadata = obj.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise Malformed("metadata is not an object")
    raw = metadata.get(key)
    if raw is None:
        return None
    try:
        return uuid.UUID(str(raw))
    except ValueError:
        raise Malformed(f"metadata.{key} is not an id") from None


def _payment_id(obj: dict[str, Any]) -> uuid.UUID | None:
    return _metadata_id(obj, "payment_id")


def _funding_id(obj: dict[str, Any]) -> uuid.UUID | None:
    return _metadata_id(obj, "funding_id")


def interpret(event: dict[str, Any]) -> Action:
    try:
        kind = event["type"]
        obj = event["data"]["object"]
        if not isinstance(obj, dict):
            raise Malformed("data.object is not an object")
        if kind in ("checkout.session.completed", "checkout.session.async_payment_succeeded"):
            if obj.get("payment_status") != "paid":
                return Ignored(f"checkout not paid yet ({obj.get('payment_status')})")
            funding_id = _funding_id(obj)
            if funding_id is not None:
                return FundingPaid(funding_id, str(obj["id"]), obj.get("payment_intent"), int(obj["amount_total"]),
                                   str(obj["currency"]).upper())
            payment_id = _payment_id(obj)
            if payment_id is None:
                return Ignored("checkout session of another integration")
            return CheckoutPaid(payment_id, str(obj["id"]), obj.get("payment_intent"), int(obj["amount_total"]),
                                str(obj["currency"]).upper())
        if kind == "checkout.session.expired":
            funding_id = _funding_id(obj)
            if funding_id is not None:
                return FundingExpired(funding_id, str(obj["id"]))
            payment_id = _payment_id(obj)
            return CheckoutExpired(payment_id, str(obj["id"])) if payment_id else Ignored("not ours")
        if kind == "payment_intent.payment_failed":
            error = obj.get("last_payment_error") or {}
            return PaymentAttemptFailed(_payment_id(obj), str(obj["id"]),
                                        str(error.get("message") or "The payment failed."))
        if kind == "charge.refunded":
            return ChargeRefunded(_payment_id(obj), obj.get("payment_intent"), int(obj["amount"]),
                                  int(obj["amount_refunded"]), funding_id=_funding_id(obj))
        if kind == "charge.dispute.created":
            intent = obj.get("payment_intent")
            if not isinstance(intent, str) or not intent:
                return Ignored("a dispute without a payment intent")
            return ChargeDisputed(intent, int(obj["amount"]))
        if kind == "charge.succeeded":
            card = ((obj.get("payment_method_details") or {}).get("card") or {})
            fingerprint, intent = card.get("fingerprint"), obj.get("payment_intent")
            if not isinstance(fingerprint, str) or not fingerprint or not isinstance(intent, str) or not intent:
                return Ignored("not a card charge of a payment intent")
            billing = obj.get("billing_details") or {}
            if not isinstance(billing, dict):
                raise Malformed("billing_details is not an object")
            name, email = billing.get("name"), billing.get("email")
            return CardCharged(_payment_id(obj), intent, fingerprint[:255],
                               billing_name=name[:255] if isinstance(name, str) and name.strip() else None,
                               billing_email=email[:320] if isinstance(email, str) and email.strip() else None,
                               funding_id=_funding_id(obj))
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        if isinstance(exc, Malformed):
            raise
        raise Malformed(f"unexpected event shape: {exc!r}") from None
    return Ignored(f"{kind} is not handled")
