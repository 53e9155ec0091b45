"""The payout worker: schedules, minimum, exactly once per creator and period, failures."""

import asyncio
import uuid
from datetime import UTC, datetime

from pinbid_payments.domain import ledger
from pinbid_payments.metrics import PAYOUTS_FAILED

MONDAY = datetime(2026, 11, 23, 0, 5, tzinfo=UTC)
SETTINGS = {"payoutMethod": "PAYPAL", "minimumPayout": 50, "schedule": "WEEKLY", "paypalEmail": "maya@creator.test"}


async def earn(pay, creator, *prices):
    for price in prices:
        approved = await pay.approve(price, creator=creator)
        await pay.pay(approved)
        await pay.pin(approved)
        await pay.complete(approved)


async def settings(pay, creator, **changes):
    response = await pay.http.put("/influencer/payout-settings", json={**SETTINGS, **changes},
                                  headers=pay.token(creator, "INFLUENCER"))
    assert response.status_code == 200, response.text


async def test_weekly_payout_on_monday_with_the_available_balance(pay):
    creator = uuid.uuid4()
    await settings(pay, creator)
    await earn(pay, creator, 4_000, 3_000)
    unpinned = await pay.approve(5_000, creator=creator)
    await pay.pay(unpinned)  # paid, not pinned: still pending, not paid out
    worker = pay.service.state["payouts"]
    assert await worker.run_once() == (0, 0)  # Wednesday: not a payout day
    pay.clock.now = MONDAY
    assert await worker.run_once() == (1, 1)
    payouts = (await pay.http.get("/influencer/payouts", headers=pay.token(creator, "INFLUENCER"))).json()
    assert len(payouts) == 1
    assert payouts[0] | {"id": None, "createdAt": None, "paidAt": None} == {
        "id": None, "period": "2026-W47", "amount": 70.0, "fees": 7.0, "netAmount": 63.0, "currency": "USD",
        "method": "PAYPAL", "status": "COMPLETED", "failureReason": None, "createdAt": None, "paidAt": None}
    assert await pay.balance(ledger.creator_available(creator)) == 0
    assert await pay.balance(ledger.creator_payouts(creator)) == 6_300
    assert await pay.balance(ledger.creator_pending(creator)) == 4_500
    created = await pay.events("payments.payout.created.v1")
    paid = await pay.events("payments.payout.paid.v1")
    assert created[0]["idempotencyKey"] == paid[0]["idempotencyKey"] == f"payout-{creator}-2026-W47"
    assert (paid[0]["grossCents"], paid[0]["feeCents"], paid[0]["netCents"]) == (7_000, 700, 6_300)
    assert await worker.run_once() == (0, 0)  # the same day again: once per period
    summary = (await pay.http.get("/influencer/earnings", headers=pay.token(creator, "INFLUENCER"))).json()
    # earned is what was released (the paid, unpinned bid's 45.00 waits, not released)
    assert (summary["totalEarnings"], summary["pendingPayouts"], summary["pendingBalance"]) == (63.0, 0, 45.0)


async def test_below_the_minimum_rolls_over(pay):
    creator = uuid.uuid4()
    await settings(pay, creator, minimumPayout=100)
    await earn(pay, creator, 10_000)  # 90.00 available < 100
    pay.clock.now = MONDAY
    assert await pay.service.state["payouts"].run_once() == (0, 0)
    outcome = await pay.scalar("SELECT outcome FROM payout_runs WHERE creator_id = :c", c=creator)
    assert outcome == "ROLLED_OVER"
    assert await pay.balance(ledger.creator_available(creator)) == 9_000
    await earn(pay, creator, 2_000)
    assert await pay.service.state["payouts"].run_once() == (0, 0)  # the period was decided already
    pay.clock.now = datetime(2026, 11, 30, 1, 0, tzinfo=UTC)
    assert await pay.service.state["payouts"].run_once() == (1, 1)
    assert await pay.scalar("SELECT net_cents FROM payouts WHERE creator_id = :c", c=creator) == 10_800


async def test_monthly_default_and_quarterly_schedules(pay):
    monthly, quarterly = uuid.uuid4(), uuid.uuid4()
    await settings(pay, quarterly, schedule="QUARTERLY")
    await settings(pay, monthly, schedule="MONTHLY")
    await earn(pay, monthly, 6_000)
    await earn(pay, quarterly, 6_000)
    worker = pay.service.state["payouts"]
    pay.clock.now = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
    assert await worker.run_once() == (1, 1)
    assert await pay.scalar("SELECT period FROM payouts WHERE creator_id = :c", c=monthly) == "2026-11"
    pay.clock.now = datetime(2027, 1, 1, 3, 0, tzinfo=UTC)
    assert await worker.run_once() == (1, 1)
    assert await pay.scalar("SELECT period FROM payouts WHERE creator_id = :c", c=quarterly) == "2026-Q4"


async def test_two_workers_racing_pay_once(make_harness):
    first = await make_harness(now=MONDAY)
    second = await make_harness(now=MONDAY, database_url=first.settings.database_url,
                                encryption_keys=first.settings.encryption_keys)
    creators = [uuid.uuid4() for _ in range(5)]
    first.clock.now = datetime(2026, 11, 18, tzinfo=UTC)
    for creator in creators:
        await settings(first, creator)
        await earn(first, creator, 6_000, 1_500)
    first.clock.now = MONDAY
    workers = [first.service.state["payouts"], second.service.state["payouts"]] * 3
    results = await asyncio.gather(*[w.run_once() for w in workers])
    assert sum(created for created, _ in results) == 5
    assert sum(settled for _, settled in results) == 5
    assert await first.scalar("SELECT count(*) FROM payouts WHERE status = 'PAID'") == 5
    assert len(await first.events("payments.payout.paid.v1")) == 5
    assert await first.scalar("SELECT count(*) FROM ledger_transactions WHERE kind = 'payout_sent'") == 5


async def test_a_failed_payout_returns_the_money(pay):
    creator = uuid.uuid4()
    await settings(pay, creator, paypalEmail="maya@fail.example")
    await earn(pay, creator, 10_000)
    pay.clock.now = MONDAY
    failed_before = PAYOUTS_FAILED._value.get()
    assert await pay.service.state["payouts"].run_once() == (1, 1)
    assert PAYOUTS_FAILED._value.get() - failed_before == 1
    failed = await pay.events("payments.payout.failed.v1")
    assert failed[0]["netCents"] == 9_000 and "cannot receive" in failed[0]["reason"]
    assert await pay.balance(ledger.creator_available(creator)) == 9_000
    assert await pay.balance(ledger.creator_payouts(creator)) == 0
    payouts = (await pay.http.get("/influencer/payouts", headers=pay.token(creator, "INFLUENCER"))).json()
    assert payouts[0]["status"] == "FAILED"
    assert await pay.scalar("SELECT count(*) FROM earnings WHERE creator_id = :c AND payout_id IS NULL",
                            c=creator) == 1


async def test_no_details_rolls_over(pay):
    creator = uuid.uuid4()
    await earn(pay, creator, 10_000)  # never saved payout settings: defaults, no bank account
    pay.clock.now = datetime(2026, 12, 1, tzinfo=UTC)
    assert await pay.service.state["payouts"].run_once() == (0, 0)
    assert await pay.scalar("SELECT outcome FROM payout_runs") == "ROLLED_OVER_NO_DETAILS"
