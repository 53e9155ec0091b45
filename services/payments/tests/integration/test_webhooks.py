"""The webhook: signatures, duplicates, order, and each handled event type."""

import asyncio
import json
import time
import uuid

import pytest
from pinbid_payments.adapters.signing import stripe_signature
from pinbid_payments.domain import ledger
from pinbid_payments.metrics import WEBHOOKS_REFUSED


def stripe_event(kind: str, obj: dict, event_id: str | None = None) -> str:
    return json.dumps({"id": event_id or f"evt_{uuid.uuid4().hex}", "object": "event", "type": kind,
                       "created": int(time.time()), "livemode": False, "data": {"object": obj}})


def session_completed(payment_id, amount: int, *, status: str = "paid", intent: str = "pi_1") -> dict:
    return {"id": f"cs_{uuid.uuid4().hex[:8]}", "object": "checkout.session", "payment_status": status,
            "status": "complete", "amount_total": amount, "currency": "usd", "payment_intent": intent,
            "metadata": {"payment_id": str(payment_id)}}


async def post(pay, payload: str, *, secret: str | None = None, timestamp: int | None = None, signature=None):
    header = signature or stripe_signature(payload, secret or pay.settings.webhook_secret, timestamp)
    return await pay.http.post("/payments/webhook", content=payload,
                               headers={"Stripe-Signature": header, "Content-Type": "application/json"})


async def payment_id(pay, approved):
    return await pay.scalar("SELECT id FROM payments WHERE bid_id = :b", b=approved.bid_id)


async def nothing_moved(pay) -> bool:
    return (await pay.scalar("SELECT count(*) FROM ledger_entries") == 0
            and await pay.scalar("SELECT count(*) FROM webhook_events") == 0
            and await pay.scalar("SELECT count(*) FROM outbox WHERE type <> 'payments.payment.requested.v1'") == 0)


def refused(code: str) -> float:
    return WEBHOOKS_REFUSED.labels(code)._value.get()


async def test_forged_stale_unsigned_and_malformed_webhooks_are_refused(pay):
    approved = await pay.approve(10_000)
    refused_before = sum(refused(code) for code in ("bad_signature", "bad_webhook"))
    payload = stripe_event("checkout.session.completed", session_completed(await payment_id(pay, approved), 10_000))
    forged = await post(pay, payload, secret="whsec_someone_else")
    stale = await post(pay, payload, timestamp=int(time.time()) - 3600)
    unsigned = await pay.http.post("/payments/webhook", content=payload)
    garbage = await post(pay, "not json at all")
    tampered = await post(pay, payload, signature=stripe_signature(payload.replace("10000", "1"),
                                                                   pay.settings.webhook_secret))
    shapeless = await post(pay, json.dumps({"id": "evt_x", "type": "checkout.session.completed",
                                            "data": {"object": {"payment_status": "paid",
                                                                "metadata": {"payment_id": "zzz"}}}}))
    for response in (forged, stale, unsigned, garbage, tampered, shapeless):
        assert response.status_code == 400, response.text
        assert response.json()["code"] in ("bad_signature", "bad_webhook")
    assert sum(refused(code) for code in ("bad_signature", "bad_webhook")) - refused_before == 6
    assert await pay.status(approved) == "REQUESTED"
    assert await nothing_moved(pay)


async def test_the_same_webhook_five_times_has_one_effect(pay):
    approved = await pay.approve(10_000)
    payload = stripe_event("checkout.session.completed", session_completed(await payment_id(pay, approved), 10_000))
    outcomes = [(await post(pay, payload)).json()["outcome"] for _ in range(5)]
    assert outcomes == ["completed"] + ["duplicate"] * 4
    assert len(await pay.events("payments.payment.completed.v1")) == 1
    assert await pay.balance(ledger.buyer_charges(approved.buyer_id)) == 10_000


async def test_five_concurrent_deliveries_have_one_effect(pay):
    approved = await pay.approve(10_000)
    payload = stripe_event("checkout.session.completed", session_completed(await payment_id(pay, approved), 10_000))
    responses = await asyncio.gather(*[post(pay, payload) for _ in range(5)])
    assert {r.status_code for r in responses} == {200}
    assert sorted(r.json()["outcome"] for r in responses) == ["completed"] + ["duplicate"] * 4
    assert await pay.scalar("SELECT count(*) FROM ledger_transactions") == 1


async def test_distinct_events_for_one_payment_complete_it_once(pay):
    approved = await pay.approve(10_000)
    pid = await payment_id(pay, approved)
    payloads = [stripe_event("checkout.session.completed", session_completed(pid, 10_000)) for _ in range(6)]
    responses = await asyncio.gather(*[post(pay, p) for p in payloads])
    assert sorted(r.json()["outcome"] for r in responses).count("completed") == 1
    assert len(await pay.events("payments.payment.completed.v1")) == 1


