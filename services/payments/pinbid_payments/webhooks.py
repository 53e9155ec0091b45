"""POST /payments/webhook: verify Stripe's signature, apply each event once, tolerate any order."""

import json
import logging
import time
from dataclasses import replace
from datetime import timedelta

import stripe
from pinbid_kit import outbox
from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from pinbid_kit.errors import ApiError, Conflict
from pinbid_kit.events import EventData
from pinbid_kit.text import unsafe_character
from sqlalchemy import or_, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, campaign_money, events_out, settlement
from .adapters.signing import signed_at
from .completion import Completions
from .domain.webhooks import (
    CardCharged,
    ChargeDisputed,
    ChargeRefunded,
    CheckoutExpired,
    CheckoutPaid,
    FundingExpired,
    FundingPaid,
    Ignored,
    Malformed,
    PaymentAttemptFailed,
    interpret,
)
from .metrics import WEBHOOKS_REFUSED
from .models import CampaignFunding, Payment, WebhookEvent
from .ports import CheckoutProvider
from .settings import PaymentsSettings

log = logging.getLogger("pinbid.payments.webhooks")


class BadWebhook(ApiError):
    status = 400
    code = "bad_webhook"


def _fits(value: object, max_length: int) -> bool:
    """An event's id or type as our table keeps it."""
    return isinstance(value, str) and 0 < len(value) <= max_length and unsafe_character(value) is None


