"""Issue 22's measured walk: social, payments and marketplace, real, on fresh databases and one in-process bus (as
`make run` wires them), on one movable clock. A brand buys a slot, pays, the creator pins it in the Instagram app
and says so with a screenshot; then, in simulated time, the placement is accepted by the brand's silence, or
reported, answered and decided (each outcome, and a full refund after the creator was paid out), or Pinbid reports
a missed fresh screenshot itself, or an operator refunds the payment in full. Every event between the services goes
through the bus; after each step the ledger is balanced, the money moved exactly once (the provider's refunds
counted in its sandbox), and social's placement agrees with payments' payment and with the brand's My Bids."""

import uuid
from datetime import UTC, datetime, time, timedelta

import pytest
from pinbid_kit.events.payments import PaymentRefunded
from pinbid_kit.events.social import PlacementAccepted, PlacementCompleted, PlacementEnded, PlacementKept
from pinbid_payments.domain import ledger, stages
from pinbid_payments.domain.money import Split
from pinbid_testing import eventually

from .walk import Sale, Services, World

PRICE = 40_000  # the Buy Now price, in cents: the creator's share 36,000, the platform's fee 4,000
CREATOR_CENTS, FEE_CENTS = 36_000, 4_000
DURATION = 7  # days: the shortest placement marketplace sells
AT_PIN = CREATOR_CENTS // 4


def released_by(days_kept: int) -> int:
    return stages.released_by(CREATOR_CENTS, days_kept=days_kept, duration_days=DURATION)


