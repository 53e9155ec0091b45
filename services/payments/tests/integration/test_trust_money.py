"""Issue 22, the money side: releases held while a placement pinned on the creator's word awaits the brand's
acceptance or is disputed; each decision's money (CONTINUE, REFUND_UNEARNED, REFUND_ALL); a refund after payout
owed by the creator and recovered from the next earnings; every event delivered twice, in any order; the ledger
balanced at every step."""

import uuid
from datetime import datetime, timedelta

from pinbid_kit.events.marketplace import BidApproved
from pinbid_kit.events.social import (
    CommentPinned,
    DisputeDecided,
    PlacementAccepted,
    PlacementDisputed,
    PlacementKept,
)
from pinbid_payments.domain import ledger

DURATION = 10
MONDAY = "2026-11-23T00:05:00+00:00"


async def twice(pay, event, source: str = "social") -> None:
    """At-least-once delivery, the hard way: the same envelope again (the inbox's redelivery), then the same fact
    in a new envelope (a producer that announced it twice), so the handlers' own idempotency is what is tested."""
    envelope = await pay.deliver(event, source=source)
    await pay.service.consumers.dispatch(envelope, {})
    await pay.deliver(event, source=source)


async def app_pin(pay, approved) -> None:
    await twice(pay, CommentPinned(bid_id=approved.bid_id, slot_id=approved.slot_id, creator_id=approved.creator_id,
                                   buyer_id=approved.buyer_id, comment_id="c1", comment_text="Ad · @brand: Love it",
                                   pinned_at=pay.clock(), method="MANUAL", awaits_acceptance=True))


async def kept(pay, approved, day: int) -> None:
    await twice(pay, PlacementKept(bid_id=approved.bid_id, slot_id=approved.slot_id, creator_id=approved.creator_id,
                                   pinned_at=pay.clock(), checked_at=pay.clock(), days_kept=day,
                                   duration_days=DURATION))


def accepted(pay, approved) -> PlacementAccepted:
    return PlacementAccepted(bid_id=approved.bid_id, slot_id=approved.slot_id, creator_id=approved.creator_id,
                             buyer_id=approved.buyer_id, accepted_at=pay.clock(), by="SILENCE")


def disputed(pay, approved, dispute_id) -> PlacementDisputed:
    return PlacementDisputed(dispute_id=dispute_id, bid_id=approved.bid_id, slot_id=approved.slot_id,
                             creator_id=approved.creator_id, buyer_id=approved.buyer_id, reason="Not pinned",
                             reporter="BRAND", reported_at=pay.clock())


def decided(pay, approved, dispute_id, outcome: str) -> DisputeDecided:
    return DisputeDecided(dispute_id=dispute_id, bid_id=approved.bid_id, slot_id=approved.slot_id,
                          creator_id=approved.creator_id, buyer_id=approved.buyer_id, outcome=outcome,
                          reason="Checked the post", operator_id=uuid.uuid4(), decided_at=pay.clock())


async def balanced(pay) -> bool:
    unbalanced = await pay.rows("SELECT transaction_id FROM ledger_entries GROUP BY transaction_id "
                                "HAVING sum(amount_cents) <> 0")
    return unbalanced == [] and await pay.scalar("SELECT coalesce(sum(amount_cents), 0) FROM ledger_entries") == 0


async def money(pay, approved) -> tuple[int, int, int, int, int]:
    """The buyer's charge, the creator's pending, available and owed, the platform's fees."""
    return (await pay.balance(ledger.buyer_charges(approved.buyer_id)),
            await pay.balance(ledger.creator_pending(approved.creator_id)),
            await pay.balance(ledger.creator_available(approved.creator_id)),
            await pay.balance(ledger.creator_owed(approved.creator_id)),
            await pay.balance(ledger.PLATFORM_FEES))


async def paid_and_app_pinned(pay, price: int = 20_000, creator=None):
    approved = await pay.approve(price, creator=creator)
    await pay.pay(approved)
    await app_pin(pay, approved)
    return approved


