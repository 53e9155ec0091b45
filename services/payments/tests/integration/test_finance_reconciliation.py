"""Issue 30: events finance can add up. A whole run of rounds, every outcome (paid and completed, an early end, each
dispute decision, an operator's refund after payout with the money owed and recovered, not pinned in time, paid
after expiry, refunded at the provider, a payout refused), with faults (every provider webhook delivered again,
a refund's webhook before its payment's, social's events delivered twice, a refund job that died after the provider
took the money). A finance consumer reads the payments events (each envelope twice, in a shuffled order), keeps only
what the events say, and its figures match the ledger to the cent; no money movement is announced twice."""

import json
import random
import time
import uuid
from collections import Counter, defaultdict
from datetime import datetime, timedelta

from pinbid_kit.events import EVENTS
from pinbid_kit.events.social import (
    CommentPinned,
    CommentUnpinned,
    DisputeDecided,
    PlacementAccepted,
    PlacementDisputed,
    PlacementKept,
)
from pinbid_payments.adapters.signing import stripe_signature
from pinbid_payments.domain import ledger

DURATION = 10
MONDAY = datetime.fromisoformat("2026-11-23T00:05:00+00:00")


# --- driving rounds ---------------------------------------------------------------------------------------------

async def twice(pay, event) -> None:
    """The same envelope again (a redelivery) and the same fact in a new envelope (announced twice)."""
    envelope = await pay.deliver(event, source="social")
    await pay.service.consumers.dispatch(envelope, {})
    await pay.deliver(event, source="social")


async def paid(pay, price: int, creator: uuid.UUID):
    approved = await pay.approve(price, creator=creator)
    response = await pay.pay(approved)
    assert response.status_code in (200, 303), response.text
    return approved


async def pin(pay, approved, *, on_word: bool = False) -> None:
    await twice(pay, CommentPinned(bid_id=approved.bid_id, slot_id=approved.slot_id, creator_id=approved.creator_id,
                                   buyer_id=approved.buyer_id, comment_id="c1", comment_text="Ad · @brand: Love it",
                                   pinned_at=pay.clock(), method="MANUAL" if on_word else "SESSION",
                                   awaits_acceptance=on_word))


async def kept(pay, approved, day: int) -> None:
    await twice(pay, PlacementKept(bid_id=approved.bid_id, slot_id=approved.slot_id, creator_id=approved.creator_id,
                                   pinned_at=pay.clock(), checked_at=pay.clock(), days_kept=day,
                                   duration_days=DURATION))


async def accepted(pay, approved) -> None:
    await twice(pay, PlacementAccepted(bid_id=approved.bid_id, slot_id=approved.slot_id,
                                       creator_id=approved.creator_id, buyer_id=approved.buyer_id,
                                       accepted_at=pay.clock(), by="BRAND"))


async def disputed_and_decided(pay, approved, outcome: str, *, days_while_held: int = 0) -> None:
    dispute = uuid.uuid4()
    await twice(pay, PlacementDisputed(dispute_id=dispute, bid_id=approved.bid_id, slot_id=approved.slot_id,
                                       creator_id=approved.creator_id, buyer_id=approved.buyer_id,
                                       reason="Not pinned", reporter="BRAND", reported_at=pay.clock()))
    for day in range(1, days_while_held + 1):
        await kept(pay, approved, day)
    await twice(pay, DisputeDecided(dispute_id=dispute, bid_id=approved.bid_id, slot_id=approved.slot_id,
                                    creator_id=approved.creator_id, buyer_id=approved.buyer_id, outcome=outcome,
                                    reason="Checked the post", operator_id=uuid.uuid4(), decided_at=pay.clock()))


async def unpinned(pay, approved) -> None:
    await twice(pay, CommentUnpinned(bid_id=approved.bid_id, slot_id=approved.slot_id,
                                     creator_id=approved.creator_id, comment_id="c1", unpinned_at=pay.clock()))


async def payout_settings(pay, creator: uuid.UUID, email: str) -> None:
    response = await pay.http.put("/influencer/payout-settings", json={
        "payoutMethod": "PAYPAL", "minimumPayout": 50, "schedule": "WEEKLY", "paypalEmail": email},
        headers=pay.token(creator, "INFLUENCER"))
    assert response.status_code == 200, response.text


async def payment(pay, approved) -> tuple[uuid.UUID, str | None]:
    [(payment_id, intent)] = await pay.rows("SELECT id, payment_intent FROM payments WHERE bid_id = :b",
                                            b=approved.bid_id)
    return payment_id, intent


async def post_webhook(pay, payload: str):
    return await pay.http.post("/payments/webhook", content=payload, headers={
        "Stripe-Signature": stripe_signature(payload, pay.settings.webhook_secret),
        "Content-Type": "application/json"})


