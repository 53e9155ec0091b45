"""The chart figures: a creator's net earnings and payouts per month, a brand's spend per month."""

import uuid
from datetime import UTC, datetime

from .test_payouts import earn, settings


async def test_earnings_and_payouts_by_month_for_the_chart(pay):
    creator, other = uuid.uuid4(), uuid.uuid4()
    await settings(pay, creator, schedule="MONTHLY")
    pay.clock.now = datetime(2026, 10, 12, 9, 0, tzinfo=UTC)
    await earn(pay, creator, 4_000, 3_000)  # October: 63.00 net
    pay.clock.now = datetime(2026, 11, 1, 0, 5, tzinfo=UTC)
    assert await pay.service.state["payouts"].run_once() == (1, 1)  # paid out on 1 November
    pay.clock.now = datetime(2026, 11, 18, 12, 0, tzinfo=UTC)
    await earn(pay, creator, 5_000)  # November: 45.00 net
    refunded = await pay.approve(9_000, creator=creator)
    await pay.pay(refunded)
    pay.clock.now = datetime(2026, 11, 25, tzinfo=UTC)
    assert await pay.service.state["refunds"].run_once() == 1  # never pinned: refunded, not counted
    await earn(pay, other, 2_000)

    response = await pay.http.get("/influencer/earnings/monthly", headers=pay.token(creator, "INFLUENCER"))
    assert response.status_code == 200
    assert response.json() == [
        {"month": "2026-06", "earnings": 0.0, "payouts": 0.0},
        {"month": "2026-07", "earnings": 0.0, "payouts": 0.0},
        {"month": "2026-08", "earnings": 0.0, "payouts": 0.0},
        {"month": "2026-09", "earnings": 0.0, "payouts": 0.0},
        {"month": "2026-10", "earnings": 63.0, "payouts": 0.0},
        {"month": "2026-11", "earnings": 45.0, "payouts": 63.0},
    ]
    assert (await pay.http.get("/influencer/earnings/monthly", headers=pay.token(creator, "BUYER"))).status_code == 403


async def test_spend_by_month_counts_paid_bids_not_refunded(pay):
    buyer = uuid.uuid4()
    pay.clock.now = datetime(2026, 9, 3, tzinfo=UTC)
    await pay.pay(await pay.approve(2_500, buyer=buyer))
    pay.clock.now = datetime(2026, 11, 2, tzinfo=UTC)
    await pay.pay(await pay.approve(4_000, buyer=buyer))
    await pay.pay(await pay.approve(1_000, buyer=uuid.uuid4()))  # someone else's
    unpaid = await pay.approve(7_000, buyer=buyer)  # approved, never paid: not spent

    response = await pay.http.get("/payments/spend-by-month", headers=pay.token(buyer, "BUYER"))
    assert response.status_code == 200
    assert [(m["month"], m["spent"]) for m in response.json()] == [
        ("2026-06", 0.0), ("2026-07", 0.0), ("2026-08", 0.0), ("2026-09", 25.0), ("2026-10", 0.0), ("2026-11", 40.0)]
    assert await pay.status(unpaid) == "REQUESTED"
    assert (await pay.http.get("/payments/spend-by-month", headers=pay.token(buyer, "INFLUENCER"))).status_code == 403