async def paid_out_after_acceptance(pay, price_cents: int = 40_000) -> tuple[uuid.UUID, BidApproved]:
    """A creator whose placement the brand accepted, paid out on Monday what that released (9,000 of a 40,000
    price): a refund now makes a debt. The creator and the placement."""
    creator = uuid.uuid4()
    await payout_settings(pay, creator)
    approved = await paid_and_app_pinned(pay, price_cents, creator=creator)
    await twice(pay, accepted(pay, approved))
    pay.clock.now = datetime.fromisoformat(MONDAY)
    assert await pay.service.state["payouts"].run_once() == (1, 1)
    return creator, approved


async def test_app_pin_releases_nothing_until_accepted_then_everything_due_once(pay):
    approved = await paid_and_app_pinned(pay)  # creator's share 18,000, fee 2,000
    assert await money(pay, approved) == (20_000, 18_000, 0, 0, 2_000) and await balanced(pay)
    for day in (1, 2):  # days kept before acceptance are remembered, not released
        pay.clock.advance(days=1)
        await kept(pay, approved, day)
    assert await money(pay, approved) == (20_000, 18_000, 0, 0, 2_000)
    assert await pay.scalar("SELECT pinned_at IS NOT NULL FROM payments") is True  # no pin-deadline refund

    await twice(pay, accepted(pay, approved))
    due = 18_000 // 4 + (18_000 - 18_000 // 4) * 2 // DURATION
    assert await money(pay, approved) == (20_000, 18_000 - due, due, 0, 2_000) and await balanced(pay)
    pay.clock.advance(days=1)
    await kept(pay, approved, 3)
    due3 = 18_000 // 4 + (18_000 - 18_000 // 4) * 3 // DURATION
    assert await money(pay, approved) == (20_000, 18_000 - due3, due3, 0, 2_000) and await balanced(pay)
    assert await pay.scalar("SELECT count(*) FROM ledger_transactions WHERE kind = 'earnings_released'") == 2


async def test_acceptance_before_the_pin_and_a_completion_while_held(pay):
    approved = await pay.approve(10_000)
    await pay.pay(approved)
    await twice(pay, accepted(pay, approved))  # overtook the pin: remembered
    await app_pin(pay, approved)
    assert await money(pay, approved) == (10_000, 9_000 - 2_250, 2_250, 0, 1_000)

    other = await paid_and_app_pinned(pay, 10_000)
    await pay.complete(other)  # the whole duration ran while awaiting: released in full on acceptance
    assert await pay.balance(ledger.creator_available(other.creator_id)) == 0
    await twice(pay, accepted(pay, other))
    assert await pay.balance(ledger.creator_available(other.creator_id)) == 9_000 and await balanced(pay)


