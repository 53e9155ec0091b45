"""Money a creator owes: released money taken back by a refund after it was paid out. It is a receivable in the
ledger (`creator:<id>:owed`), paid back first from the creator's available balance: the releases not paid out,
oldest first, each marking the part that went to the debt (`recovered_cents`), so a payout never pays it.

Lock order, everywhere a creator's balances and releases are touched together: the available balance row, then
the owed balance row, then the release rows (the payout planner and the refund follow it), so none deadlock."""

import uuid
from datetime import datetime

from pinbid_kit.events import EventData
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from . import bookkeeping, events_out
from .domain import ledger, reversal
from .models import CreatorRecovery, EarningRelease


async def lock_balances(session: AsyncSession, creator_id: uuid.UUID) -> tuple[int, int]:
    """(available, owed), their rows locked in name order."""
    available = await bookkeeping.balance(session, ledger.creator_available(creator_id), lock=True)
    owed = await bookkeeping.balance(session, ledger.creator_owed(creator_id), lock=True)
    return available, owed


async def record(session: AsyncSession, events: list[EventData], creator_id: uuid.UUID, *, kind: str, cents: int,
                 owed_after: int, currency: str, transaction_id: uuid.UUID, at: datetime,
                 refunded_payment_id: uuid.UUID | None = None) -> CreatorRecovery:
    """Keep one change of the debt and collect its event into the use case's `events`."""
    row = CreatorRecovery(id=uuid.uuid4(), creator_id=creator_id, kind=kind, cents=cents, owed_after_cents=owed_after,
                          currency=currency, refunded_payment_id=refunded_payment_id, transaction_id=transaction_id,
                          recorded_at=at)
    session.add(row)
    await session.flush()
    events.append(events_out.recovery_recorded(row))
    return row


async def recoverable(session: AsyncSession, creator_id: uuid.UUID) -> list[EarningRelease]:
    """The creator's releases not paid out with cents not yet taken for a debt, oldest first, locked (after the
    balance rows: see the lock order above)."""
    return list(await session.scalars(
        select(EarningRelease).where(EarningRelease.creator_id == creator_id, EarningRelease.payout_id.is_(None),
                                     EarningRelease.cents > EarningRelease.recovered_cents)
        .order_by(EarningRelease.released_at, EarningRelease.payment_id, EarningRelease.stage).with_for_update()))


def offered(releases: list[EarningRelease]) -> list[int]:
    return [release.cents - release.recovered_cents for release in releases]


async def recover(session: AsyncSession, events: list[EventData], creator_id: uuid.UUID, *, currency: str,
                  at: datetime) -> int:
    """Pay back what the creator owes from their releases not paid out; returns the cents recovered."""
    _, owed = await lock_balances(session, creator_id)
    if owed <= 0:
        return 0
    releases = await recoverable(session, creator_id)
    plan = reversal.recovery(creator_id, offered(releases), owed)
    if plan.transaction is None:
        return 0
    [tx] = await bookkeeping.post_all(session, [bookkeeping.Posted(plan.transaction)])
    await recovered(session, events, creator_id, releases, plan, owed=owed, transaction_id=tx, currency=currency,
                    at=at)
    return plan.cents


async def recovered(session: AsyncSession, events: list[EventData], creator_id: uuid.UUID,
                    releases: list[EarningRelease], plan: reversal.Recovery, *, owed: int,
                    transaction_id: uuid.UUID, currency: str, at: datetime) -> None:
    """Keep a recovery `plan` posted as `transaction_id`: each release marks its part, the debt's change is
    recorded. `owed`: the debt before it."""
    for release, part in zip(releases, plan.parts, strict=True):
        release.recovered_cents += part
    await record(session, events, creator_id, kind="RECOVERED", cents=plan.cents, owed_after=owed - plan.cents,
                 currency=currency, transaction_id=transaction_id, at=at)


async def owed(session: AsyncSession, creator_id: uuid.UUID) -> int:
    return await bookkeeping.balance(session, ledger.creator_owed(creator_id))