class TrustWorld(World):
    # --- the sale, through marketplace and payments ------------------------------------------------------------
    async def sell(self, creator: uuid.UUID, buyer: uuid.UUID, post_index: int = 0) -> Sale:
        """A Buy Now on one of the creator's posts, approved by the creator and paid by the brand on the sandbox
        checkout page; returns once social awaits the pin."""
        post = await self.post(creator, post_index)
        slot = await self.act("marketplace", "POST", "/influencer/pin-slots", creator, "INFLUENCER", status=201, json={
            "postId": post, "title": "Morning latte art", "description": "A reel", "category": "food",
            "minBid": 100, "buyNowPrice": PRICE / 100, "duration": DURATION,
            "auctionEnd": (self.clock() + timedelta(days=2)).isoformat()})
        slot_id = uuid.UUID(slot.json()["id"])
        bought = await self.act("marketplace", "POST", "/buyer/buy-now", buyer, "BUYER", status=201, json={
            "pinSlotId": str(slot_id), "newCommentText": "The best oat latte in town"})
        bid = uuid.UUID(bought.json()["id"])
        await self.act("marketplace", "POST", f"/influencer/approvals/{bid}", creator, "INFLUENCER",
                       json={"status": "APPROVED"})

        async def payment_requested() -> bool:  # BidApproved reached payments
            return await self.one(self.payments, "SELECT status FROM payments WHERE bid_id = :b", b=bid) == "REQUESTED"

        await eventually(payment_requested, within=10)
        checkout = await self.act("payments", "POST", "/payments/create-checkout-session", buyer, "BUYER",
                                  json={"bidId": str(bid)})
        await self.pay_on_the_checkout_page(checkout.json()["url"])

        async def awaiting_pin() -> bool:  # PaymentCompleted → marketplace → BidAwarded → social
            return await self.one(self.social, "SELECT status FROM placements WHERE bid_id = :b", b=bid) \
                == "AWAITING_PIN"

        await eventually(awaiting_pin, within=10)
        return Sale(bid, slot_id, post, creator, buyer)

    async def sale_pinned_in_the_app_and_accepted(self) -> Sale:
        """A new creator's sale to a new brand, pinned in the Instagram app and accepted by the brand."""
        creator, buyer = await self.creator_and_brand()
        sale = await self.sell(creator, buyer)
        await self.pin_in_the_app(sale)
        await self.accept(sale)
        return sale

    # --- time passes: the product's jobs --------------------------------------------------------------------------
    async def day_passes(self, sales: list[Sale], days: int = 1, *, answering: bool = True) -> None:
        """A day of simulated time: social's placement-trust job (acceptance by silence, fresh-screenshot
        requests, which the creator answers at once), then the tracker (kept days, completion); then the
        events they announced are waited for in payments."""
        for _ in range(days):
            self.clock.advance(days=1)
            await self.jobs(sales, answering=answering)

    async def jobs(self, sales: list[Sale], *, answering: bool = True) -> None:
        """Social's jobs at the clock's moment, the creator answering any fresh-screenshot request at once (unless
        not `answering`)."""
        await self.social.state["trust"].run_once()
        for sale in sales if answering else []:
            view = await self.trust(sale)
            if view["recheck"] and view["recheck"]["answeredAt"] is None and not view["ended"]:
                assert (await self.answer(sale)).status_code == 200
        await self.social.state["tracker"].run_once()
        await self.settled()

    # --- what the books say ---------------------------------------------------------------------------------------
    async def money(self, sale: Sale) -> tuple[int, int, int, int, int]:
        """The buyer's charge, the creator's pending, available and owed, the platform's fees."""
        return (await self.balance(ledger.buyer_charges(sale.buyer)),
                await self.balance(ledger.creator_pending(sale.creator)),
                await self.balance(ledger.creator_available(sale.creator)),
                await self.balance(ledger.creator_owed(sale.creator)),
                await self.balance(ledger.PLATFORM_FEES))

    async def released_once(self, sale: Sale, cents: int) -> None:
        """The releases of the sale's payment add up to `cents`, one row per stage, and agree with its earning."""
        rows = await self.sql(self.payments, "SELECT r.stage, r.cents FROM earning_releases r JOIN payments p "
                                             "ON p.id = r.payment_id WHERE p.bid_id = :b", b=sale.bid)
        assert len({stage for stage, _ in rows}) == len(rows)
        assert sum(c for _, c in rows) == cents, rows
        released = await self.one(self.payments, "SELECT e.released_cents FROM earnings e JOIN payments p "
                                                  "ON p.id = e.payment_id WHERE p.bid_id = :b", b=sale.bid)
        assert released == cents

    async def provider_refunds(self, sale: Sale) -> list[int]:
        """The refunds the (sandbox) provider made for the sale's payment, in cents."""
        intent = await self.one(self.payments, "SELECT payment_intent FROM payments WHERE bid_id = :b", b=sale.bid)
        return await self.refunds_at_the_provider(intent)

    async def states(self, sale: Sale) -> tuple[str, str, bool, bool]:
        """Social's placement status, payments' payment status, whether payments refunded anything (in full or
        the unearned share), and whether social ended the placement."""
        placement = await self.one(self.social, "SELECT status FROM placements WHERE bid_id = :b", b=sale.bid)
        payment, early = (await self.sql(self.payments, "SELECT status, early_refunded_at IS NOT NULL "
                                                        "AND coalesce(early_refund_cents, 0) > 0 "
                                                        "FROM payments WHERE bid_id = :b", b=sale.bid))[0]
        refunded = payment == "REFUNDED" or early
        return placement, payment, refunded, placement == "ENDED"

    async def consistent(self, sale: Sale) -> None:
        """Social ended the placement exactly when payments gave money back."""
        placement, payment, refunded, ended = await self.states(sale)
        assert ended == refunded, (placement, payment)

    async def brand_sees(self, sale: Sale) -> tuple[str | None, str]:
        """The placement on the brand's My Bids (marketplace): the pinned comment's status and the bid's tab."""
        bids = await self.act("marketplace", "GET", "/buyer/bids", sale.buyer, "BUYER")
        [bid] = [b for b in bids.json() if b["id"] == str(sale.bid)]
        return (bid["pinnedComment"] or {}).get("status"), bid["tab"]


@pytest.fixture
def world(services: Services) -> TrustWorld:
    return TrustWorld(services)


# --- the walks ---------------------------------------------------------------------------------------------------