class Webhooks:
    def __init__(self, db: Database, settings: PaymentsSettings, provider: CheckoutProvider, clock: Clock = utcnow):
        self.db = db
        self.settings = settings
        self.provider = provider
        self.clock = clock
        self.completions = Completions(db, pin_deadline=timedelta(days=settings.pin_deadline_days))

    def verify(self, payload: bytes, signature: str | None) -> dict:
        """The event, once its signature is Stripe's and dated within the tolerance either way. Wall-clock
        time, not the service's clock: it is about when the provider signed, not about business time."""
        tolerance = self.settings.webhook_tolerance_seconds
        try:
            text = payload.decode("utf-8")
            stripe.WebhookSignature.verify_header(text, signature, self.settings.webhook_secret, tolerance)
        except stripe.SignatureVerificationError:
            raise BadWebhook("The webhook signature is invalid or too old.", code="bad_signature") from None
        except UnicodeDecodeError:
            raise BadWebhook("The webhook body is not valid JSON.") from None
        if signed_at(signature) > time.time() + tolerance:  # Stripe's check covers only the past
            raise BadWebhook("The webhook signature is dated in the future.", code="bad_signature")
        try:
            event = json.loads(text)
        except (ValueError, RecursionError):  # RecursionError: nested too deep
            raise BadWebhook("The webhook body is not valid JSON.") from None
        if not isinstance(event, dict) or not _fits(event.get("id"), 255) or not _fits(event.get("type"), 100):
            raise BadWebhook("The webhook is not a Stripe event.")
        return event

    async def receive(self, payload: bytes, signature: str | None) -> str:
        """Returns what was done. A duplicate delivery is answered 200 and does nothing."""
        try:
            event = self.verify(payload, signature)
            try:
                action = interpret(event)
            except Malformed as exc:
                raise BadWebhook(f"The webhook is malformed: {exc}") from None
        except BadWebhook as refused:
            WEBHOOKS_REFUSED.labels(refused.code).inc()
            raise
        if isinstance(action, CheckoutPaid):
            done = await self.completions.complete(event, action, self.clock())
            if done is not None:
                log.info("webhook %s %s: %s", event["type"], event["id"], done)
                return done
        async with self.db.transaction() as session:
            first = await session.scalar(insert(WebhookEvent).values(id=event["id"], type=event["type"], outcome="")
                                         .on_conflict_do_nothing().returning(WebhookEvent.id))
            if first is None:
                return "duplicate"
            events: list[EventData] = []
            outcome = await self._apply(session, events, action)
            await outbox.publish_all(session, events, source=SERVICE)
            await session.execute(update(WebhookEvent).where(WebhookEvent.id == event["id"])
                                  .values(outcome=outcome[:200]))
        log.info("webhook %s %s: %s", event["type"], event["id"], outcome)
        return outcome

    async def _payment(self, session: AsyncSession, payment_id, payment_intent: str | None) -> Payment | None:
        conditions = []
        if payment_id is not None:
            conditions.append(Payment.id == payment_id)
        if payment_intent:
            conditions.append(Payment.payment_intent == payment_intent)
        if not conditions:
            return None
        return await session.scalar(select(Payment).where(or_(*conditions)).limit(1).with_for_update())

    async def _apply(self, session: AsyncSession, events: list[EventData], action) -> str:
        """What `action` does, its events added to `events` (written once by the caller)."""
        now = self.clock()
        if isinstance(action, Ignored):
            return f"ignored: {action.reason}"
        if (isinstance(action, ChargeRefunded | CardCharged) and action.funding_id is None
                and action.payment_id is None and action.payment_intent):
            # a charge that does not carry its payment intent's metadata: a funding's is known by its intent
            funding_id = await session.scalar(select(CampaignFunding.id).where(
                CampaignFunding.payment_intent == action.payment_intent))
            if funding_id is not None:
                action = replace(action, funding_id=funding_id)
        if isinstance(action, FundingPaid | FundingExpired | ChargeDisputed) or (
                isinstance(action, ChargeRefunded | CardCharged) and action.funding_id is not None):
            return await self._funding(session, events, action, now)
        if isinstance(action, CheckoutPaid):
            payment = await self._payment(session, action.payment_id, None)
            if payment is None:
                return "ignored: unknown payment"
            if (action.amount_cents, action.currency) != (payment.amount_cents, payment.currency):
                log.error("checkout %s paid %d %s for payment %s of %d %s", action.session_id, action.amount_cents,
                          action.currency, payment.id, payment.amount_cents, payment.currency)
                return "ignored: amount does not match"
            kwargs = dict(now=now, session_id=action.session_id, payment_intent=action.payment_intent,
                          pin_deadline=timedelta(days=self.settings.pin_deadline_days))
            if payment.status == "REQUESTED":
                await settlement.complete(session, events, payment, **kwargs)
                return "completed"
            if payment.status == "EXPIRED":
                # paid at the very end of the window, after it was closed: give the money back
                await settlement.record_payment(session, payment, **kwargs)
                events.append(events_out.payment_paid_after_expiry(payment, now))
                if action.payment_intent:
                    await self.provider.refund(action.payment_intent, f"refund-{payment.id}")
                await settlement.reverse(session, events, payment, now=now, reason="paid_after_expiry")
                return "refunded: paid after the pay window"
            return f"ignored: payment already {payment.status}"
        if isinstance(action, CheckoutExpired):
            payment = await self._payment(session, action.payment_id, None)
            if payment is not None and payment.status == "REQUESTED" and payment.expires_at <= now:
                payment.status = "EXPIRED"
                events.append(events_out.payment_expired(payment))
                return "expired"
            return "ignored: the pay window is still open or already closed"
        if isinstance(action, PaymentAttemptFailed):
            payment = await self._payment(session, action.payment_id, action.payment_intent)
            if payment is None or payment.status != "REQUESTED":
                return "ignored: no open payment"
            payment.last_failure = action.message[:1000]
            events.append(events_out.payment_failed(payment, action.message[:500]))
            return "attempt failed"
        if isinstance(action, CardCharged):
            payment = await self._payment(session, action.payment_id, action.payment_intent)
            if payment is None:
                # Stripe often sends the charge before the checkout's completion that tells us its payment
                # intent: asked to send it again later
                raise Conflict("This charge arrived before its payment; it will be retried.", code="out_of_order")
            observed = [("CARD", action.fingerprint), ("EMAIL", action.billing_email), ("NAME", action.billing_name)]
            events.extend(events_out.account_signals(
                payment.buyer_id, [(kind, value) for kind, value in observed if value is not None], now))
            return "card signal"
        if isinstance(action, ChargeRefunded):
            payment = await self._payment(session, action.payment_id, action.payment_intent)
            if payment is None:
                return "ignored: unknown payment"
            return await self._refunded(session, events, payment, action, now)
        return "ignored"

    async def _funding(self, session: AsyncSession, events: list[EventData], action, now) -> str:
        """A campaign's funding payment: its checkout paid or expired, its charge's card, refunds and disputes.
        The campaign's row is locked before the funding's (campaign_money's order)."""
        if isinstance(action, ChargeDisputed):
            funding_id = await session.scalar(select(CampaignFunding.id).where(
                CampaignFunding.payment_intent == action.payment_intent))
            if funding_id is None:
                return "ignored: a dispute of a bid's payment (operators handle it at the provider)"
        else:
            funding_id = action.funding_id
        campaign_id = await session.scalar(select(CampaignFunding.campaign_id).where(CampaignFunding.id == funding_id))
        if campaign_id is None:
            return "ignored: unknown funding"
        campaign = await campaign_money.locked(session, campaign_id)
        funding = await campaign_money.locked_funding(session, funding_id)
        if isinstance(action, FundingPaid):
            if (action.amount_cents, action.currency) != (funding.amount_cents, funding.currency):
                log.error("checkout %s paid %d %s for funding %s of %d %s", action.session_id, action.amount_cents,
                          action.currency, funding.id, funding.amount_cents, funding.currency)
                return "ignored: amount does not match"
            return await campaign_money.funded(session, events, campaign, funding, session_id=action.session_id,
                                               payment_intent=action.payment_intent, now=now,
                                               provider=self.provider)
        if isinstance(action, FundingExpired):
            if funding.status != "OPEN":
                return f"ignored: funding already {funding.status}"
            funding.status = "EXPIRED"  # nothing was paid: nothing moves
            return "funding expired"
        if isinstance(action, CardCharged):
            observed = [("CARD", action.fingerprint), ("EMAIL", action.billing_email), ("NAME", action.billing_name)]
            events.extend(events_out.account_signals(
                funding.buyer_id, [(kind, value) for kind, value in observed if value is not None], now))
            return "card signal"
        if funding.status != "COMPLETED":
            # the refund or dispute overtook the checkout's completion: ask Stripe to send it again later
            raise Conflict("This refund arrived before its payment; it will be retried.", code="out_of_order")
        if isinstance(action, ChargeDisputed):
            if funding.disputed_cents > 0:
                return "ignored: funding already disputed"
            return await campaign_money.reversed_at_provider(session, events, campaign, funding,
                                                             action.amount_cents, disputed=True)
        return await campaign_money.funding_refunded(session, events, campaign, funding, action.refunded_cents)

    async def _refunded(self, session: AsyncSession, events: list[EventData], payment: Payment,
                        action: ChargeRefunded, now) -> str:
        """Stripe's `amount_refunded` is what was refunded of the charge in all. What our ledger already gave back
        is not announced again: a partial refund of everything left (an early end with nothing released) is
        followed by a "full" charge.refunded that is only its echo. A refund we ordered and the provider made is
        booked here if its job has not booked it yet; a full refund made at the provider by someone else gives
        back what is left."""
        if payment.status == "REQUESTED":
            if not action.full:
                return "ignored: partial refund of a payment not completed"
            # the refund overtook the payment's completion: ask Stripe to send it again later
            raise Conflict("This refund arrived before its payment; it will be retried.", code="out_of_order")
        if payment.status != "COMPLETED":
            return f"ignored: payment already {payment.status}"
        booked = payment.early_refund_cents if payment.early_refunded_at is not None else 0
        if action.refunded_cents <= booked:
            return "ignored: already booked"
        early_ordered = payment.early_refund_next_at is not None and payment.early_refunded_at is None
        if early_ordered and action.refunded_cents == payment.early_refund_cents:
            await settlement.early_refund_done(session, events, payment, now=now)
            return "partially refunded: the early end's refund confirmed"
        if not action.full:
            log.warning("charge of payment %s partly refunded at the provider (%d of %d cents), not by Pinbid",
                        payment.id, action.refunded_cents, action.amount_cents)
            return "ignored: partial refund"
        ordered = payment.full_refund_reason if payment.full_refund_requested_at is not None else None
        await settlement.reverse(session, events, payment, now=now, reason=ordered or "refunded_at_provider")
        return "refunded"
