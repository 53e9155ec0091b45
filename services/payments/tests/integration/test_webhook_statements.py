"""What a completed payment's webhook costs the database, counted with SQLAlchemy's cursor events, so that a change
adding round trips to the hottest webhook fails here; and that the platform's fee goes to the payment's own fee
account, not to one row every payment queues on."""

import asyncio

from pinbid_payments.domain import ledger
from pinbid_testing import counting_statements

from .test_webhooks import payment_id, post, session_completed, stripe_event


async def test_a_completion_is_one_read_and_one_write_in_autocommit_and_a_repeat_one_read(pay):
    approved = await pay.approve(10_000)
    pid = await payment_id(pay, approved)
    payload = stripe_event("checkout.session.completed", session_completed(pid, 10_000))
    with counting_statements(pay.db) as first:
        assert (await post(pay, payload)).json()["outcome"] == "completed"
    assert len(first.statements) == 2, first.statements
    assert first.commits == 0  # each statement is its own transaction: no BEGIN, no COMMIT round trip
    assert "FOR UPDATE" not in first.statements[0]
    write = first.statements[1]
    for table in ("UPDATE payments", "webhook_events", "earnings", "ledger_entries", "outbox", "pg_notify"):
        assert table in write
    with counting_statements(pay.db) as repeat:
        assert (await post(pay, payload)).json()["outcome"] == "duplicate"
    assert len(repeat.statements) == 1 and repeat.commits == 0

    assert await pay.balance(ledger.buyer_charges(approved.buyer_id)) == 10_000
    assert await pay.balance(ledger.creator_pending(approved.creator_id)) == 9_000
    assert await pay.balance(ledger.platform_fees(pid)) == 1_000 == await pay.balance(ledger.PLATFORM_FEES)
    assert await pay.scalar("SELECT status FROM earnings WHERE payment_id = :p", p=pid) == "PENDING"
    completed = await pay.events("payments.payment.completed.v1")
    assert [e["paymentId"] for e in completed] == [str(pid)]


async def test_forty_payments_completing_at_once_spread_their_fees_and_balance(pay):
    approved = [await pay.approve(10_000 + n) for n in range(40)]
    ids = [await payment_id(pay, a) for a in approved]
    payloads = [stripe_event("checkout.session.completed", session_completed(pid, 10_000 + n))
                for n, pid in enumerate(ids)]
    outcomes = await asyncio.gather(*[post(pay, p) for p in payloads])
    assert [r.json()["outcome"] for r in outcomes] == ["completed"] * 40
    fee_accounts = await pay.scalar("SELECT count(DISTINCT account) FROM ledger_entries WHERE account LIKE "
                                    "'platform:fees:%'")
    assert fee_accounts > 8  # 40 payments over 16 accounts
    total_fees = await pay.scalar("SELECT sum(fee_cents + buyer_fee_cents) FROM payments")
    assert await pay.balance(ledger.PLATFORM_FEES) == total_fees
    assert await pay.scalar("SELECT coalesce(sum(amount_cents), 0) FROM ledger_entries") == 0