async def test_app_pin_accepted_by_silence_releases_everything_once(world):
    creator, buyer = await world.creator_and_brand()
    sale = await world.sell(creator, buyer)
    await world.pin_in_the_app(sale)
    assert await world.money(sale) == (PRICE, CREATOR_CENTS, 0, 0, FEE_CENTS)
    await world.balanced()
    assert (await world.trust(sale))["acceptance"]["status"] == "AWAITING"

    await world.day_passes([sale], days=2)  # kept days are remembered, nothing is released
    assert await world.money(sale) == (PRICE, CREATOR_CENTS, 0, 0, FEE_CENTS)
    assert await world.one(world.payments, "SELECT days_kept FROM payments WHERE bid_id = :b", b=sale.bid) == 2
    await world.released_once(sale, 0)
    await world.balanced()

    world.clock.advance(hours=23, minutes=59)  # a minute short of the 72 hours: still waiting
    await world.jobs([sale])
    assert (await world.trust(sale))["acceptance"]["status"] == "AWAITING"
    assert await world.money(sale) == (PRICE, CREATOR_CENTS, 0, 0, FEE_CENTS)
    world.clock.advance(minutes=2)  # past 72 hours: silence accepts, the pin's quarter and the days kept go out
    await world.jobs([sale])
    view = await world.trust(sale)
    assert (view["acceptance"]["status"], view["acceptance"]["acceptedBy"]) == ("ACCEPTED", "SILENCE")
    assert len(await world.events(world.social, PlacementAccepted.event_type)) == 1
    assert await world.money(sale) == (PRICE, CREATOR_CENTS - released_by(2), released_by(2), 0, FEE_CENTS)
    await world.released_once(sale, released_by(2))
    world.clock.advance(minutes=15)  # the tracker's next look at the comment counts the third day
    await world.jobs([sale])
    assert await world.money(sale) == (PRICE, CREATOR_CENTS - released_by(3), released_by(3), 0, FEE_CENTS)
    await world.released_once(sale, released_by(3))
    await world.balanced()
    await world.consistent(sale)

    await world.day_passes([sale], days=4)  # the seventh day completes the placement
    assert await world.one(world.social, "SELECT status FROM placements WHERE bid_id = :b", b=sale.bid) == "COMPLETED"
    assert await world.money(sale) == (PRICE, 0, CREATOR_CENTS, 0, FEE_CENTS)
    await world.released_once(sale, CREATOR_CENTS)
    await world.balanced()

    await world.day_passes([sale], days=3)  # later runs of every job change nothing
    assert await world.refund_job() == 0
    assert await world.money(sale) == (PRICE, 0, CREATOR_CENTS, 0, FEE_CENTS)
    await world.released_once(sale, CREATOR_CENTS)
    assert await world.provider_refunds(sale) == []
    assert await world.states(sale) == ("COMPLETED", "COMPLETED", False, False)
    assert await world.brand_sees(sale) == ("COMPLETED", "past")
    assert len(await world.events(world.social, PlacementCompleted.event_type)) == 1
    kept = [e["daysKept"] for e in await world.events(world.social, PlacementKept.event_type)]
    assert sorted(kept) == list(range(1, DURATION + 1))  # each day once
    await world.balanced()


