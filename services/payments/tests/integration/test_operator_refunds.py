"""The operator's refund (`/ops/payments`): operators only, once only under 50 concurrent calls, audited in the same
transaction, releases stopped after it, the released money taken back; and a full refund made at the provider
(its webhook) after releases leaves nothing more to release."""

import asyncio
import json
import uuid

from pinbid_kit.db import Busy
from pinbid_kit.events.social import PlacementKept
from pinbid_payments.adapters.signing import stripe_signature
from pinbid_payments.domain import ledger


async def paid_and_pinned(pay, price: int = 20_000):
    approved = await pay.approve(price)
    await pay.pay(approved)
    await pay.pin(approved)  # a quarter of the creator's share released
    payment_id = await pay.scalar("SELECT id FROM payments WHERE bid_id = :b", b=approved.bid_id)
    return approved, payment_id


async def kept(pay, approved, day: int) -> None:
    await pay.deliver(PlacementKept(bid_id=approved.bid_id, slot_id=approved.slot_id, creator_id=approved.creator_id,
                                    pinned_at=pay.clock(), checked_at=pay.clock(), days_kept=day, duration_days=10),
                      source="social")


async def test_fifty_concurrent_refunds_refund_once_with_one_audit_event(pay):
    approved, payment_id = await paid_and_pinned(pay)
    operator = pay.token(uuid.uuid4(), "OPERATOR")
    answers = await asyncio.gather(*(
        pay.http.post(f"/ops/payments/{payment_id}/refund", json={"reason": "Brand was misled"}, headers=operator)
        for _ in range(50)))
    # the pool holds 30 connections: on a loaded machine a caller may wait past the pool's timeout for one and be
    # told busy (503, try again), which must mean nothing was done; every other loser is told it is refunded
    [done] = [a for a in answers if a.status_code == 200]
    refused = [a for a in answers if a.status_code != 200]
    assert {(a.status_code, a.json()["code"]) for a in refused} <= {(409, "already_refunded"), (503, "busy")}
    assert all(a.headers.get("Retry-After") for a in refused if a.status_code == 503)
    if done.json()["status"] == "REFUNDING":  # ordered, but no connection came free to make it at once
        assert await pay.service.state["refunds"].run_once() == 1
    else:
        assert (done.json()["status"], done.json()["released"]) == ("REFUNDED", 0)
    assert len(await pay.events("payments.operator.acted.v1")) == 1
    assert len(await pay.events("payments.payment.refunded.v1")) == 1
    assert await pay.rows("SELECT count(*), sum(amount_cents) FROM sandbox_refunds") == [(1, 20_000)]
    assert await pay.scalar("SELECT count(*) FROM ledger_transactions WHERE kind = 'payment_refunded'") == 1
    assert await pay.balance(ledger.buyer_charges(approved.buyer_id)) == 0
    assert await pay.balance(ledger.creator_available(approved.creator_id)) == 0  # the quarter taken back
    await kept(pay, approved, 1)
    await pay.complete(approved)
    assert await pay.balance(ledger.creator_available(approved.creator_id)) == 0  # nothing released after it


async def test_ops_payments_is_for_operators_and_lists_by_bid_or_user(pay):
    approved, payment_id = await paid_and_pinned(pay)
    operator = pay.token(uuid.uuid4(), "OPERATOR")
    for role in ("BUYER", "INFLUENCER"):
        refused = await pay.http.post(f"/ops/payments/{payment_id}/refund", json={"reason": "x"},
                                      headers=pay.token(approved.buyer_id, role))
        assert refused.status_code == 403
    assert (await pay.http.get(f"/ops/payments?bidId={approved.bid_id}",
                               headers=pay.token(approved.buyer_id, "BUYER"))).status_code == 403
    [row] = (await pay.http.get(f"/ops/payments?bidId={approved.bid_id}", headers=operator)).json()
    assert row | {"paidAt": None} == {
        "id": str(payment_id), "bidId": str(approved.bid_id), "buyerId": str(approved.buyer_id),
        "creatorId": str(approved.creator_id), "amount": 200.0, "currency": "USD", "status": "COMPLETED",
        "refunded": 0.0, "released": 45.0, "paidAt": None}
    by_creator = (await pay.http.get(f"/ops/payments?userId={approved.creator_id}", headers=operator)).json()
    assert [r["id"] for r in by_creator] == [str(payment_id)]
    assert (await pay.http.get("/ops/payments", headers=operator)).status_code == 422
    empty = await pay.http.post(f"/ops/payments/{payment_id}/refund", json={"reason": ""}, headers=operator)
    assert empty.status_code == 422
    assert (await pay.http.post(f"/ops/payments/{uuid.uuid4()}/refund", json={"reason": "x"},
                                headers=operator)).status_code == 404
    unpaid = await pay.approve(5_000)
    unpaid_id = await pay.scalar("SELECT id FROM payments WHERE bid_id = :b", b=unpaid.bid_id)
    refused = await pay.http.post(f"/ops/payments/{unpaid_id}/refund", json={"reason": "x"}, headers=operator)
    assert (refused.status_code, refused.json()["code"]) == (409, "not_paid")
    assert await pay.events("payments.operator.acted.v1") == []  # refused actions leave no trace


class Refuses:
    """The checkout provider, down."""

    def __init__(self, inner):
        self.inner = inner

    async def open_checkout(self, order):
        return await self.inner.open_checkout(order)

    async def refund(self, payment_intent, idempotency_key, *, amount_cents=None):
        from pinbid_payments.ports import ProviderError
        raise ProviderError("the provider is unavailable")