async def provider_catches_up(pay) -> None:
    """The sandbox sends what it owes (refunds' charge.refunded), then Stripe's redelivery of every webhook it ever
    sent: each must be a duplicate."""
    await pay.service.state["sandbox"].deliver_due()
    for (payload,) in await pay.rows("SELECT payload FROM sandbox_webhooks ORDER BY next_attempt_at, id"):
        response = await post_webhook(pay, payload)
        assert response.status_code == 200 and response.json()["outcome"] == "duplicate", response.text


def stripe_event(kind: str, obj: dict) -> str:
    return json.dumps({"id": f"evt_{uuid.uuid4().hex}", "object": "event", "type": kind, "created": int(time.time()),
                       "livemode": False, "data": {"object": obj}})


async def refund_before_its_payment(pay, creator: uuid.UUID):
    """Stripe's charge.refunded overtakes the checkout's completion: refused 409, redelivered later."""
    approved = await pay.approve(11_000, creator=creator)
    payment_id = await pay.scalar("SELECT id FROM payments WHERE bid_id = :b", b=approved.bid_id)
    intent = f"pi_{uuid.uuid4().hex[:12]}"
    refund = stripe_event("charge.refunded", {"id": "ch_1", "object": "charge", "amount": 11_000,
                                              "amount_refunded": 11_000, "payment_intent": intent,
                                              "metadata": {"payment_id": str(payment_id)}})
    completed = stripe_event("checkout.session.completed", {
        "id": f"cs_{uuid.uuid4().hex[:8]}", "object": "checkout.session", "payment_status": "paid",
        "status": "complete", "amount_total": 11_000, "currency": "usd", "payment_intent": intent,
        "metadata": {"payment_id": str(payment_id)}})
    assert (await post_webhook(pay, refund)).status_code == 409
    assert (await post_webhook(pay, completed)).json()["outcome"] == "completed"
    assert (await post_webhook(pay, completed)).json()["outcome"] == "duplicate"
    assert (await post_webhook(pay, refund)).json()["outcome"] == "refunded"
    assert (await post_webhook(pay, refund)).json()["outcome"] == "duplicate"
    return approved


async def paid_after_expiry(pay, creator: uuid.UUID):
    approved = await pay.approve(7_000, creator=creator)
    response = await pay.http.post("/payments/create-checkout-session", json={"bidId": str(approved.bid_id)},
                                   headers=pay.token(approved.buyer_id, "BUYER"))
    path = "/" + response.json()["url"].split("/api/", 1)[1]
    pay.clock.advance(hours=48)
    assert await pay.service.state["requests"].expire_due() == 1
    sandbox = pay.service.state["sandbox"]
    sandbox.clock = lambda: pay.clock() - timedelta(seconds=1)  # the provider still took this last click
    try:
        await pay.http.post(path, data={"action": "pay"})
    finally:
        sandbox.clock = pay.clock
    assert await pay.status(approved) == "REFUNDED"
    return approved


# --- the finance consumer ---------------------------------------------------------------------------------------

NATURAL_KEY = {  # what one money movement is, whatever envelope carries it
    "payments.payment.completed.v1": lambda d: d["paymentId"],
    "payments.payment.paid_after_expiry.v1": lambda d: d["paymentId"],
    "payments.payment.partially_refunded.v1": lambda d: d["paymentId"],
    "payments.payment.refunded.v1": lambda d: d["paymentId"],
    "payments.earning.released.v1": lambda d: d["idempotencyKey"],
    "payments.payout.created.v1": lambda d: d["idempotencyKey"],
    "payments.payout.paid.v1": lambda d: d["idempotencyKey"],
    "payments.payout.failed.v1": lambda d: d["idempotencyKey"],
    "payments.recovery.recorded.v1": lambda d: d["recoveryId"],
    "payments.dispute.settled.v1": lambda d: d["disputeId"],
}