@pytest.mark.parametrize(("outcome", "accepted_first"), [
    ("CONTINUE", False),  # reported inside the acceptance window: the decision counts as the acceptance
    ("REFUND_UNEARNED", True),  # accepted, then "no longer pinned": the creator keeps what was released
    ("REFUND_ALL", True),  # accepted, then "no longer pinned": what was released is taken back
])
async def test_app_pin_reported_answered_and_decided(world, outcome, accepted_first):
    creator, buyer = await world.creator_and_brand()
    sale = await world.sell(creator, buyer)
    await world.pin_in_the_app(sale)
    await world.day_passes([sale])
    if accepted_first:
        await world.accept(sale)
        await world.settled()
    await world.day_passes([sale])
    before = released_by(2) if accepted_first else 0
    assert await world.money(sale) == (PRICE, CREATOR_CENTS - before, before, 0, FEE_CENTS)

    world.clock.advance(hours=5)
    dispute_id = await world.report(sale, "The comment is not pinned on the post any more.")
    await world.settled()
    world.clock.advance(hours=20)
    answered = await world.answer(sale, note="It is pinned, see the new screenshot.")
    assert answered.status_code == 200, answered.text
    await world.day_passes([sale], days=2)  # days kept while disputed are remembered, nothing moves
    assert await world.money(sale) == (PRICE, CREATOR_CENTS - before, before, 0, FEE_CENTS)
    assert (await world.trust(sale))["acceptance"]["status"] == ("ACCEPTED" if accepted_first else "AWAITING")
    await world.released_once(sale, before)
    await world.balanced()
    await world.consistent(sale)

    await world.decide(dispute_id, outcome)
    await world.settled()
    assert await world.refund_job() == (0 if outcome == "CONTINUE" else 1)
    assert await world.refund_job() == 0
    [settled] = await world.events(world.payments, "payments.dispute.settled.v1")
    assert (settled["disputeId"], settled["outcome"]) == (dispute_id, outcome)
    kept = released_by(5)  # pinned five days and an hour ago
    if outcome == "CONTINUE":
        assert await world.money(sale) == (PRICE, CREATOR_CENTS - kept, kept, 0, FEE_CENTS)
        assert (settled["releasedCents"], settled["refundedCents"]) == (kept, 0)
        assert await world.states(sale) == ("PINNED", "COMPLETED", False, False)
        await world.day_passes([sale], days=2)  # the seventh day completes it: all released, once
        assert await world.money(sale) == (PRICE, 0, CREATOR_CENTS, 0, FEE_CENTS)
        await world.released_once(sale, CREATOR_CENTS)
        assert await world.provider_refunds(sale) == []
        assert await world.states(sale) == ("COMPLETED", "COMPLETED", False, False)
        assert await world.brand_sees(sale) == ("COMPLETED", "past")
    elif outcome == "REFUND_UNEARNED":
        back = stages.early_end(Split(PRICE, FEE_CENTS, CREATOR_CENTS), before)
        assert back.creator_cents == CREATOR_CENTS - before
        assert await world.money(sale) == (PRICE - back.refund_cents, 0, before, 0, FEE_CENTS - back.fee_cents)
        assert await world.provider_refunds(sale) == [back.refund_cents]
        assert (settled["refundedCents"], settled["recoveredCents"]) == (back.refund_cents, 0)
        await world.released_once(sale, before)
        assert await world.states(sale) == ("ENDED", "COMPLETED", True, True)
    else:
        assert await world.money(sale) == (0, 0, 0, 0, 0)
        assert await world.provider_refunds(sale) == [PRICE]
        assert (settled["refundedCents"], settled["recoveredCents"], settled["owedCents"]) == (PRICE, before, 0)
        assert await world.states(sale) == ("ENDED", "REFUNDED", True, True)
        assert len(await world.events(world.payments, PaymentRefunded.event_type)) == 1
        assert await world.one(world.marketplace, "SELECT payment_status FROM bids WHERE id = :b",
                               b=sale.bid) == "REFUNDED"
    await world.balanced()
    ended = await world.events(world.social, PlacementEnded.event_type)
    assert len(ended) == (0 if outcome == "CONTINUE" else 1)
    if outcome != "CONTINUE":  # an ended placement is over on the brand's screens too, not live for ever
        assert await world.brand_sees(sale) == ("ENDED", "past")

    money = await world.money(sale)
    await world.day_passes([sale], days=4)  # nothing more moves, however long the jobs run
    assert await world.refund_job() == 0
    assert await world.money(sale) == money
    assert len(await world.events(world.payments, "payments.dispute.settled.v1")) == 1
    assert len(await world.provider_refunds(sale)) == (0 if outcome == "CONTINUE" else 1)
    await world.consistent(sale)
    await world.balanced()


def next_weekday(after: datetime, weekday: int, at: time) -> datetime:
    """The first `weekday` (Monday 0) at `at` (UTC) strictly after `after`."""
    day = after.date() + timedelta(days=1)
    while day.weekday() != weekday:
        day += timedelta(days=1)
    return datetime.combine(day, at, tzinfo=UTC)