async def test_a_dispute_stops_every_release_and_continue_releases_what_accrued(pay):
    approved = await paid_and_app_pinned(pay)
    await twice(pay, accepted(pay, approved))
    dispute = uuid.uuid4()
    await twice(pay, disputed(pay, approved, dispute))
    before = await money(pay, approved)
    for day in (1, 2, 3):
        pay.clock.advance(days=1)
        await kept(pay, approved, day)
    assert await money(pay, approved) == before  # held

    await twice(pay, decided(pay, approved, dispute, "CONTINUE"))
    due = 18_000 // 4 + (18_000 - 18_000 // 4) * 3 // DURATION
    assert await money(pay, approved) == (20_000, 18_000 - due, due, 0, 2_000) and await balanced(pay)
    [settled] = await pay.events("payments.dispute.settled.v1")
    assert (settled["outcome"], settled["releasedCents"], settled["refundedCents"]) == (
        "CONTINUE", due - 18_000 // 4, 0)
    assert len(settled["ledgerTransactionIds"]) == 1
    await twice(pay, disputed(pay, approved, dispute))  # a late redelivery of the report: no new hold
    pay.clock.advance(days=1)
    await kept(pay, approved, 4)
    assert await pay.balance(ledger.creator_available(approved.creator_id)) > due


async def test_continue_during_the_acceptance_window_counts_as_accepted(pay):
    approved = await paid_and_app_pinned(pay)
    dispute = uuid.uuid4()
    await twice(pay, disputed(pay, approved, dispute))
    await twice(pay, decided(pay, approved, dispute, "CONTINUE"))
    assert await money(pay, approved) == (20_000, 13_500, 4_500, 0, 2_000) and await balanced(pay)


async def test_decision_before_its_dispute_is_applied_once_and_the_late_report_holds_nothing(pay):
    approved = await paid_and_app_pinned(pay)
    await twice(pay, accepted(pay, approved))
    dispute = uuid.uuid4()
    await twice(pay, decided(pay, approved, dispute, "CONTINUE"))
    await twice(pay, disputed(pay, approved, dispute))
    pay.clock.advance(days=1)
    await kept(pay, approved, 1)
    assert await pay.balance(ledger.creator_available(approved.creator_id)) == 4_500 + 13_500 // DURATION
    assert len(await pay.events("payments.dispute.settled.v1")) == 1


async def test_refund_unearned_gives_back_the_unreleased_share_with_its_fee_through_the_provider(pay):
    approved = await paid_and_app_pinned(pay)
    await twice(pay, accepted(pay, approved))  # 4,500 released
    dispute = uuid.uuid4()
    await twice(pay, disputed(pay, approved, dispute))
    pay.clock.advance(days=1)
    await kept(pay, approved, 1)  # held
    await twice(pay, decided(pay, approved, dispute, "REFUND_UNEARNED"))
    assert await pay.service.state["refunds"].run_once() == 1
    assert await pay.service.state["refunds"].run_once() == 0
    creator_back, fee_back = 13_500, 2_000 * 13_500 // 18_000
    assert await money(pay, approved) == (20_000 - creator_back - fee_back, 0, 4_500, 0, 2_000 - fee_back)
    assert await balanced(pay)
    provider = await pay.rows("SELECT amount_refunded_cents FROM sandbox_checkouts")
    assert provider == [(creator_back + fee_back,)]
    [settled] = await pay.events("payments.dispute.settled.v1")
    assert (settled["outcome"], settled["refundedCents"], settled["recoveredCents"]) == (
        "REFUND_UNEARNED", creator_back + fee_back, 0)
    assert len(settled["ledgerTransactionIds"]) == 1


async def earnings_of(pay, approved) -> dict:
    response = await pay.http.get("/influencer/earnings", headers=pay.token(approved.creator_id, "INFLUENCER"))
    assert response.status_code == 200, response.text
    return response.json()


async def test_nothing_is_earned_during_the_dispute_and_the_refund_shows_at_the_brands_gross(pay):
    approved = await paid_and_app_pinned(pay)  # pinned on the creator's word: held until the brand accepts
    dispute = uuid.uuid4()
    await twice(pay, disputed(pay, approved, dispute))
    for day in (1, 2):
        pay.clock.advance(days=1)
        await kept(pay, approved, day)
    during = await earnings_of(pay, approved)
    assert (during["totalEarnings"], during["thisMonthEarnings"], during["pendingPayouts"],
            during["releasedEarnings"], during["refundedEarnings"]) == (0, 0, 0, 0, 0)
    assert during["pendingBalance"] == 180.0  # the creator's share, paid by the brand, held

    await twice(pay, decided(pay, approved, dispute, "REFUND_UNEARNED"))  # nothing was released: all goes back
    assert await pay.service.state["refunds"].run_once() == 1
    [refund] = await pay.events("payments.payment.partially_refunded.v1")
    after = await earnings_of(pay, approved)
    assert refund["refundCents"] == 20_000
    assert (after["totalEarnings"], after["refundedEarnings"], after["pendingBalance"]) == (
        0, refund["refundCents"] / 100, 0)


async def test_refund_all_before_payout_takes_back_the_released_money_from_the_available_balance(pay):
    approved = await paid_and_app_pinned(pay)
    await twice(pay, accepted(pay, approved))
    dispute = uuid.uuid4()
    await twice(pay, disputed(pay, approved, dispute))
    await twice(pay, decided(pay, approved, dispute, "REFUND_ALL"))
    await kept(pay, approved, 1)  # after the order: nothing more is released
    assert await pay.service.state["refunds"].run_once() == 1
    assert await money(pay, approved) == (0, 0, 0, 0, 0) and await balanced(pay)
    assert await pay.status(approved) == "REFUNDED"
    [settled] = await pay.events("payments.dispute.settled.v1")
    assert (settled["refundedCents"], settled["recoveredCents"], settled["owedCents"]) == (20_000, 4_500, 0)
    assert len(await pay.events("payments.payment.refunded.v1")) == 1
    assert await pay.events("payments.recovery.recorded.v1") == []


async def payout_settings(pay, creator) -> None:
    response = await pay.http.put("/influencer/payout-settings", json={
        "payoutMethod": "PAYPAL", "minimumPayout": 50, "schedule": "WEEKLY", "paypalEmail": "maya@creator.test"},
        headers=pay.token(creator, "INFLUENCER"))
    assert response.status_code == 200, response.text


async def test_refund_after_payout_is_owed_and_recovered_from_the_next_earnings_first(pay):
    creator, approved = await paid_out_after_acceptance(pay)  # the creator's share 36,000, 9,000 paid out
    assert await money(pay, approved) == (40_000, 27_000, 0, 0, 4_000)

    operator = uuid.uuid4()
    answer = await pay.http.post(f"/ops/payments/{await payment_id(pay, approved)}/refund",
                                 json={"reason": "Fake screenshot"}, headers=pay.token(operator, "OPERATOR"))
    assert answer.status_code == 200, answer.text
    assert (answer.json()["status"], answer.json()["refunded"]) == ("REFUNDED", 400.0)
    assert await money(pay, approved) == (0, 0, 0, 9_000, 0) and await balanced(pay)
    summary = (await pay.http.get("/influencer/earnings", headers=pay.token(creator, "INFLUENCER"))).json()
    assert (summary["owed"], summary["availableBalance"]) == (90.0, -90.0)
    [owed] = await pay.events("payments.recovery.recorded.v1")
    assert (owed["kind"], owed["amountCents"], owed["owedCents"]) == ("OWED", 9_000, 9_000)
    [action] = await pay.events("payments.operator.acted.v1")
    assert (action["action"], action["objectType"], action["reason"]) == ("payment.refund", "payment",
                                                                         "Fake screenshot")

    pay.clock.advance(days=1)
    earning = await pay.approve(8_000, creator=creator)  # the creator's share 7,200: all of it pays the debt
    await pay.pay(earning)
    await pay.pin(earning)  # 1,800 released → recovered
    assert await pay.balance(ledger.creator_owed(creator)) == 7_200
    await pay.complete(earning)  # 5,400 more → recovered
    assert await pay.balance(ledger.creator_owed(creator)) == 1_800
    assert await pay.balance(ledger.creator_available(creator)) == 0 and await balanced(pay)
    pay.clock.now = datetime.fromisoformat(MONDAY) + timedelta(days=7)
    assert await pay.service.state["payouts"].run_once() == (0, 0)  # nothing to pay while money is owed

    third = await pay.approve(40_000, creator=creator)
    await pay.pay(third)
    await pay.pin(third)  # 9,000 released: 1,800 pays the rest of the debt, 7,200 stays available
    assert (await pay.balance(ledger.creator_owed(creator)),
            await pay.balance(ledger.creator_available(creator))) == (0, 7_200)
    recoveries = [(e["kind"], e["amountCents"], e["owedCents"])
                  for e in await pay.events("payments.recovery.recorded.v1")]
    assert recoveries == [("OWED", 9_000, 9_000), ("RECOVERED", 1_800, 7_200), ("RECOVERED", 5_400, 1_800),
                          ("RECOVERED", 1_800, 0)]
    pay.clock.now = datetime.fromisoformat(MONDAY) + timedelta(days=14)
    assert await pay.service.state["payouts"].run_once() == (1, 1)
    [_, payout] = await pay.rows("SELECT net_cents FROM payouts ORDER BY created_at")
    assert payout == (7_200,) and await balanced(pay)
    report = (await pay.http.get("/influencer/earnings/report.csv",
                                 headers=pay.token(creator, "INFLUENCER"))).text
    assert ",-90.00,USD,OWED," in report and ",18.00,USD,RECOVERED," in report


async def payment_id(pay, approved):
    return await pay.scalar("SELECT id FROM payments WHERE bid_id = :b", b=approved.bid_id)


async def test_any_order_of_the_placement_events_delivered_twice_releases_the_same_once(pay):
    import random

    shuffle = random.Random(22)
    expected = 18_000 // 4 + (18_000 - 18_000 // 4) * 3 // DURATION
    for _ in range(12):
        approved = await pay.approve(20_000)
        await pay.pay(approved)
        dispute = uuid.uuid4()
        pin = CommentPinned(bid_id=approved.bid_id, slot_id=approved.slot_id, creator_id=approved.creator_id,
                            buyer_id=approved.buyer_id, comment_id="c1", comment_text="Ad", pinned_at=pay.clock(),
                            method="MANUAL", awaits_acceptance=True)
        days = [PlacementKept(bid_id=approved.bid_id, slot_id=approved.slot_id, creator_id=approved.creator_id,
                              pinned_at=pay.clock(), checked_at=pay.clock(), days_kept=day, duration_days=DURATION)
                for day in (1, 2, 3)]
        events = [pin, accepted(pay, approved), disputed(pay, approved, dispute),
                  decided(pay, approved, dispute, "CONTINUE"), *days]
        shuffle.shuffle(events)
        for event in events:
            await twice(pay, event)
        assert await pay.balance(ledger.creator_available(approved.creator_id)) == expected, events
        assert await pay.balance(ledger.creator_pending(approved.creator_id)) == 18_000 - expected
    assert await balanced(pay)
    assert len(await pay.events("payments.dispute.settled.v1")) == 12


async def test_a_refund_all_with_a_payout_in_flight_is_owed_then_paid_back_by_the_failed_payouts_return(pay):
    creator = uuid.uuid4()
    response = await pay.http.put("/influencer/payout-settings", json={
        "payoutMethod": "PAYPAL", "minimumPayout": 50, "schedule": "WEEKLY", "paypalEmail": "maya@fail.example"},
        headers=pay.token(creator, "INFLUENCER"))
    assert response.status_code == 200
    approved = await paid_and_app_pinned(pay, 40_000, creator=creator)
    await twice(pay, accepted(pay, approved))  # 9,000 available
    pay.clock.now = datetime.fromisoformat(MONDAY)
    other = await pay.approve(40_000, creator=creator)
    await pay.pay(other)
    worker = pay.service.state["payouts"]
    assert await worker.plan() == 1  # 9,000 in a payout not yet delivered
    dispute = uuid.uuid4()
    await twice(pay, disputed(pay, approved, dispute))
    await twice(pay, decided(pay, approved, dispute, "REFUND_ALL"))
    assert await pay.service.state["refunds"].run_once() == 1
    assert await pay.balance(ledger.creator_owed(creator)) == 9_000
    [settled] = await pay.events("payments.dispute.settled.v1")
    assert (settled["refundedCents"], settled["recoveredCents"], settled["owedCents"]) == (40_000, 9_000, 9_000)

    assert await worker.deliver() == 1  # the payout fails: its 9,000 come back and pay the debt
    assert (await pay.balance(ledger.creator_owed(creator)),
            await pay.balance(ledger.creator_available(creator))) == (0, 0)
    assert await pay.rows("SELECT status FROM payouts") == [("FAILED",)]
    assert await balanced(pay)
    await pay.pin(other)  # the next earning is the creator's again
    assert await pay.balance(ledger.creator_available(creator)) == 9_000


# --- what each outcome would move, shown to the operator before the decision ------------------------------------

async def shown(pay, approved) -> dict:
    answer = await pay.http.get(f"/ops/payments/dispute-outcomes?bidId={approved.bid_id}",
                                headers=pay.token(uuid.uuid4(), "OPERATOR"))
    assert answer.status_code == 200, answer.text
    body = answer.json()
    return body | {"by": {o["outcome"]: o for o in body["outcomes"]}}


async def test_the_figures_shown_before_each_outcome_are_what_it_then_moves(pay):
    settled = {}
    for outcome in ("CONTINUE", "REFUND_UNEARNED", "REFUND_ALL"):
        approved = await paid_and_app_pinned(pay)  # the creator's share 18,000, fee 2,000
        await twice(pay, accepted(pay, approved))  # 4,500 released
        dispute = uuid.uuid4()
        await twice(pay, disputed(pay, approved, dispute))
        for day in (1, 2):
            pay.clock.advance(days=1)
            await kept(pay, approved, day)  # held
        before = await shown(pay, approved)
        assert (before["paid"], before["released"], before["paidOut"], before["status"]) == (
            200.0, 45.0, 0.0, "COMPLETED")
        moves = before["by"][outcome]
        await twice(pay, decided(pay, approved, dispute, outcome))
        await pay.service.state["refunds"].run_once()
        [event] = [e for e in await pay.events("payments.dispute.settled.v1") if e["disputeId"] == str(dispute)]
        settled[outcome] = (moves, event)
        after = (await shown(pay, approved))["by"][outcome]  # applied: the same outcome again would move nothing
        assert after["toBrand"] == after["toCreator"] == 0
        assert await balanced(pay)

    moves, event = settled["CONTINUE"]
    due = 18_000 // 4 + (18_000 - 18_000 // 4) * 2 // DURATION
    assert (moves["toBrand"], moves["fromCreator"], moves["toCreator"]) == (0, 0, (due - 4_500) / 100)
    assert event["releasedCents"] == due - 4_500
    moves, event = settled["REFUND_UNEARNED"]
    assert (moves["toBrand"], moves["fromCreator"], moves["paidOut"]) == (150.0, 135.0, 0.0)
    assert event["refundedCents"] == 15_000
    moves, event = settled["REFUND_ALL"]
    assert (moves["toBrand"], moves["fromCreator"], moves["paidOut"]) == (200.0, 180.0, 0.0)
    assert (event["refundedCents"], event["owedCents"]) == (20_000, 0)


async def test_refund_all_after_a_payout_shows_what_the_creator_will_owe(pay):
    creator, approved = await paid_out_after_acceptance(pay)
    dispute = uuid.uuid4()
    await twice(pay, disputed(pay, approved, dispute))
    before = await shown(pay, approved)
    assert (before["released"], before["paidOut"]) == (90.0, 90.0)
    assert [(o["outcome"], o["toBrand"], o["fromCreator"], o["paidOut"]) for o in before["outcomes"]] == [
        ("CONTINUE", 0.0, 0.0, 0.0), ("REFUND_UNEARNED", 300.0, 270.0, 0.0), ("REFUND_ALL", 400.0, 360.0, 90.0)]
    await twice(pay, decided(pay, approved, dispute, "REFUND_ALL"))
    await pay.service.state["refunds"].run_once()
    [event] = await pay.events("payments.dispute.settled.v1")
    assert (event["refundedCents"], event["owedCents"]) == (40_000, 9_000)


async def test_dispute_outcomes_are_for_operators_and_known_bids(pay):
    approved = await paid_and_app_pinned(pay)
    path = f"/ops/payments/dispute-outcomes?bidId={approved.bid_id}"
    assert (await pay.http.get(path, headers=pay.token(approved.buyer_id, "BUYER"))).status_code == 403
    missing = await pay.http.get(f"/ops/payments/dispute-outcomes?bidId={uuid.uuid4()}",
                                 headers=pay.token(uuid.uuid4(), "OPERATOR"))
    assert missing.status_code == 404 and missing.json()["code"] == "payment_not_found"
    bad = await pay.http.get("/ops/payments/dispute-outcomes?bidId=nope", headers=pay.token(uuid.uuid4(), "OPERATOR"))
    assert bad.status_code == 422 and "errors" in bad.json()