class Finance:
    """Only what the events say. Deduplicates on the envelope id (at-least-once delivery)."""

    def __init__(self):
        self.seen: set[str] = set()
        self.movements: Counter = Counter()  # (type, natural key) -> distinct envelopes announcing it
        self.received = defaultdict(int)  # buyer -> money in
        self.refunded = defaultdict(int)  # buyer -> money back
        self.refunds_of = defaultdict(list)  # payment -> [(type, cents)]
        self.paid_of: dict[str, int] = {}  # payment -> what the brand paid
        self.released = defaultdict(int)  # creator -> released
        self.withdrawn = defaultdict(int)  # creator -> released and not paid out, taken back by a refund
        self.payouts = defaultdict(int)  # creator -> sent (created less failed)
        self.owed = defaultdict(int)  # creator -> owed less recovered
        self.recovered = defaultdict(int)  # creator -> recovered from the available balance
        self.release_kinds: Counter = Counter()

    def consume(self, envelope: dict) -> None:
        if envelope["id"] in self.seen:
            return
        self.seen.add(envelope["id"])
        kind, data = envelope["type"], envelope["data"]
        EVENTS[kind].model_validate(data)  # every event passes its schema
        if kind in NATURAL_KEY:
            self.movements[(kind, NATURAL_KEY[kind](data))] += 1
        match kind:
            case "payments.payment.completed.v1" | "payments.payment.paid_after_expiry.v1":
                self.received[data["buyerId"]] += data["amountCents"]
                self.paid_of[data["paymentId"]] = data["amountCents"]
            case "payments.payment.partially_refunded.v1" | "payments.payment.refunded.v1":
                self.refunded[data["buyerId"]] += data["refundCents"]
                self.refunds_of[data["paymentId"]].append((kind, data["refundCents"]))
                if kind == "payments.payment.refunded.v1":
                    self.withdrawn[data["creatorId"]] += data["recoveredCents"] - data["owedCents"]
            case "payments.earning.released.v1":
                self.released[data["creatorId"]] += data["amountCents"]
                self.release_kinds[data["kind"]] += 1
            case "payments.payout.created.v1":
                self.payouts[data["creatorId"]] += data["netCents"]
            case "payments.payout.failed.v1":
                self.payouts[data["creatorId"]] -= data["netCents"]
            case "payments.recovery.recorded.v1":
                sign = 1 if data["kind"] == "OWED" else -1
                self.owed[data["creatorId"]] += sign * data["amountCents"]
                if data["kind"] == "RECOVERED":
                    self.recovered[data["creatorId"]] += data["amountCents"]

    def available(self, creator: str) -> int:
        return self.released[creator] - self.recovered[creator] - self.withdrawn[creator] - self.payouts[creator]


async def ledger_flow(pay, kind: str, account_like: str) -> dict[str, int]:
    """Per account matching `account_like`, the sum of its postings in transactions of `kind`."""
    rows = await pay.rows("SELECT e.account, sum(e.amount_cents) FROM ledger_entries e JOIN ledger_transactions t "
                          "ON t.id = e.transaction_id WHERE t.kind = :k AND e.account LIKE :a GROUP BY e.account",
                          k=kind, a=account_like)
    return {account.split(":")[1]: int(total) for account, total in rows}


