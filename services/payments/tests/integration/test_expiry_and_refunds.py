"""The pay window and the pin deadline: atomic expiry, refunds through the provider, reversed ledger."""

import asyncio

from pinbid_payments.domain import ledger
from pinbid_payments.metrics import PAY_WINDOWS_EXPIRED
from pinbid_testing import counting_statements


async def test_the_pay_window_expires_the_request_once(pay):
    approved = await pay.approve()
    expired_before = PAY_WINDOWS_EXPIRED._value.get()
    pay.clock.advance(hours=47, minutes=59)
    assert await pay.service.state["requests"].expire_due() == 0
    pay.clock.advance(minutes=1)
    counts = await asyncio.gather(*[pay.service.state["requests"].expire_due() for _ in range(4)])
    assert sum(counts) == 1 and PAY_WINDOWS_EXPIRED._value.get() - expired_before == 1
    assert await pay.status(approved) == "EXPIRED"
    assert [e["bidId"] for e in await pay.events("payments.payment.expired.v1")] == [str(approved.bid_id)]


async def test_windows_expiring_together_are_announced_with_one_outbox_insert(pay):
    approved = [await pay.approve(), await pay.approve(), await pay.approve()]
    pay.clock.advance(hours=48)
    with counting_statements(pay.service.db) as counted:
        assert await pay.service.state["requests"].expire_due() == 3
    assert counted.outbox_writes() == (1, 1)
    assert sorted(e["bidId"] for e in await pay.events("payments.payment.expired.v1")) == sorted(
        str(a.bid_id) for a in approved)


async def test_paying_and_expiring_at_the_same_moment_never_do_both(pay):
    for _ in range(6):
        approved = await pay.approve(3_000)
        response = await pay.http.post("/payments/create-checkout-session", json={"bidId": str(approved.bid_id)},
                                       headers=pay.token(approved.buyer_id, "BUYER"))
        path = "/" + response.json()["url"].split("/api/", 1)[1]
        pay.clock.advance(hours=48)  # the window closes now; the sandbox still accepts this last click
        pay.service.state["sandbox"].clock = lambda: pay.clock() - __import__("datetime").timedelta(seconds=1)
        await asyncio.gather(pay.http.post(path, data={"action": "pay"}),
                             pay.service.state["requests"].expire_due())
        status = await pay.status(approved)
        pid = await pay.scalar("SELECT id FROM payments WHERE bid_id = :b", b=approved.bid_id)
        kinds = {r[0] for r in await pay.rows("SELECT type FROM outbox WHERE envelope->'data'->>'paymentId' = :p",
                                              p=str(pid))}
        assert not {"payments.payment.completed.v1", "payments.payment.expired.v1"} <= kinds
        if status == "COMPLETED":
            assert "payments.payment.completed.v1" in kinds
        else:  # expired first: the late payment is given back in full
            assert status == "REFUNDED" and "payments.payment.refunded.v1" in kinds
            assert await pay.balance(ledger.buyer_charges(approved.buyer_id)) == 0
        pay.service.state["sandbox"].clock = pay.clock


async def test_not_pinned_in_time_is_refunded_in_full_once(pay):
    approved = await pay.approve(20_000)
    await pay.pay(approved)
    pinned_in_time = await pay.approve(10_000, creator=approved.creator_id)
    await pay.pay(pinned_in_time)
    await pay.pin(pinned_in_time)
    pay.clock.advance(days=3, seconds=1)
    refunds = pay.service.state["refunds"]
    counts = await asyncio.gather(*[refunds.run_once() for _ in range(4)])
    assert sum(counts) == 1
    assert await pay.status(approved) == "REFUNDED"
    assert await pay.status(pinned_in_time) == "COMPLETED"
    assert await pay.scalar("SELECT refunded FROM sandbox_checkouts WHERE metadata->>'bid_id' = :b",
                            b=str(approved.bid_id)) is True
    assert await pay.balance(ledger.buyer_charges(approved.buyer_id)) == 0
    # what is left is the pinned bid's: a quarter of its 9,000 released at pin, the rest pending its days
    assert await pay.balance(ledger.creator_pending(approved.creator_id)) == 6_750
    assert await pay.balance(ledger.creator_available(approved.creator_id)) == 2_250
    assert await pay.balance(ledger.PLATFORM_FEES) == 1_000
    assert [e["reason"] for e in await pay.events("payments.payment.refunded.v1")] == ["not_pinned_in_time"]
    # the sandbox tells the webhook about the refund, as Stripe does; it changes nothing more
    await pay.service.state["sandbox"].deliver_due()
    assert await pay.scalar("SELECT outcome FROM webhook_events WHERE type = 'charge.refunded'") == \
        "ignored: payment already REFUNDED"
    # a pin arriving after the refund releases nothing
    await pay.pin(approved)
    assert await pay.balance(ledger.creator_available(approved.creator_id)) == 2_250
    summary = (await pay.http.get("/influencer/earnings", headers=pay.token(approved.creator_id,
                                                                            "INFLUENCER"))).json()
    # earned: the quarter released at the pin of the bid kept; the refunded sale earned nothing, and the brand's
    # whole payment shows as refunded
    assert (summary["totalEarnings"], summary["refundedEarnings"]) == (22.5, 200.0)