async def test_refund_all_after_a_payout_is_owed_and_recovered_from_the_next_earning(world):
    world.clock.now = next_weekday(world.clock(), 3, time(12))  # a Thursday: the payout day falls mid-placement
    creator, buyer = await world.creator_and_brand()
    settings = await world.http["payments"].put("/influencer/payout-settings", headers=world.auth(
        creator, "INFLUENCER"), json={"payoutMethod": "PAYPAL", "minimumPayout": 50, "schedule": "WEEKLY",
                                      "paypalEmail": "maya@creator.test"})
    assert settings.status_code == 200, settings.text
    first = await world.sell(creator, buyer)
    await world.pin_in_the_app(first)
    await world.accept(first)
    await world.settled()
    assert await world.money(first) == (PRICE, CREATOR_CENTS - AT_PIN, AT_PIN, 0, FEE_CENTS)

    world.clock.now = next_weekday(world.clock(), 0, time(0, 5))  # Monday: three days kept, then paid out
    await world.jobs([first])
    paid_out = released_by(3)
    assert await world.money(first) == (PRICE, CREATOR_CENTS - paid_out, paid_out, 0, FEE_CENTS)
    assert await world.payments.state["payouts"].run_once() == (1, 1)
    assert await world.sql(world.payments, "SELECT net_cents, status FROM payouts") == [(paid_out, "PAID")]
    assert await world.money(first) == (PRICE, CREATOR_CENTS - paid_out, 0, 0, FEE_CENTS)
    await world.balanced()

    world.clock.advance(hours=1)
    dispute_id = await world.report(first, "The comment was never pinned.")
    world.clock.advance(hours=1)
    assert (await world.answer(first)).status_code == 200
    await world.decide(dispute_id, "REFUND_ALL")
    await world.settled()
    assert await world.refund_job() == 1
    assert await world.money(first) == (0, 0, 0, paid_out, 0)  # the brand has all back; the creator owes
    assert await world.provider_refunds(first) == [PRICE]
    assert await world.states(first) == ("ENDED", "REFUNDED", True, True)
    [settled] = await world.events(world.payments, "payments.dispute.settled.v1")
    assert (settled["refundedCents"], settled["recoveredCents"], settled["owedCents"]) == (PRICE, paid_out, paid_out)
    earnings = (await world.http["payments"].get("/influencer/earnings",
                                                 headers=world.auth(creator, "INFLUENCER"))).json()
    assert (earnings["owed"], earnings["availableBalance"]) == (paid_out / 100, -paid_out / 100)
    await world.balanced()

    second = await world.sell(creator, buyer, post_index=1)  # the creator's next earning pays the debt first
    await world.pin_in_the_app(second)
    await world.accept(second)
    await world.settled()
    assert await world.balance(ledger.creator_owed(creator)) == paid_out - AT_PIN
    await world.day_passes([first, second], days=3)
    assert (await world.balance(ledger.creator_owed(creator)),
            await world.balance(ledger.creator_available(creator))) == (0, 0)
    await world.day_passes([first, second], days=4)  # the next Monday: the second placement completed
    assert await world.one(world.social, "SELECT status FROM placements WHERE bid_id = :b", b=second.bid) \
        == "COMPLETED"
    assert await world.balance(ledger.creator_available(creator)) == CREATOR_CENTS - paid_out
    assert await world.payments.state["payouts"].run_once() == (1, 1)
    payouts = await world.sql(world.payments, "SELECT net_cents FROM payouts WHERE status = 'PAID' "
                                              "ORDER BY created_at")
    assert [p[0] for p in payouts] == [paid_out, CREATOR_CENTS - paid_out]  # one placement's share, paid once
    recoveries = [(e["kind"], e["amountCents"], e["owedCents"])
                  for e in await world.events(world.payments, "payments.recovery.recorded.v1")]
    assert recoveries == [("OWED", paid_out, paid_out), ("RECOVERED", AT_PIN, paid_out - AT_PIN),
                          *[("RECOVERED", released_by(d) - released_by(d - 1), paid_out - released_by(d))
                            for d in (1, 2, 3)]]
    await world.released_once(second, CREATOR_CENTS)
    assert await world.provider_refunds(second) == []
    assert await world.states(second) == ("COMPLETED", "COMPLETED", False, False)
    assert await world.states(first) == ("ENDED", "REFUNDED", True, True)
    assert [await world.brand_sees(s) for s in (first, second)] == [("ENDED", "past"), ("COMPLETED", "past")]
    await world.balanced()


