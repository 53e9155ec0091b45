"""POST /payments/create-checkout-session: the bid's buyer opens (or reopens) the provider's checkout."""

import asyncio
import uuid
from datetime import timedelta

from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from pinbid_kit.errors import BadGateway, Conflict, NotFound, NotYet
from pinbid_kit.tokens import Principal
from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert

from .models import CheckoutSession, Payment, User
from .ports import CheckoutOrder, CheckoutProvider, OpenedCheckout, ProviderError
from .settings import PaymentsSettings

NOT_AWAITING = "This bid is not awaiting payment."
PREPARING_RETRY_SECONDS = 2
REUSE_MARGIN = timedelta(minutes=5)  # a session about to expire is not handed out again


class PaymentPreparing(NotYet):
    def __init__(self) -> None:
        super().__init__("The payment is being prepared. Please try again in a moment.", code="payment_preparing",
                         retry_after=PREPARING_RETRY_SECONDS)


class Checkout:
    def __init__(self, db: Database, settings: PaymentsSettings, provider: CheckoutProvider, clock: Clock = utcnow):
        self.db = db
        self.settings = settings
        self.provider = provider
        self.clock = clock
        self._opening: dict[str, asyncio.Future[OpenedCheckout]] = {}  # provider calls in flight, by key

    async def start(self, principal: Principal, bid_id: uuid.UUID) -> str:
        """The checkout URL. While a session is open the same one is returned (paying twice is impossible).
        No lock or connection is held while the provider is called: racing requests compute the same attempt,
        hence the same idempotency key, so the provider opens one session and the first to record it wins."""
        async with self.db.transaction() as session:
            payment = await session.scalar(select(Payment).where(Payment.bid_id == bid_id))
            if payment is None:
                # Payments learns of an approval from marketplace's event, which may still be on its way: the
                # buyer who just saw "approved" is asked to retry, not told the bid awaits nothing.
                raise PaymentPreparing()
            if payment.buyer_id != principal.user_id:
                raise NotFound(NOT_AWAITING, code="not_awaiting_payment")
            now = self.clock()
            if payment.status == "COMPLETED":
                raise Conflict("This bid is already paid.", code="already_paid")
            if payment.status == "REFUNDED":
                raise Conflict("This bid was paid and refunded.", code="refunded")
            if payment.status == "EXPIRED" or payment.expires_at <= now:
                raise Conflict("The time to pay for this bid has run out.", code="payment_expired")
            latest = await session.scalar(select(CheckoutSession).where(CheckoutSession.payment_id == payment.id)
                                          .order_by(CheckoutSession.attempt.desc()).limit(1))
            if latest is not None and latest.expires_at > now + REUSE_MARGIN:
                return latest.url
            attempt = (latest.attempt + 1) if latest else 1
            email = await session.scalar(select(User.email).where(User.id == payment.buyer_id))
        order = CheckoutOrder(
            payment_id=payment.id, bid_id=payment.bid_id, title=payment.slot_title,
            price_cents=payment.price_cents, buyer_fee_cents=payment.buyer_fee_cents, currency=payment.currency,
            customer_email=email, success_url=self.settings.browser_url("/my-bids?payment=success"),
            cancel_url=self.settings.browser_url("/my-bids?payment=cancelled"), expires_at=payment.expires_at,
            idempotency_key=f"checkout-{payment.id}-{attempt}")
        opened = await self.open_session(order)
        async with self.db.transaction() as session:
            await session.execute(insert(CheckoutSession).values(
                id=opened.session_id, payment_id=payment.id, attempt=attempt, url=opened.url,
                expires_at=opened.expires_at).on_conflict_do_nothing())
            recorded = await session.scalar(select(CheckoutSession).where(
                CheckoutSession.payment_id == payment.id, CheckoutSession.attempt == attempt))
            url, session_id = (recorded.url, recorded.id) if recorded else (opened.url, opened.session_id)
            await session.execute(update(Payment).where(Payment.id == payment.id, Payment.status == "REQUESTED")
                                  .values(provider_session_id=session_id))
        return url

    async def open_session(self, order: CheckoutOrder) -> OpenedCheckout:
        """Requests of this process for the same attempt share one provider call (Stripe answers 409 to an
        idempotency key that is still in flight)."""
        key = order.idempotency_key
        call = self._opening.get(key)
        if call is None:
            call = self._opening[key] = asyncio.ensure_future(self.provider.open_checkout(order))
            call.add_done_callback(lambda _: self._opening.pop(key, None))
        try:
            return await asyncio.shield(call)  # one caller giving up does not cancel the others' call
        except ProviderError:
            raise BadGateway("The payment provider is not available. Please try again.",
                             code="provider_unavailable") from None

    async def sessions_opened(self, payment_id: uuid.UUID) -> int:
        async with self.db.transaction() as session:
            return await session.scalar(select(func.count()).where(CheckoutSession.payment_id == payment_id))
