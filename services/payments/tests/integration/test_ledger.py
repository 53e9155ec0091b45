"""The ledger's invariants, checked over a busy history and enforced by the database itself."""

import asyncio
import uuid

import pytest
from pinbid_payments import bookkeeping
from pinbid_payments.domain.ledger import Posting, Transaction, creator_available, creator_pending
from sqlalchemy.exc import DBAPIError

from .test_payouts import MONDAY, earn, settings


async def assert_invariants(pay) -> None:
    unbalanced = await pay.rows("SELECT transaction_id, sum(amount_cents) FROM ledger_entries "
                                "GROUP BY transaction_id HAVING sum(amount_cents) <> 0")
    assert unbalanced == []
    assert await pay.scalar("SELECT count(*) FROM ledger_accounts WHERE balance_cents < 0") == 0
    drift = await pay.rows(
        "SELECT a.account FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account = a.account "
        "GROUP BY a.account, a.normal_side, a.balance_cents HAVING a.balance_cents <> coalesce(sum(CASE "
        "a.normal_side WHEN 'DEBIT' THEN e.amount_cents ELSE -e.amount_cents END), 0)")
    assert drift == []
    # the ledger agrees with the earnings it explains
    owed = await pay.scalar("SELECT coalesce(sum(balance_cents), 0) FROM ledger_accounts "
                            "WHERE account ~ '^creator:.*:(pending|available)$'")
    unpaid = await pay.scalar("SELECT coalesce(sum(net_cents), 0) FROM earnings "
                              "WHERE status IN ('PENDING', 'AVAILABLE') AND payout_id IS NULL")
    assert owed == unpaid


async def test_every_transaction_balances_and_no_balance_goes_negative(pay):
    creators = [uuid.uuid4() for _ in range(3)]
    for creator in creators:
        await settings(pay, creator)

    async def history(creator):
        await earn(pay, creator, 5_555, 7_001)
        unpinned = await pay.approve(3_333, creator=creator)
        await pay.pay(unpinned)

    await asyncio.gather(*[history(c) for c in creators])
    await assert_invariants(pay)
    pay.clock.now = MONDAY
    await asyncio.gather(*[pay.service.state["payouts"].run_once() for _ in range(3)])
    await assert_invariants(pay)
    pay.clock.advance(days=4)
    await asyncio.gather(*[pay.service.state["refunds"].run_once() for _ in range(3)])
    await assert_invariants(pay)
    assert await pay.scalar("SELECT count(*) FROM payments WHERE status = 'REFUNDED'") == 3
    assert await pay.scalar("SELECT count(*) FROM payouts WHERE status = 'PAID'") == 3
    platform = await pay.balance("platform:fees")
    assert platform == 3 * (556 + 700)  # 10% of 55.55 rounds half up to 5.56


async def test_the_database_refuses_an_unbalanced_transaction(pay):
    creator = uuid.uuid4()
    with pytest.raises(DBAPIError, match="does not balance"):
        async with pay.db.transaction() as session:
            await session.execute(bookkeeping._OPEN, {"account": creator_pending(creator), "side": "CREDIT"})
            tx = uuid.uuid4()
            await session.execute(bookkeeping._TX, {"id": tx, "kind": "forged", "payment": None, "payout": None,
                                                    "at": None})
            await session.execute(bookkeeping._ENTRY, {"tx": tx, "account": creator_pending(creator), "amount": -500})
    assert await pay.scalar("SELECT count(*) FROM ledger_entries") == 0


async def test_the_database_refuses_an_overdraft_and_edits(pay):
    creator = uuid.uuid4()
    overdraw = Transaction("forged", (Posting(creator_available(creator), 100), Posting(creator_pending(creator),
                                                                                        -100)))
    with pytest.raises(DBAPIError, match="no_negative_balance"):
        async with pay.db.transaction() as session:
            await bookkeeping.post(session, overdraw)
    approved = await pay.approve(1_000)
    await pay.pay(approved)
    with pytest.raises(DBAPIError, match="append-only"):
        async with pay.db.transaction() as session:
            await session.execute(bookkeeping.text("UPDATE ledger_entries SET amount_cents = amount_cents * 2"))
    await assert_invariants(pay)