async def test_an_operators_full_refund_after_releases_ends_the_placement_everywhere_once(world):
    sale = await world.sale_pinned_in_the_app_and_accepted()
    await world.day_passes([sale])
    assert await world.money(sale) == (PRICE, CREATOR_CENTS - released_by(1), released_by(1), 0, FEE_CENTS)

    operator = world.auth(world.operator, "OPERATOR")
    [payment] = (await world.http["payments"].get(f"/ops/payments?bidId={sale.bid}", headers=operator)).json()
    refund = f"/ops/payments/{payment['id']}/refund"
    refunded = await world.http["payments"].post(refund, json={"reason": "Fake screenshot"}, headers=operator)
    assert refunded.status_code == 200, refunded.text
    await world.settled()
    assert await world.money(sale) == (0, 0, 0, 0, 0)  # the released share taken back from the available balance
    assert await world.provider_refunds(sale) == [PRICE]
    assert await world.states(sale) == ("ENDED", "REFUNDED", True, True)
    [ended] = await world.events(world.social, PlacementEnded.event_type)
    assert (ended["method"], ended["reason"]) == ("MANUAL", "Refunded in full by Pinbid.")
    assert await world.brand_sees(sale) == ("ENDED", "past")
    view = await world.trust(sale)
    assert (view["ended"], view["endReason"]) == (True, "Refunded in full by Pinbid.")
    await world.balanced()

    again = await world.http["payments"].post(refund, json={"reason": "Twice"}, headers=operator)
    assert again.status_code == 409 and again.json()["code"] == "already_refunded"
    late = await world.http["social"].post(f"/buyer/placements/{sale.bid}/report", json={"reason": "Gone"},
                                           headers=world.auth(sale.buyer, "BUYER"))
    assert late.status_code == 409 and late.json()["code"] == "placement_ended"
    kept = len(await world.events(world.social, PlacementKept.event_type))
    await world.day_passes([sale], days=7)  # the tracker stops: no kept day, no release, no completion
    assert await world.refund_job() == 0
    assert len(await world.events(world.social, PlacementKept.event_type)) == kept
    assert await world.events(world.social, PlacementCompleted.event_type) == []
    assert await world.money(sale) == (0, 0, 0, 0, 0) and await world.provider_refunds(sale) == [PRICE]
    assert len(await world.events(world.payments, PaymentRefunded.event_type)) == 1
    assert len(await world.events(world.social, PlacementEnded.event_type)) == 1
    await world.balanced()


async def test_a_missed_fresh_screenshot_stops_the_money_until_the_operator_decides(world):
    sale = await world.sale_pinned_in_the_app_and_accepted()
    # the request's moment is random within the placement; placed on the second day here
    await world.sql(world.social, "UPDATE placements SET recheck_at = pinned_at + interval '47 hours' "
                                  "WHERE bid_id = :b RETURNING 1", b=sale.bid)
    await world.day_passes([sale], days=2, answering=False)  # asked on the second day; the creator stays silent
    assert (await world.trust(sale))["recheck"]["answeredAt"] is None
    assert await world.money(sale) == (PRICE, CREATOR_CENTS - released_by(2), released_by(2), 0, FEE_CENTS)

    await world.day_passes([sale], days=3, answering=False)  # 24 hours later Pinbid reports it itself
    dispute = (await world.trust(sale))["dispute"]
    assert (dispute["status"], dispute["reporter"], dispute["answeredAt"]) == ("OPEN", "SYSTEM", None)
    assert await world.sql(world.payments, "SELECT d.status FROM payment_disputes d JOIN payments p "
                                           "ON p.id = d.payment_id WHERE p.bid_id = :b", b=sale.bid) == [("OPEN",)]
    assert await world.money(sale) == (PRICE, CREATOR_CENTS - released_by(2), released_by(2), 0, FEE_CENTS)
    assert await world.one(world.payments, "SELECT days_kept FROM payments WHERE bid_id = :b", b=sale.bid) == 5
    world.clock.advance(minutes=1)
    late = await world.answer(sale)  # past the dispute's 48 hours
    assert late.status_code == 409 and late.json()["code"] == "answer_window_closed"

    await world.decide(dispute["id"], "REFUND_UNEARNED")
    await world.settled()
    assert await world.refund_job() == 1
    back = stages.early_end(Split(PRICE, FEE_CENTS, CREATOR_CENTS), released_by(2))
    assert await world.money(sale) == (PRICE - back.refund_cents, 0, released_by(2), 0, FEE_CENTS - back.fee_cents)
    assert await world.provider_refunds(sale) == [back.refund_cents]
    assert await world.states(sale) == ("ENDED", "COMPLETED", True, True)
    await world.released_once(sale, released_by(2))
    await world.day_passes([sale], days=2)
    assert await world.refund_job() == 0 and await world.provider_refunds(sale) == [back.refund_cents]
    assert await world.brand_sees(sale) == ("ENDED", "past")
    await world.balanced()
