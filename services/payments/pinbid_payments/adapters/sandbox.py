"""The sandbox payment provider (the default): it keeps its own checkout sessions, serves the checkout
page, and on "pay" sends `checkout.session.completed` to our webhook, shaped and signed exactly as
Stripe does. Refunds send `charge.refunded`. Payouts succeed, except to the documented failing
destinations. Deterministic and offline."""

import hashlib
import json
import logging
import secrets
import time
from datetime import timedelta

import httpx
from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from pinbid_kit.no_cookies import cookieless_jar
from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert

from ..models import SandboxCheckout, SandboxRefund, SandboxWebhook
from ..ports import CheckoutOrder, OpenedCheckout, PayoutOrder, PayoutResult, ProviderError
from .signing import stripe_signature

log = logging.getLogger("pinbid.payments.sandbox")
FAILING_PAYPAL_DOMAIN = "@fail.example"
FAILING_BANK_ACCOUNT = "00000000"
DEFAULT_CARD = "4242424242424242"  # Stripe's test Visa


def card_fingerprint(card: str) -> str:
    """Stable per card number, like Stripe's fingerprint, and not the number itself."""
    digits = "".join(ch for ch in card if ch.isdigit()) or DEFAULT_CARD
    return hashlib.sha256(f"pinbid-sandbox-card:{digits}".encode()).hexdigest()[:16]


class SandboxError(Exception):
    pass


def _id(prefix: str) -> str:
    return f"{prefix}_test_{secrets.token_hex(12)}"


def _digest_id(prefix: str, key: str) -> str:
    return f"{prefix}_test_{hashlib.sha256(key.encode()).hexdigest()[:24]}"


class SandboxProvider:
    def __init__(self, db: Database, *, page_url: str, webhook_url: str, webhook_secret: str,
                 http: httpx.AsyncClient | None = None, clock: Clock = utcnow):
        self.db = db
        self.clock = clock
        self.page_url = page_url.rstrip("/")  # .../api/payments/sandbox/checkout
        self.webhook_url = webhook_url
        self.webhook_secret = webhook_secret
        self.http = http or httpx.AsyncClient(timeout=10, cookies=cookieless_jar())

    # --- checkout -------------------------------------------------------------------------
    async def open_checkout(self, order: CheckoutOrder) -> OpenedCheckout:
        async with self.db.transaction() as session:
            await session.execute(insert(SandboxCheckout).values(
                id=_id("cs"), idempotency_key=order.idempotency_key, title=order.title,
                amount_cents=order.price_cents + order.buyer_fee_cents, currency=order.currency,
                metadata_=order.metadata, customer_email=order.customer_email, success_url=order.success_url,
                cancel_url=order.cancel_url, expires_at=order.expires_at,
            ).on_conflict_do_nothing(index_elements=["idempotency_key"]))
            row = await session.scalar(select(SandboxCheckout)
                                       .where(SandboxCheckout.idempotency_key == order.idempotency_key))
        return OpenedCheckout(row.id, f"{self.page_url}/{row.id}", row.expires_at)

    async def checkout(self, session_id: str) -> SandboxCheckout | None:
        async with self.db.transaction() as session:
            return await session.get(SandboxCheckout, session_id)

    async def pay(self, session_id: str, card: str = DEFAULT_CARD, cardholder: str | None = None) -> str:
        """Completes an open session and sends checkout.session.completed, then charge.succeeded with the card's
        fingerprint (the same test card number, the same fingerprint, as Stripe's) and its billing details (the
        name on the card, the checkout's email). Returns the success URL."""
        async with self.db.transaction() as session:
            row = await session.get(SandboxCheckout, session_id, with_for_update=True)
            if row is None:
                raise SandboxError("This checkout does not exist.")
            if row.status == "complete":
                return row.success_url
            if row.status != "open" or row.expires_at <= self.clock():
                raise SandboxError("This checkout has expired.")
            row.status = "complete"
            row.payment_intent = _id("pi")
            event_ids = [await self._enqueue(session, "checkout.session.completed", _session_object(row)),
                         await self._enqueue(session, "charge.succeeded", _card_charge_object(row, card, cardholder))]
        for event_id in event_ids:
            await self.deliver(event_id)
        return row.success_url

    async def cancel(self, session_id: str) -> str:
        """Like Stripe: leaving the page does not end the session, it only goes back to the cancel URL."""
        row = await self.checkout(session_id)
        if row is None:
            raise SandboxError("This checkout does not exist.")
        return row.cancel_url

    async def refund(self, payment_intent: str, idempotency_key: str, *, amount_cents: int | None = None) -> str:
        """As Stripe: a refund of part or all of what is left; more than is left, or nothing, is refused."""
        refund_id = _digest_id("re", idempotency_key)
        async with self.db.transaction() as session:
            row = await session.scalar(select(SandboxCheckout).where(SandboxCheckout.payment_intent == payment_intent)
                                       .with_for_update())
            if row is None:
                raise ProviderError(f"No such payment_intent: '{payment_intent}'")
            if await session.get(SandboxRefund, refund_id) is not None:
                return refund_id
            left = row.amount_cents - row.amount_refunded_cents
            amount = left if amount_cents is None else amount_cents
            if amount <= 0 or amount > left:
                raise ProviderError(f"Refund amount ({amount}) is greater than unrefunded amount on charge ({left})")
            session.add(SandboxRefund(id=refund_id, payment_intent=payment_intent, amount_cents=amount))
            row.amount_refunded_cents += amount
            row.refunded = row.amount_refunded_cents == row.amount_cents
            # sent by the delivery job, never from inside the caller's transaction (it may hold the payment)
            await self._enqueue(session, "charge.refunded", _charge_object(row, refund_id, amount))
        return refund_id

    # --- webhooks -------------------------------------------------------------------------
    async def _enqueue(self, session, kind: str, obj: dict) -> str:
        event_id = _id("evt")
        payload = json.dumps({
            "id": event_id, "object": "event", "api_version": "2025-10-29.clover", "created": int(time.time()),
            "type": kind, "livemode": False, "pending_webhooks": 1,
            "request": {"id": None, "idempotency_key": None}, "data": {"object": obj},
        })
        session.add(SandboxWebhook(id=event_id, payload=payload, next_attempt_at=self.clock()))
        return event_id

    async def deliver(self, event_id: str) -> bool:
        async with self.db.transaction() as session:
            row = await session.get(SandboxWebhook, event_id, with_for_update=True, populate_existing=True)
            if row is None or row.delivered_at is not None:
                return True
            payload = row.payload
        try:
            response = await self.http.post(self.webhook_url, content=payload, headers={
                "Content-Type": "application/json", "Stripe-Signature": stripe_signature(payload, self.webhook_secret)})
            ok = 200 <= response.status_code < 300
        except httpx.HTTPError as exc:
            log.warning("sandbox webhook %s not delivered: %r", event_id, exc)
            ok = False
        async with self.db.transaction() as session:
            row = await session.get(SandboxWebhook, event_id, with_for_update=True)
            if ok:
                row.delivered_at = self.clock()
            else:
                row.attempts += 1
                row.next_attempt_at = self.clock() + timedelta(seconds=min(2 ** row.attempts, 3600))
        return ok

    async def deliver_due(self) -> int:
        """Retries undelivered webhooks (a job), as Stripe does."""
        async with self.db.transaction() as session:
            due = list(await session.scalars(
                select(SandboxWebhook.id).where(SandboxWebhook.delivered_at.is_(None),
                                                SandboxWebhook.next_attempt_at <= self.clock())
                .order_by(SandboxWebhook.next_attempt_at).limit(50)))
        for event_id in due:
            await self.deliver(event_id)
        return len(due)

    async def expire_sessions(self) -> None:
        async with self.db.transaction() as session:
            await session.execute(update(SandboxCheckout).where(
                SandboxCheckout.status == "open", SandboxCheckout.expires_at <= self.clock()).values(
                status="expired"))

    # --- payouts --------------------------------------------------------------------------
    async def send(self, order: PayoutOrder) -> PayoutResult:
        if order.method == "PAYPAL" and order.destination.get("paypal_email", "").endswith(FAILING_PAYPAL_DOMAIN):
            return PayoutResult("FAILED", reason="The PayPal account cannot receive payments.")
        if order.method == "BANK_TRANSFER" and order.destination.get("bank_account") == FAILING_BANK_ACCOUNT:
            return PayoutResult("FAILED", reason="The bank account is closed.")
        return PayoutResult("PAID", reference=_digest_id("po", order.idempotency_key))

    async def status(self, order: PayoutOrder, reference: str) -> PayoutResult:
        return PayoutResult("PAID", reference=reference)


