"""Money a creator owes: released money taken back by a refund after it was paid out. It is a receivable in the
ledger (`creator:<id>:owed`), paid back first from the creator's available balance: the releases not paid out,
oldest first, each marking the part that went to the debt (`recovered_cents`), so a payout never pays it.

Lock order, everywhere a creator's balances and releases are touched together: the available balance row, then
the owed balance row, then the release rows (the payout planner and the refund follow it), so none deadlock."""

import uuid
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from . import bookkeeping, events_out
from .domain import ledger
from .models import CreatorRecovery, EarningRelease


async def lock_balances(session: AsyncSession, creator_id: uuid.UUID) -> tuple[int, int]:
    """(available, owed), their rows locked in name order."""
    available = await bookkeeping.balance(session, ledger.creator_available(creator_id), lock=True)
    owed = await bookkeeping.balance(session, ledger.creator_owed(creator_id), lock=True)
    return available, owed


async def record(session: AsyncSession, creator_id: uuid.UUID, *, kind: str, cents: int, owed_after: int,
                 currency: str, transaction_id: uuid.UUID, at: datetime,
                 refunded_payment_id: uuid.UUID | None = None) -> CreatorRecovery:
    row = CreatorRecovery(id=uuid.uuid4(), creator_id=creator_id, kind=kind, cents=cents, owed_after_cents=owed_after,
                          currency=currency, refunded_payment_id=refunded_payment_id, transaction_id=transaction_id,
                          recorded_at=at)
    session.add(row)
    await session.flush()
    await events_out.recovery_recorded(session, row)
    return row


async def recover(session: AsyncSession, creator_id: uuid.UUID, *, currency: str, at: datetime) -> int:
    """Pay back what the creator owes from their releases not paid out; returns the cents recovered."""
    _, owed = await lock_balances(session, creator_id)
    if owed <= 0:
        return 0
    releases = await session.scalars(
        select(EarningRelease).where(EarningRelease.creator_id == creator_id, EarningRelease.payout_id.is_(None),
                                     EarningRelease.cents > EarningRelease.recovered_cents)
        .order_by(EarningRelease.released_at, EarningRelease.payment_id, EarningRelease.stage).with_for_update())
    taken = 0
    for release in releases:
        part = min(release.cents - release.recovered_cents, owed - taken)
        if part <= 0:
            break
        release.recovered_cents += part
        taken += part
    if taken == 0:
        return 0
    tx = await bookkeeping.post(session, ledger.owed_recovered(creator_id, taken))
    await record(session, creator_id, kind="RECOVERED", cents=taken, owed_after=owed - taken, currency=currency,
                 transaction_id=tx, at=at)
    return taken


async def owed(session: AsyncSession, creator_id: uuid.UUID) -> int:
    return await bookkeeping.balance(session, ledger.creator_owed(creator_id))
