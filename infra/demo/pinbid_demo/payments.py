"""The demo world's money (the plan: `plan.py`), through payments' own code paths, with the sandbox
providers only (never with Stripe or live payouts).

seed: the demo creators' payout settings (bank transfer, monthly), then every slot the plan has paid is
paid "as of" its pay date: the brand opens the sandbox checkout, pays, and the sandbox's Stripe-signed
webhook is handled by the webhook code with its clock at that date.
finish (after social pinned): the monthly payouts of the last three months, each run as of its first day
(for the demo creators only), and the refund job, which refunds the paid slots never pinned in time.
Every step is skipped when done: payments already paid, periods already decided, settings already saved."""

import logging
import uuid
from datetime import datetime, timedelta
from decimal import Decimal

import httpx
from pinbid_kit.clock import as_of, utcnow
from pinbid_kit.errors import ApiError
from pinbid_kit.runtime import Service
from pinbid_kit.tokens import Principal
from pinbid_payments.adapters.sandbox import SandboxProvider
from pinbid_payments.checkout import Checkout
from pinbid_payments.domain.payout_settings import PayoutSettings
from pinbid_payments.models import Earning, Payment, User
from pinbid_payments.payout_settings import PayoutSettingsService
from pinbid_payments.payouts import PayoutWorker
from pinbid_payments.refunds import Refunds
from pinbid_payments.settings import PaymentsSettings
from pinbid_payments.webhooks import Webhooks
from sqlalchemy import select

from . import plan as demo

log = logging.getLogger("pinbid.demo.payments")
WAIT_SECONDS = 120.0  # an upper bound: each wait ends as soon as what it waits for arrived


def _sandbox_only(service: Service) -> bool:
    settings: PaymentsSettings = service.state["settings"]
    return settings.checkout_provider == "sandbox" and settings.payout_provider == "sandbox"


async def _users(service: Service, emails: list[str]) -> dict[str, uuid.UUID]:
    async with service.db.transaction() as session:
        return dict((await session.execute(select(User.email, User.id).where(User.email.in_(emails)))).all())


async def _payments(service: Service, titles: set[str]) -> dict[str, Payment]:
    """The demo creators' payments of the plan's slots, by slot title."""
    creators = await _users(service, [c.email for c in demo.CREATORS])
    async with service.db.transaction() as session:
        rows = await session.scalars(select(Payment).where(
            Payment.slot_title.in_(titles), Payment.creator_id.in_(creators.values())))
        return {p.slot_title: p for p in rows}


async def seed(service: Service) -> int:
    if not _sandbox_only(service):
        return 0
    now = utcnow()
    await _payout_settings(service, now)
    wanted = {s.title: s for s in demo.SLOTS if s.stage in demo.APPROVED}

    async def all_requested() -> dict[str, Payment]:
        found = await _payments(service, set(wanted))
        return found if len(found) == len(wanted) else {}

    found = await demo.wait_for(all_requested, seconds=WAIT_SECONDS) or await _payments(service, set(wanted))

    async def pay(title_payment: tuple[str, Payment]) -> int:
        title, payment = title_payment
        planned = wanted[title]
        if planned.stage not in demo.PAID or payment.status != "REQUESTED":
            return 0
        try:
            await _pay(service, payment, planned.paid_at(now))
            return 1
        except ApiError as refused:
            log.info("demo payment of %r refused: %s", title, refused.detail)
            return 0

    return await demo.each(found.items(), pay)


async def _payout_settings(service: Service, now: datetime) -> None:
    """Saved as of the demo's first listing: the creators set their payout account before their history began, and
    the notice that tells them so is dated then, not at the seeding."""
    settings_service: PayoutSettingsService = service.state["payout_settings"]
    creators = await _users(service, [c.email for c in demo.CREATORS])
    for email, creator_id in creators.items():
        _, saved = await settings_service.read(creator_id)
        if not saved:
            name = demo.creator(email).name
            with as_of(min(s.listed_at(now) for s in demo.SLOTS)):
                await settings_service.save(creator_id, PayoutSettings(
                    payout_method="BANK_TRANSFER", minimum_payout=Decimal(50), schedule="MONTHLY",
                    bank_account="12345678", routing_number="021000021", account_name=name, currency="USD"))


async def _pay(service: Service, payment: Payment, moment: datetime) -> None:
    """The brand pays in the sandbox checkout at `moment`; the webhook is handled as of that moment."""
    settings: PaymentsSettings = service.state["settings"]
    clock = demo.at(moment)
    webhooks = Webhooks(service.db, settings, service.state["sandbox"], clock)

    async def deliver(request: httpx.Request) -> httpx.Response:
        outcome = await webhooks.receive(request.content, request.headers.get("Stripe-Signature"))
        return httpx.Response(200, json={"received": outcome})

    with as_of(moment):  # what the payment causes elsewhere (the notices, the pin deadline) is dated then too
        async with httpx.AsyncClient(transport=httpx.MockTransport(deliver)) as in_process:
            sandbox = SandboxProvider(service.db, page_url=settings.browser_url("/api/payments/sandbox/checkout"),
                                      webhook_url=settings.webhook_url(), webhook_secret=settings.webhook_secret,
                                      http=in_process, clock=clock)
            checkout = Checkout(service.db, settings, sandbox, clock)
            url = await checkout.start(Principal(payment.buyer_id, "BUYER", 0, 0, ""), payment.bid_id)
            await sandbox.pay(url.rstrip("/").rsplit("/", 1)[-1])


async def finish(service: Service) -> int:
    if not _sandbox_only(service):
        return 0
    now = utcnow()
    pinned = {s.title for s in demo.SLOTS if s.stage in demo.PINNED}
    completed = {s.title for s in demo.SLOTS if s.stage == demo.Stage.COMPLETED}

    async def released() -> bool:
        """Every pin reached payments, and every completed placement is released in full."""
        found = await _payments(service, pinned)
        if len(found) != len(pinned) or any(p.pinned_at is None for p in found.values()):
            return False
        async with service.db.transaction() as session:
            statuses = dict((await session.execute(select(Earning.slot_title, Earning.status).where(
                Earning.payment_id.in_([p.id for p in found.values()])))).all())
        return all(statuses.get(title) == "AVAILABLE" for title in completed)

    if not await demo.wait_for(released, seconds=WAIT_SECONDS):
        log.warning("not every demo pin reached payments; paying out what is released")
    creators = list((await _users(service, [c.email for c in demo.CREATORS])).values())
    current: PayoutWorker = service.state["payouts"]
    made = 0
    for day in demo.payout_days(now):
        worker = PayoutWorker(service.db, current.settings_service, current.providers, clock=demo.at(day))
        with as_of(day):
            made += await worker.plan(only=creators)
            await worker.deliver(only=creators)
    await _refund_the_unpinned(service, now)
    return made


async def _refund_the_unpinned(service: Service, now: datetime) -> None:
    """The refund job as of each planned refund (a minute after its pin deadline passed), so a refund is dated
    when it happened; then as of now, for anything else due."""
    settings: PaymentsSettings = service.state["settings"]
    window = timedelta(days=settings.pin_deadline_days, minutes=1)
    refunds: Refunds = service.state["refunds"]
    for moment in sorted(s.paid_at(now) + window for s in demo.SLOTS if s.stage is demo.Stage.REFUNDED):
        if moment < now:
            with as_of(moment):
                await refunds.run_once()
    await refunds.run_once()