async def test_a_run_of_rounds_reconciles_with_the_ledger_to_the_cent(pay):
    c1, c2, c3, c4, c5, c6 = (uuid.uuid4() for _ in range(6))
    await payout_settings(pay, c1, "c1@creator.test")
    await payout_settings(pay, c2, "c2@fail.example")  # PayPal refuses: the payout fails, the money comes back
    await payout_settings(pay, c3, "c3@creator.test")

    completed = await paid(pay, 20_000, c1)  # paid, pinned, kept, completed
    await pin(pay, completed)
    for day in (1, 2, 3):
        await kept(pay, completed, day)
    await pay.complete(completed)
    await pay.complete(completed)

    ended_early = await paid(pay, 10_000, c1)  # unpinned after two days: the unearned share goes back
    await pin(pay, ended_early)
    await kept(pay, ended_early, 2)
    await unpinned(pay, ended_early)

    kept_on = await paid(pay, 30_000, c1)  # on the creator's word, disputed, CONTINUE: what accrued is released
    await pin(pay, kept_on, on_word=True)
    await disputed_and_decided(pay, kept_on, "CONTINUE", days_while_held=2)

    nothing_earned = await paid(pay, 12_000, c4)  # REFUND_UNEARNED with nothing released: all of it, partially
    await pin(pay, nothing_earned, on_word=True)
    await disputed_and_decided(pay, nothing_earned, "REFUND_UNEARNED")

    part_earned = await paid(pay, 20_000, c2)  # REFUND_UNEARNED after the acceptance released a quarter
    await pin(pay, part_earned, on_word=True)
    await accepted(pay, part_earned)
    await disputed_and_decided(pay, part_earned, "REFUND_UNEARNED", days_while_held=2)

    refund_all = await paid(pay, 15_000, c4)  # REFUND_ALL after a release: taken back from the available balance
    await pin(pay, refund_all)
    await disputed_and_decided(pay, refund_all, "REFUND_ALL")

    paid_out = await paid(pay, 40_000, c3)  # completed and paid out, then refunded by an operator: owed
    await pin(pay, paid_out)
    await pay.complete(paid_out)

    never_pinned = await paid(pay, 9_000, c5)
    out_of_order = await refund_before_its_payment(pay, c1)

    c2_completed = await paid(pay, 25_000, c2)
    await pin(pay, c2_completed)
    await pay.complete(c2_completed)

    at_provider = await paid(pay, 14_000, c6)  # refunded in full in the provider's dashboard, after a release
    await pin(pay, at_provider)
    _, intent = await payment(pay, at_provider)
    await pay.service.state["sandbox"].refund(intent, "dashboard-refund")

    died = await paid(pay, 16_000, c6)  # the refund job died after the provider took the early end's refund
    await pin(pay, died)
    await unpinned(pay, died)
    died_id, died_intent = await payment(pay, died)
    early = await pay.scalar("SELECT early_refund_cents FROM payments WHERE id = :p", p=died_id)
    await pay.service.state["sandbox"].refund(died_intent, f"early-refund-{died_id}", amount_cents=early)
    await provider_catches_up(pay)
    assert await pay.scalar("SELECT early_refunded_at IS NOT NULL FROM payments WHERE id = :p", p=died_id)

    refunds = pay.service.state["refunds"]
    assert await refunds.run_once() == 4  # two early ends, REFUND_UNEARNED twice... and REFUND_ALL
    await provider_catches_up(pay)
    await provider_catches_up(pay)

    pay.clock.now = MONDAY  # the pin deadline passed; payouts are due
    assert await refunds.run_once() == 1  # never pinned
    assert await pay.service.state["payouts"].run_once() == (3, 3)  # c1 and c3 paid, c2 refused
    await provider_catches_up(pay)

    operator = uuid.uuid4()
    answer = await pay.http.post(f"/ops/payments/{(await payment(pay, paid_out))[0]}/refund",
                                 json={"reason": "Fake screenshot"}, headers=pay.token(operator, "OPERATOR"))
    assert answer.status_code == 200 and answer.json()["status"] == "REFUNDED", answer.text
    pay.clock.advance(hours=1)
    recovering = await paid(pay, 10_000, c3)  # its releases pay back what c3 owes
    await pin(pay, recovering)
    await pay.complete(recovering)
    late = await paid_after_expiry(pay, c5)
    await provider_catches_up(pay)
    pay.clock.now = MONDAY + timedelta(days=7)
    await pay.service.state["payouts"].run_once()
    await provider_catches_up(pay)

    # --- what finance reads -----------------------------------------------------------------------------------
    envelopes = [row[0] for row in await pay.rows("SELECT envelope FROM outbox ORDER BY seq")]
    delivered = envelopes + envelopes  # at least once: everything again
    random.Random(30).shuffle(delivered)  # and in any order
    finance = Finance()
    for envelope in delivered:
        finance.consume(envelope)

    twice_announced = {key: n for key, n in finance.movements.items() if n > 1}
    assert twice_announced == {}, twice_announced

    buyers = {a.buyer_id for a in (completed, ended_early, kept_on, nothing_earned, part_earned, refund_all, paid_out,
                                   never_pinned, out_of_order, c2_completed, at_provider, died, recovering, late)}
    for buyer in buyers:
        assert finance.received[str(buyer)] - finance.refunded[str(buyer)] == \
            await pay.balance(ledger.buyer_charges(buyer)), buyer
    # flows: every ledger movement of each kind, announced
    assert finance.received == await ledger_flow(pay, "payment_received", "buyer:%")
    refunds_booked = defaultdict(int)
    for kind in ("placement_ended_early", "payment_refunded"):
        for buyer, cents in (await ledger_flow(pay, kind, "buyer:%")).items():
            refunds_booked[buyer] -= cents
    assert {b: c for b, c in finance.refunded.items() if c} == {b: c for b, c in refunds_booked.items() if c}
    assert finance.released == {c: -cents for c, cents in (await ledger_flow(pay, "earnings_released",
                                                                              "creator:%:available")).items()}
    for creator in (c1, c2, c3, c4, c5, c6):
        key = str(creator)
        assert finance.payouts[key] == await pay.balance(ledger.creator_payouts(creator)), key
        assert finance.owed[key] == await pay.balance(ledger.creator_owed(creator)), key
        assert finance.available(key) == await pay.balance(ledger.creator_available(creator)), key

    # each refund once, with its own amount: never more than the brand paid, a partial one never also full
    for payment_id, refunds_made in finance.refunds_of.items():
        assert sum(cents for _, cents in refunds_made) <= finance.paid_of[payment_id], refunds_made
    nothing_earned_id = str((await payment(pay, nothing_earned))[0])
    assert finance.refunds_of[nothing_earned_id] == [("payments.payment.partially_refunded.v1", 12_000)]
    assert {"PIN", "ACCEPTED", "DAY", "COMPLETED", "DISPUTE_CONTINUE"} <= set(finance.release_kinds)
    assert finance.owed[str(c3)] == 36_000 - 9_000 and finance.recovered[str(c3)] == 9_000
    assert sum(finance.received.values()) == 20_000 + 10_000 + 30_000 + 12_000 + 20_000 + 15_000 + 40_000 \
        + 9_000 + 11_000 + 25_000 + 14_000 + 16_000 + 10_000 + 7_000