def _session_object(row: SandboxCheckout) -> dict:
    """A Checkout Session as Stripe sends it in checkout.session.completed (the fields that matter)."""
    return {
        "id": row.id, "object": "checkout.session", "mode": "payment", "status": row.status,
        "payment_status": "paid", "amount_subtotal": row.amount_cents, "amount_total": row.amount_cents,
        "currency": row.currency.lower(), "customer_email": row.customer_email,
        "customer_details": {"email": row.customer_email}, "metadata": row.metadata_,
        "client_reference_id": row.metadata_.get("bid_id") or row.metadata_.get("campaign_id"),
        "payment_intent": row.payment_intent,
        "success_url": row.success_url, "cancel_url": row.cancel_url, "livemode": False,
        "expires_at": int(row.expires_at.timestamp()), "created": int(row.created_at.timestamp()),
    }


def _charge_object(row: SandboxCheckout, refund_id: str, amount_cents: int) -> dict:
    return {
        "id": _digest_id("ch", row.payment_intent), "object": "charge", "amount": row.amount_cents,
        "amount_captured": row.amount_cents, "amount_refunded": row.amount_refunded_cents, "captured": True,
        "currency": row.currency.lower(), "metadata": row.metadata_, "paid": True,
        "payment_intent": row.payment_intent, "refunded": row.refunded, "status": "succeeded",
        "refunds": {"object": "list", "data": [{"id": refund_id, "object": "refund", "amount": amount_cents,
                                                "status": "succeeded"}]},
    }


def _card_charge_object(row: SandboxCheckout, card: str, cardholder: str | None = None) -> dict:
    """A Charge as Stripe sends it in charge.succeeded (the fields that matter)."""
    digits = "".join(ch for ch in card if ch.isdigit()) or DEFAULT_CARD
    return {
        "id": _digest_id("ch", row.payment_intent), "object": "charge", "amount": row.amount_cents,
        "amount_captured": row.amount_cents, "amount_refunded": 0, "captured": True, "paid": True,
        "currency": row.currency.lower(), "metadata": row.metadata_, "payment_intent": row.payment_intent,
        "status": "succeeded", "payment_method_details": {"type": "card", "card": {
            "brand": "visa", "last4": digits[-4:], "fingerprint": card_fingerprint(card)}},
        "billing_details": {"name": cardholder or None, "email": row.customer_email},
    }
