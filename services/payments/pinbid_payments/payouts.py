"""The payout worker. Planning: on each creator's schedule day, claim (creator, period) once, and pay the released
stages not paid yet (EarningRelease) when they reach the creator's minimum (else they roll over). Delivery: send
each created payout through its provider under the payout's idempotency key, then mark it paid or failed."""

import logging
import uuid
from decimal import Decimal

from pinbid_kit import outbox
from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from pinbid_kit.events import EventData
from sqlalchemy import select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, bookkeeping, events_out, recovery
from .domain import ledger
from .domain.money import to_cents
from .domain.payout_settings import DEFAULTS, PayoutSettings
from .domain.schedule import Schedule, due_period
from .metrics import PAYOUTS_FAILED
from .models import Earning, EarningRelease, Payout, PayoutRun, PayoutSettingsRow
from .payout_settings import PayoutSettingsService
from .ports import PayoutOrder, PayoutProvider, PayoutResult, ProviderError

log = logging.getLogger("pinbid.payments.payouts")

_CREATORS_WITH_MONEY = text(
    "SELECT split_part(account, ':', 2)::uuid AS creator_id FROM ledger_accounts "
    "WHERE account LIKE :pattern AND balance_cents > 0 ORDER BY account").bindparams(pattern="creator:%:available")