async def test_unpaid_and_mismatched_completions_change_nothing(pay):
    approved = await pay.approve(10_000)
    pid = await payment_id(pay, approved)
    unpaid = await post(pay, stripe_event("checkout.session.completed", session_completed(pid, 10_000,
                                                                                          status="unpaid")))
    short = await post(pay, stripe_event("checkout.session.completed", session_completed(pid, 100)))
    assert unpaid.json()["outcome"].startswith("ignored")
    assert short.json()["outcome"] == "ignored: amount does not match"
    assert await pay.status(approved) == "REQUESTED"
    assert await pay.scalar("SELECT count(*) FROM ledger_entries") == 0


async def test_events_out_of_order(pay):
    approved = await pay.approve(10_000)
    pid = await payment_id(pay, approved)
    refund = stripe_event("charge.refunded", {"id": "ch_1", "object": "charge", "amount": 10_000,
                                              "amount_refunded": 10_000, "payment_intent": "pi_1",
                                              "metadata": {"payment_id": str(pid)}})
    early = await post(pay, refund)
    assert early.status_code == 409  # Stripe retries it later; nothing recorded
    assert await pay.scalar("SELECT count(*) FROM webhook_events") == 0

    failed = stripe_event("payment_intent.payment_failed", {
        "id": "pi_1", "object": "payment_intent", "metadata": {"payment_id": str(pid)},
        "last_payment_error": {"message": "Your card was declined."}})
    assert (await post(pay, failed)).json()["outcome"] == "attempt failed"
    assert (await pay.events("payments.payment.failed.v1"))[0]["reason"] == "Your card was declined."

    assert (await post(pay, stripe_event("checkout.session.completed",
                                         session_completed(pid, 10_000)))).json()["outcome"] == "completed"
    late_expiry = stripe_event("checkout.session.expired", {"id": "cs_1", "object": "checkout.session",
                                                            "metadata": {"payment_id": str(pid)}})
    assert (await post(pay, late_expiry)).json()["outcome"].startswith("ignored")
    assert (await post(pay, failed)).status_code == 200  # a stale failure after success is ignored
    assert await pay.status(approved) == "COMPLETED"

    retried = await post(pay, refund)  # Stripe's retry of the refund, now in order
    assert retried.json()["outcome"] == "refunded"
    assert await pay.status(approved) == "REFUNDED"
    assert await pay.balance(ledger.buyer_charges(approved.buyer_id)) == 0
    assert await pay.balance(ledger.creator_pending(approved.creator_id)) == 0
    assert await pay.balance(ledger.PLATFORM_FEES) == 0
    refunded = await pay.events("payments.payment.refunded.v1")
    assert [r["reason"] for r in refunded] == ["refunded_at_provider"]


async def test_unknown_event_types_are_acknowledged(pay):
    response = await post(pay, stripe_event("customer.created", {"id": "cus_1", "object": "customer"}))
    assert response.status_code == 200 and response.json()["outcome"].startswith("ignored")


async def test_signatures_dated_beyond_the_tolerance_either_way_are_refused(pay):
    approved = await pay.approve(10_000)
    payload = stripe_event("checkout.session.completed", session_completed(await payment_id(pay, approved), 10_000))
    now = int(time.time())
    # 100 s beyond the 300 s tolerance: a loaded machine can take more than a second between `now` and the check
    future = await post(pay, payload, timestamp=now + 400)
    past = await post(pay, payload, timestamp=now - 400)
    for response in (future, past):
        assert response.status_code == 400, response.text
        assert response.json()["code"] == "bad_signature" and response.json()["detail"]
    assert future.json()["detail"] == "The webhook signature is dated in the future."
    assert await pay.status(approved) == "REQUESTED"
    assert await nothing_moved(pay)
    skewed = await post(pay, payload, timestamp=now + 60)  # a clock a minute ahead is within the tolerance
    assert skewed.status_code == 200 and skewed.json()["outcome"] == "completed"


@pytest.mark.parametrize("body", ['[{"id": "evt_1", "type": "checkout.session.completed"}]', '"evt_1"', "42",
                                  "null", "true", "[" * 5000 + "]" * 5000, '{"id": 7, "type": "x"}',
                                  '{"id": "evt_1", "type": ["checkout.session.completed"]}',
                                  '{"id": "evt_\\u0000", "type": "charge.refunded", "data": {"object": {}}}',
                                  json.dumps({"id": "evt_" + "x" * 300, "type": "charge.refunded"})])
async def test_a_correctly_signed_body_that_is_not_a_stripe_event_is_a_400(pay, body):
    approved = await pay.approve(10_000)
    response = await post(pay, body)
    assert response.status_code == 400, response.text
    assert response.json() == {"detail": "The webhook is not a Stripe event.", "code": "bad_webhook"} or \
        response.json()["detail"] == "The webhook body is not valid JSON."
    assert await pay.status(approved) == "REQUESTED"
    assert await nothing_moved(pay)