async def test_a_refund_the_provider_refuses_is_ordered_releases_stop_and_the_job_makes_it_later(pay):
    approved, payment_id = await paid_and_pinned(pay)
    refunds = pay.service.state["refunds"]
    working = refunds.provider
    refunds.provider = Refuses(working)
    answer = await pay.http.post(f"/ops/payments/{payment_id}/refund", json={"reason": "Fraud"},
                                 headers=pay.token(uuid.uuid4(), "OPERATOR"))
    assert (answer.status_code, answer.json()["status"]) == (200, "REFUNDING")
    await kept(pay, approved, 1)
    assert await pay.balance(ledger.creator_available(approved.creator_id)) == 4_500  # no new release
    refunds.provider = working
    assert await refunds.run_once() == 0  # not due again yet
    pay.clock.advance(minutes=6)
    assert await refunds.run_once() == 1
    assert await pay.status(approved) == "REFUNDED"
    assert await pay.balance(ledger.creator_available(approved.creator_id)) == 0


async def test_a_refund_ordered_when_no_connection_comes_free_is_answered_refunding_and_made_by_the_job(pay):
    """The order and its audit event are committed first; a busy pool when making it at once is no error."""
    approved, payment_id = await paid_and_pinned(pay)
    refunds = pay.service.state["refunds"]

    async def busy(session, payment) -> bool:
        raise Busy()

    refunds.make_ordered, made_by_the_job = busy, refunds.make_ordered
    answer = await pay.http.post(f"/ops/payments/{payment_id}/refund", json={"reason": "Fraud"},
                                 headers=pay.token(uuid.uuid4(), "OPERATOR"))
    assert (answer.status_code, answer.json()["status"], answer.json()["released"]) == (200, "REFUNDING", 45.0)
    assert len(await pay.events("payments.operator.acted.v1")) == 1
    refunds.make_ordered = made_by_the_job
    assert await refunds.run_once() == 1
    assert await refunds.run_once() == 0
    assert await pay.status(approved) == "REFUNDED"
    assert await pay.rows("SELECT count(*), sum(amount_cents) FROM sandbox_refunds") == [(1, 20_000)]
    assert await pay.balance(ledger.creator_available(approved.creator_id)) == 0

async def test_a_full_refund_at_the_provider_after_release_takes_it_back_and_nothing_more_is_released(pay):
    approved, payment_id = await paid_and_pinned(pay)
    await kept(pay, approved, 1)
    intent = await pay.scalar("SELECT payment_intent FROM payments WHERE id = :p", p=payment_id)
    event = {"id": f"evt_{uuid.uuid4().hex}", "object": "event", "type": "charge.refunded",
             "data": {"object": {"id": "ch_1", "object": "charge", "amount": 20_000, "amount_refunded": 20_000,
                                 "payment_intent": intent, "metadata": {"payment_id": str(payment_id)}}}}
    payload = json.dumps(event)
    for _ in range(2):  # Stripe delivers at least once
        answer = await pay.http.post("/payments/webhook", content=payload, headers={
            "Stripe-Signature": stripe_signature(payload, pay.settings.webhook_secret)})
        assert answer.status_code == 200
    assert await pay.status(approved) == "REFUNDED"
    await kept(pay, approved, 2)
    await pay.complete(approved)
    assert await pay.balance(ledger.creator_available(approved.creator_id)) == 0
    assert await pay.balance(ledger.creator_pending(approved.creator_id)) == 0
    assert len(await pay.events("payments.payment.refunded.v1")) == 1


async def test_a_refund_all_decision_racing_operator_refunds_refunds_once(pay):
    from pinbid_kit.events.social import DisputeDecided, PlacementDisputed

    approved, payment_id = await paid_and_pinned(pay)
    dispute = uuid.uuid4()
    common = dict(dispute_id=dispute, bid_id=approved.bid_id, slot_id=approved.slot_id,
                  creator_id=approved.creator_id, buyer_id=approved.buyer_id)
    await pay.deliver(PlacementDisputed(**common, reason="Not pinned", reporter="BRAND", reported_at=pay.clock()),
                      source="social")
    decision = DisputeDecided(**common, outcome="REFUND_ALL", reason="Fake", operator_id=uuid.uuid4(),
                              decided_at=pay.clock())
    operator = pay.token(uuid.uuid4(), "OPERATOR")
    results = await asyncio.gather(pay.deliver(decision, source="social"), *(
        pay.http.post(f"/ops/payments/{payment_id}/refund", json={"reason": "Fraud"}, headers=operator)
        for _ in range(10)))
    codes = [r.status_code for r in results[1:]]
    assert set(codes) <= {200, 409} and codes.count(200) <= 1
    await pay.service.state["refunds"].run_once()
    assert await pay.status(approved) == "REFUNDED"
    assert await pay.rows("SELECT count(*), sum(amount_cents) FROM sandbox_refunds") == [(1, 20_000)]
    assert len(await pay.events("payments.payment.refunded.v1")) == 1
    assert len(await pay.events("payments.operator.acted.v1")) == codes.count(200)
    [settled] = await pay.events("payments.dispute.settled.v1")
    assert settled["outcome"] == "REFUND_ALL"
    assert await pay.balance(ledger.buyer_charges(approved.buyer_id)) == 0
