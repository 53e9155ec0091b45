"""Stripe Checkout through the `stripe` SDK (async, httpx)."""

from datetime import UTC, datetime, timedelta

import stripe

from ..ports import CheckoutOrder, OpenedCheckout
from .stripe_refusals import refused_as_provider_error

# Stripe accepts a Checkout Session expiry between 30 minutes and 24 hours from now.
SHORTEST = timedelta(minutes=30, seconds=30)
LONGEST = timedelta(hours=23, minutes=59)


def stripe_client(api_key: str, api_base: str | None = None) -> stripe.StripeClient:
    bases = {"api": api_base, "connect": api_base} if api_base else None
    return stripe.StripeClient(api_key, base_addresses=bases, http_client=stripe.HTTPXClient(),
                               max_network_retries=2)


def session_expiry(wanted: datetime, now: datetime) -> datetime:
    """The pay window's end, within what Stripe accepts (a later session is opened if the first expires)."""
    return min(max(wanted, now + SHORTEST), now + LONGEST)


class StripeCheckout:
    def __init__(self, client: stripe.StripeClient):
        self.client = client

    async def open_checkout(self, order: CheckoutOrder) -> OpenedCheckout:
        line_items = [_line(order.currency, order.price_cents, order.title)]
        if order.buyer_fee_cents:
            line_items.append(_line(order.currency, order.buyer_fee_cents, "Service fee"))
        expires = session_expiry(order.expires_at, datetime.now(UTC))
        params = {
            "mode": "payment",
            "line_items": line_items,
            "metadata": order.metadata,
            "payment_intent_data": {"metadata": order.metadata},
            "client_reference_id": order.reference,
            "success_url": order.success_url,
            "cancel_url": order.cancel_url,
            "expires_at": int(expires.timestamp()),
        }
        if order.customer_email:
            params["customer_email"] = order.customer_email
        with refused_as_provider_error("checkout session"):
            session = await self.client.v1.checkout.sessions.create_async(
                params=params, options={"idempotency_key": order.idempotency_key})
        return OpenedCheckout(session.id, session.url, datetime.fromtimestamp(session.expires_at, UTC))

    async def refund(self, payment_intent: str, idempotency_key: str, *, amount_cents: int | None = None) -> str:
        params: dict = {"payment_intent": payment_intent, "reason": "requested_by_customer"}
        if amount_cents is not None:
            params["amount"] = amount_cents  # part of the charge, in the smallest currency unit
        with refused_as_provider_error("refund"):
            refund = await self.client.v1.refunds.create_async(params=params,
                                                               options={"idempotency_key": idempotency_key})
        return refund.id


def _line(currency: str, cents: int, name: str) -> dict:
    return {"quantity": 1, "price_data": {"currency": currency.lower(), "unit_amount": cents,
                                          "product_data": {"name": name[:250]}}}