class PayoutWorker:
    def __init__(self, db: Database, settings_service: PayoutSettingsService, providers: dict[str, PayoutProvider],
                 *, stripe_connect_live: bool = False, clock: Clock = utcnow, batch_size: int = 100):
        self.db = db
        self.settings_service = settings_service
        self.providers = providers  # by payout method
        self.stripe_connect_live = stripe_connect_live
        self.clock = clock
        self.batch_size = batch_size

    async def run_once(self) -> tuple[int, int]:
        return await self.plan(), await self.deliver()

    # --- planning ---------------------------------------------------------------------------
    async def plan(self, *, only: list[uuid.UUID] | None = None) -> int:
        """`only` limits the run to these creators (the demo replays past months for its own creators)."""
        async with self.db.transaction() as session:
            creators = list(await session.scalars(_CREATORS_WITH_MONEY))
        if only is not None:
            creators = [c for c in creators if c in set(only)]
        created = 0
        for creator_id in creators:
            created += await self._plan_creator(creator_id)
        return created

    async def _plan_creator(self, creator_id: uuid.UUID) -> int:
        async with self.db.transaction() as session:
            events: list[EventData] = []
            created = await self._plan(session, events, creator_id)
            await outbox.publish_all(session, events, source=SERVICE)
            return created

    async def _plan(self, session: AsyncSession, events: list[EventData], creator_id: uuid.UUID) -> int:
        """The creator's payout for the period due, if any, in the caller's transaction; its events (and any
        recovery's) added to `events`."""
        now = self.clock()
        settings = await self.settings_service.stored(session, creator_id) or DEFAULTS
        period = due_period(Schedule(settings.schedule), now)
        if period is None:
            return 0
        claimed = await session.scalar(insert(PayoutRun).values(
            creator_id=creator_id, period=period, outcome="PLANNING", available_cents=0,
        ).on_conflict_do_nothing().returning(PayoutRun.period))
        if claimed is None:
            return 0  # another worker, or an earlier run, already decided this period
        # what the creator owes is paid back before anything is paid out (a payout never pays while owed > 0)
        await recovery.recover(session, events, creator_id, currency=settings.currency, at=now)
        owed = await recovery.owed(session, creator_id)
        releases = list(await session.scalars(
            select(EarningRelease).where(EarningRelease.creator_id == creator_id,
                                         EarningRelease.payout_id.is_(None), EarningRelease.released_at <= now,
                                         EarningRelease.cents > EarningRelease.recovered_cents)
            .order_by(EarningRelease.released_at).with_for_update()))
        net = sum(r.cents - r.recovered_cents for r in releases)
        run = await session.get(PayoutRun, (creator_id, period))
        run.available_cents = net
        destination = self._destination(settings)
        if owed > 0:
            run.outcome = "HELD_OWED"  # what the creator owes is recovered from this money first
            return 0
        if net <= 0 or net < to_cents(settings.minimum_payout or Decimal(50)):
            run.outcome = "ROLLED_OVER"
            return 0
        if destination is None:
            run.outcome = "ROLLED_OVER_NO_DETAILS"
            return 0
        earnings = {e.payment_id: e for e in await session.scalars(select(Earning).where(
            Earning.payment_id.in_({r.payment_id for r in releases})))}
        # a release partly used to pay back a debt carries the fee of the part paid out
        fee = sum(r.fee_cents * (r.cents - r.recovered_cents) // r.cents for r in releases)
        payout = Payout(id=uuid.uuid4(), creator_id=creator_id, period=period, method=settings.payout_method,
                        gross_cents=net + fee, fee_cents=fee, net_cents=net,
                        currency=next(iter(earnings.values())).currency, status="CREATED", created_at=now,
                        idempotency_key=f"payout-{creator_id}-{period}")
        session.add(payout)
        await session.flush()
        for release in releases:
            release.payout_id = payout.id
        for earning in earnings.values():
            earning.payout_id = payout.id
        run.outcome = "PAYOUT_CREATED"
        run.payout_id = payout.id
        await bookkeeping.post(session, ledger.payout_sent(creator_id, net), payout_id=payout.id)
        events.append(events_out.payout_created(payout))
        return 1

    def _destination(self, settings: PayoutSettings) -> dict[str, str] | None:
        if settings.payout_method == "PAYPAL":
            return {"paypal_email": settings.paypal_email} if settings.paypal_email else None
        if not settings.bank_account:
            return None
        return {"bank_account": settings.bank_account, "account_name": settings.account_name or ""}

    # --- delivery ---------------------------------------------------------------------------
    async def deliver(self, *, only: list[uuid.UUID] | None = None) -> int:
        settled = 0
        skipped: set[uuid.UUID] = set()  # left for the next run: provider pending or unreachable
        for _ in range(self.batch_size):
            outcome = await self._deliver_next(skipped, only)
            if outcome is None:
                break
            settled += outcome
        return settled

    async def _deliver_next(self, skipped: set[uuid.UUID], only: list[uuid.UUID] | None) -> int | None:
        """One payout per transaction, locked (SKIP LOCKED) while its provider is called: two workers never
        send the same payout at once, and the idempotency key covers a crash between send and commit."""
        async with self.db.transaction() as session:
            payout = await session.scalar(
                select(Payout).where(Payout.status == "CREATED", Payout.id.not_in(skipped),
                                     Payout.creator_id.in_(only) if only is not None else True)
                .order_by(Payout.created_at).limit(1)
                .with_for_update(skip_locked=True))
            if payout is None:
                return None
            settings = await self.settings_service.stored(session, payout.creator_id) or DEFAULTS
            destination = self._destination(settings) or {}
            if self.stripe_connect_live and payout.method == "BANK_TRANSFER":
                destination = {"stripe_account_id": await self._stripe_account(session, payout.creator_id) or ""}
            order = PayoutOrder(payout_id=payout.id, creator_id=payout.creator_id, method=payout.method,
                                net_cents=payout.net_cents, currency=payout.currency, period=payout.period,
                                idempotency_key=payout.idempotency_key, destination=destination)
            provider = self.providers[payout.method]
            payout.attempts += 1
            try:
                if payout.provider_reference:
                    result = await provider.status(order, payout.provider_reference)
                else:
                    result = await provider.send(order)
            except ProviderError as exc:
                log.warning("payout %s not delivered yet: %s", payout.id, exc)
                payout.failure_reason = str(exc)[:1000]
                skipped.add(payout.id)
                return 0
            if result.status == "PENDING":
                skipped.add(payout.id)
            events: list[EventData] = []
            settled = await self._settle(session, events, payout, result)
            await outbox.publish_all(session, events, source=SERVICE)
            return settled

    async def _stripe_account(self, session: AsyncSession, creator_id: uuid.UUID) -> str | None:
        return await session.scalar(select(PayoutSettingsRow.stripe_account_id)
                                    .where(PayoutSettingsRow.creator_id == creator_id))

    async def _settle(self, session: AsyncSession, events: list[EventData], payout: Payout,
                      result: PayoutResult) -> int:
        now = self.clock()
        if result.reference:
            payout.provider_reference = result.reference
        if result.status == "PENDING":
            return 0  # asked again on the next run
        payout.settled_at = now
        if result.status == "PAID":
            payout.status = "PAID"
            payout.failure_reason = None
            events.append(events_out.payout_paid(payout))
            return 1
        payout.status = "FAILED"
        payout.failure_reason = (result.reason or "The payout was refused.")[:1000]
        # the money goes back to the creator's available balance and is paid with a later period
        await session.execute(update(Earning).where(Earning.payout_id == payout.id).values(payout_id=None))
        await bookkeeping.post(session, ledger.payout_reversed(payout.creator_id, payout.net_cents),
                               payout_id=payout.id)
        # the money is back in the available balance: what the creator owes (a bid refunded while this payout was
        # in flight, or another refund since) is paid back from it first
        await session.execute(update(EarningRelease).where(EarningRelease.payout_id == payout.id)
                              .values(payout_id=None))
        await recovery.recover(session, events, payout.creator_id, currency=payout.currency, at=now)
        events.append(events_out.payout_failed(payout))
        PAYOUTS_FAILED.inc()
        return 1
