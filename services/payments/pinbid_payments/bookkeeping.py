"""Writes ledger transactions. The database keeps the balances (trigger) and refuses an unbalanced
transaction (deferred constraint trigger) or an overdrawn account (CHECK). The platform's fee revenue is the sum of
its 16 accounts (ledger.platform_fees)."""

import uuid
from dataclasses import dataclass

from pinbid_kit.clock import replayed
from sqlalchemy import func, or_, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from .domain.ledger import PLATFORM_FEES, Transaction, normal_side
from .models import LedgerAccount

_OPEN = text("INSERT INTO ledger_accounts (account, normal_side, balance_cents) VALUES (:account, :side, 0) "
             "ON CONFLICT (account) DO NOTHING")
# created_at: the database's time, or the replayed moment of a replayed past (the demo's history)
_TX = text("INSERT INTO ledger_transactions (id, kind, payment_id, payout_id, created_at) "
           "VALUES (:id, :kind, :payment, :payout, coalesce(CAST(:at AS timestamptz), now()))")
_ENTRY = text("INSERT INTO ledger_entries (transaction_id, account, amount_cents) VALUES (:tx, :account, :amount)")


async def post(session: AsyncSession, transaction: Transaction, *, payment_id: uuid.UUID | None = None,
               payout_id: uuid.UUID | None = None) -> uuid.UUID:
    """Record `transaction` in the caller's database transaction (see `post_all`)."""
    return (await post_all(session, [Posted(transaction, payment_id, payout_id)]))[0]


@dataclass(frozen=True)
class Posted:
    transaction: Transaction
    payment_id: uuid.UUID | None = None
    payout_id: uuid.UUID | None = None


async def post_all(session: AsyncSession, postings: list[Posted]) -> list[uuid.UUID]:
    """Record several transactions, in this order, in the caller's database transaction: three statements
    whatever their number (the accounts opened, the transactions, their entries). Each transaction's accounts are
    touched in name order, so concurrent postings lock balances in the same order and cannot deadlock on them."""
    if not postings:
        return []
    accounts = sorted({p.account for posted in postings for p in posted.transaction.postings})
    await session.execute(_OPEN, [{"account": a, "side": normal_side(a).value} for a in accounts])
    ids = [uuid.uuid4() for _ in postings]
    at = replayed()
    pairs = list(zip(ids, postings, strict=True))
    await session.execute(_TX, [{"id": tx_id, "kind": posted.transaction.kind, "payment": posted.payment_id,
                                 "payout": posted.payout_id, "at": at} for tx_id, posted in pairs])
    await session.execute(_ENTRY, [{"tx": tx_id, "account": p.account, "amount": p.amount_cents}
                                   for tx_id, posted in pairs
                                   for p in sorted(posted.transaction.postings, key=lambda p: p.account)])
    return ids


async def balance(session: AsyncSession, account: str, *, lock: bool = False) -> int:
    if account == PLATFORM_FEES:
        assert not lock, "the fee revenue is a sum of accounts"
        return int(await session.scalar(select(func.coalesce(func.sum(LedgerAccount.balance_cents), 0)).where(or_(
            LedgerAccount.account == PLATFORM_FEES, LedgerAccount.account.like(PLATFORM_FEES + ":%")))))
    query = select(LedgerAccount.balance_cents).where(LedgerAccount.account == account)
    if lock:
        query = query.with_for_update()
    return await session.scalar(query) or 0
