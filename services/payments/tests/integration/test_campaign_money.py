"""A campaign's money on real PostgreSQL: funded through the sandbox's Checkout and the signed webhook, a win drawn
from the balance, the rest returned through the provider, a funding taken back at the provider."""

import asyncio
import json
import uuid

from pinbid_kit.events.campaigns import CampaignSettled, CampaignUpdated
from pinbid_kit.events.marketplace import BidApproved
from pinbid_payments.domain import ledger
from pinbid_payments.ports import ProviderError

from .test_webhooks import post, stripe_event

FUNDED = "payments.campaign.funded.v1"
DRAWN = "payments.campaign.drawn.v1"
RETURNED = "payments.campaign.returned.v1"
REVERSED = "payments.campaign.funding_reversed.v1"


async def campaign(pay, *, buyer=None, budget=100_00, version=1, status="ACTIVE", campaign_id=None):
    event = CampaignUpdated(campaign_id=campaign_id or uuid.uuid4(), buyer_id=buyer or uuid.uuid4(),
                            name="Fitness, November", status=status, budget_cents=budget, committed_cents=0,
                            spent_cents=0, version=version)
    await pay.deliver(event)
    return event


async def fund(pay, c, *, buyer=None):
    return await pay.http.post(f"/buyer/campaigns/{c.campaign_id}/fund",
                               headers=pay.token(buyer or c.buyer_id, "BUYER"))


async def pay_page(pay, url: str):
    """Pay on the sandbox's checkout page: it sends the signed webhooks to our endpoint."""
    response = await pay.http.post("/" + url.split("/api/", 1)[1], data={"action": "pay"})
    assert response.status_code == 303, response.text


async def funded(pay, **kwargs):
    c = await campaign(pay, **kwargs)
    response = await fund(pay, c)
    assert response.status_code == 200, response.text
    await pay_page(pay, response.json()["url"])
    return c


async def approve(pay, c, price_cents: int):
    event = BidApproved(bid_id=uuid.uuid4(), slot_id=uuid.uuid4(), slot_title="Leg day reel",
                        creator_id=uuid.uuid4(), buyer_id=c.buyer_id, final_price_cents=price_cents,
                        campaign_id=c.campaign_id)
    envelope = await pay.deliver(event)
    return event, envelope


async def balance(pay, c) -> int:
    return await pay.balance(ledger.campaign_balance(c.campaign_id))


async def ledger_balances(pay) -> bool:
    """Every transaction sums to zero, and so does the whole ledger."""
    unbalanced = await pay.scalar("SELECT count(*) FROM (SELECT transaction_id FROM ledger_entries "
                                  "GROUP BY transaction_id HAVING sum(amount_cents) <> 0) AS t")
    return unbalanced == 0 and await pay.scalar("SELECT coalesce(sum(amount_cents), 0) FROM ledger_entries") == 0


async def settle(pay, c, spent: int):
    return await pay.deliver(CampaignSettled(campaign_id=c.campaign_id, buyer_id=c.buyer_id, spent_cents=spent))


def funding_event(kind: str, funding_id, obj: dict) -> str:
    return stripe_event(kind, {"metadata": {"funding_id": str(funding_id)}, **obj})


# --- read model and fund ------------------------------------------------------------------

async def test_the_campaign_is_kept_as_of_its_highest_version(pay):
    c = await campaign(pay, budget=500_00, version=3)
    await campaign(pay, campaign_id=c.campaign_id, buyer=c.buyer_id, budget=100_00, version=2)
    assert await pay.scalar("SELECT budget_cents FROM campaigns WHERE id = :c", c=c.campaign_id) == 500_00
    await campaign(pay, campaign_id=c.campaign_id, buyer=c.buyer_id, budget=700_00, version=4, status="PAUSED")
    row = (await pay.rows("SELECT budget_cents, status, version FROM campaigns WHERE id = :c", c=c.campaign_id))[0]
    assert tuple(row) == (700_00, "PAUSED", 4)


async def test_fund_is_the_owners_and_pays_in_the_budget_not_funded_yet(pay):
    c = await campaign(pay, budget=250_00)
    stranger = await fund(pay, c, buyer=uuid.uuid4())
    unknown = await pay.http.post(f"/buyer/campaigns/{uuid.uuid4()}/fund", headers=pay.token(c.buyer_id, "BUYER"))
    creator = await pay.http.post(f"/buyer/campaigns/{c.campaign_id}/fund", headers=pay.token(c.buyer_id,
                                                                                                 "INFLUENCER"))
    not_an_id = await pay.http.post("/buyer/campaigns/x%20or%201=1/fund", headers=pay.token(c.buyer_id, "BUYER"))
    assert stranger.status_code == unknown.status_code == 404
    assert stranger.json() == unknown.json() and stranger.json()["code"] == "campaign_not_found"
    assert "try again in a moment" in unknown.json()["detail"]
    assert creator.status_code == 403 and not_an_id.status_code == 422
    opened = await fund(pay, c)
    assert opened.status_code == 200 and "/payments/sandbox/checkout/" in opened.json()["url"]
    assert (await fund(pay, c)).json()["url"] == opened.json()["url"]  # still open: the same checkout
    assert await pay.scalar("SELECT amount_cents FROM sandbox_checkouts") == 250_00
    assert await pay.events(FUNDED) == [] and await balance(pay, c) == 0
    await pay_page(pay, opened.json()["url"])
    assert await balance(pay, c) == 250_00
    [event] = await pay.events(FUNDED)
    assert (event["amountCents"], event["balanceCents"], event["fundedCents"]) == (250_00, 250_00, 250_00)
    assert event["idempotencyKey"] == f"campaign-funded-{event['paymentId']}"
    nothing = await fund(pay, c)
    assert nothing.status_code == 409 and nothing.json()["code"] == "nothing_to_fund"
    # the budget raised: only the difference is paid in
    await campaign(pay, campaign_id=c.campaign_id, buyer=c.buyer_id, budget=300_00, version=2)
    more = await fund(pay, c)
    assert more.status_code == 200 and more.json()["url"] != opened.json()["url"]
    assert await pay.scalar("SELECT max(amount_cents) FILTER (WHERE amount_cents < 25000) FROM sandbox_checkouts") \
        == 50_00
    assert await ledger_balances(pay)


async def test_an_ended_campaign_takes_no_money(pay):
    c = await campaign(pay, status="ENDED")
    ended = await fund(pay, c)
    assert ended.status_code == 409 and ended.json()["code"] == "campaign_ended"
    assert await pay.scalar("SELECT count(*) FROM campaign_fundings") == 0


async def test_fifty_fund_calls_at_once_open_one_checkout(pay):
    c = await campaign(pay, budget=1_000_00)
    answers = await asyncio.gather(*(fund(pay, c) for _ in range(50)))
    assert {a.status_code for a in answers} == {200}
    assert len({a.json()["url"] for a in answers}) == 1
    assert await pay.scalar("SELECT count(*) FROM campaign_fundings") == 1
    assert await pay.scalar("SELECT count(*) FROM sandbox_checkouts") == 1


# --- the funding's webhooks ---------------------------------------------------------------

async def test_the_funding_webhook_delivered_twice_funds_once(pay):
    c = await funded(pay, budget=80_00)
    completed = await pay.scalar("SELECT payload FROM sandbox_webhooks WHERE payload::jsonb->>'type' = "
                                 "'checkout.session.completed'")
    again = await post(pay, completed)
    assert again.status_code == 200 and again.json()["outcome"] == "duplicate"
    event = json.loads(completed)
    event["id"] = "evt_another_delivery_of_the_same_payment"
    other = await post(pay, json.dumps(event))
    assert other.json()["outcome"] == "ignored: funding already paid"
    assert len(await pay.events(FUNDED)) == 1 and await balance(pay, c) == 80_00
    signals = await pay.events("payments.account.signal_observed.v1")
    assert [s["userId"] for s in signals if s["kind"] == "CARD"] == [str(c.buyer_id)]  # the card, as a bid's


async def test_a_refund_before_the_completion_is_sent_again_later_and_an_expiry_after_it_changes_nothing(pay):
    c = await campaign(pay, budget=60_00)
    await fund(pay, c)
    funding_id = await pay.scalar("SELECT id FROM campaign_fundings")
    early = await post(pay, funding_event("charge.refunded", funding_id, {
        "id": "ch_1", "object": "charge", "amount": 60_00, "amount_refunded": 60_00, "payment_intent": "pi_f"}))
    assert early.status_code == 409 and early.json()["code"] == "out_of_order"
    paid = await post(pay, funding_event("checkout.session.completed", funding_id, {
        "id": "cs_f", "object": "checkout.session", "payment_status": "paid", "amount_total": 60_00,
        "currency": "usd", "payment_intent": "pi_f"}))
    assert paid.json()["outcome"] == "funded"
    expired = await post(pay, funding_event("checkout.session.expired", funding_id, {"id": "cs_f"}))
    assert expired.json()["outcome"] == "ignored: funding already COMPLETED"
    assert await balance(pay, c) == 60_00
    wrong = await post(pay, funding_event("checkout.session.completed", funding_id, {
        "id": "cs_g", "object": "checkout.session", "payment_status": "paid", "amount_total": 1,
        "currency": "usd", "payment_intent": "pi_g"}))
    assert wrong.json()["outcome"] == "ignored: amount does not match"


async def test_a_funding_checkout_that_expires_changes_nothing(pay):
    c = await campaign(pay, budget=40_00)
    first = (await fund(pay, c)).json()["url"]
    funding_id = await pay.scalar("SELECT id FROM campaign_fundings")
    expired = await post(pay, funding_event("checkout.session.expired", funding_id, {"id": "cs_x"}))
    assert expired.json()["outcome"] == "funding expired"
    assert await pay.scalar("SELECT status FROM campaign_fundings") == "EXPIRED"
    assert await pay.scalar("SELECT count(*) FROM ledger_entries") == 0
    assert await pay.events(FUNDED) == [] and await balance(pay, c) == 0
    second = (await fund(pay, c)).json()["url"]
    assert second != first and await pay.scalar("SELECT count(*) FROM campaign_fundings") == 2
    pay.clock.advance(hours=2)  # its session ran out without a word from the provider
    third = (await fund(pay, c)).json()["url"]
    statuses = [r.status for r in await pay.rows("SELECT status FROM campaign_fundings ORDER BY created_at")]
    assert third not in (first, second) and statuses == ["EXPIRED", "EXPIRED", "OPEN"]
    assert await pay.scalar("SELECT count(*) FROM ledger_entries") == 0


# --- drawn --------------------------------------------------------------------------------

async def test_a_win_the_balance_covers_is_paid_from_it_once(pay):
    c = await funded(pay, budget=100_00)
    approved, envelope = await approve(pay, c, 40_00)
    await pay.service.consumers.dispatch(envelope, {})  # redelivered
    await pay.deliver(approved)  # the same approval announced again (another event id)
    [payment] = await pay.rows("SELECT id, status, campaign_id, provider_session_id, amount_cents FROM payments")
    assert (payment.status, payment.campaign_id, payment.provider_session_id, payment.amount_cents) == (
        "COMPLETED", c.campaign_id, None, 40_00)
    [completed] = await pay.events("payments.payment.completed.v1")
    assert completed["bidId"] == str(approved.bid_id) and completed["pinDeadlineAt"] is not None
    [drawn] = await pay.events(DRAWN)
    assert (drawn["amountCents"], drawn["balanceCents"], drawn["bidId"]) == (40_00, 60_00, str(approved.bid_id))
    assert await pay.events("payments.payment.requested.v1") == []
    assert await balance(pay, c) == 60_00
    assert await pay.balance(ledger.PLATFORM_FEES) == 4_00
    assert await pay.balance(ledger.creator_pending(approved.creator_id)) == 36_00
    assert await pay.balance(ledger.buyer_charges(c.buyer_id)) == 100_00
    assert await pay.scalar("SELECT status FROM earnings") == "PENDING"
    assert await ledger_balances(pay)
    # the staged release is unchanged: the pin releases a quarter of the creator's share
    await pay.pin(approved)
    assert await pay.balance(ledger.creator_available(approved.creator_id)) == 9_00
    spent = await pay.http.get("/buyer/total-spent", headers=pay.token(c.buyer_id, "BUYER"))
    assert spent.json()["totalSpent"] == 40.0  # the 60.00 left is the brand's, not spent


async def test_a_draw_carries_no_buyer_fee_so_wins_up_to_the_budget_are_all_drawn(make_harness):
    pay = await make_harness(buyer_fee_cents=2_50)
    c = await funded(pay, budget=100_00)
    assert await pay.balance(ledger.buyer_charges(c.buyer_id)) == 100_00  # the funding has no fee either
    first, _ = await approve(pay, c, 60_00)
    second, _ = await approve(pay, c, 40_00)  # marketplace reserved 60 + 40: exactly the budget
    rows = await pay.rows("SELECT status, amount_cents, buyer_fee_cents FROM payments ORDER BY amount_cents")
    assert [(r.status, r.amount_cents, r.buyer_fee_cents) for r in rows] == [("COMPLETED", 40_00, 0),
                                                                              ("COMPLETED", 60_00, 0)]
    assert [e["amountCents"] for e in await pay.events(DRAWN)] == [60_00, 40_00]
    assert await balance(pay, c) == 0 and await pay.balance(ledger.PLATFORM_FEES) == 10_00
    assert await ledger_balances(pay)
    other = await campaign(pay)  # a win paid by checkout still carries the fee
    await pay.deliver(BidApproved(bid_id=uuid.uuid4(), slot_id=uuid.uuid4(), slot_title="Leg day reel",
                                  creator_id=uuid.uuid4(), buyer_id=other.buyer_id, final_price_cents=30_00))
    assert await pay.scalar("SELECT amount_cents FROM payments WHERE campaign_id IS NULL") == 32_50


async def test_ten_wins_approved_at_once_never_draw_more_than_the_balance(pay):
    c = await funded(pay, budget=100_00)
    await asyncio.gather(*(approve(pay, c, 30_00) for _ in range(10)))
    statuses = sorted(r.status for r in await pay.rows("SELECT status FROM payments"))
    assert statuses == ["COMPLETED"] * 3 + ["REQUESTED"] * 7  # 3 x 30.00 drawn, the rest by checkout
    assert await balance(pay, c) == 10_00 and len(await pay.events(DRAWN)) == 3
    assert sorted(e["balanceCents"] for e in await pay.events(DRAWN)) == [10_00, 40_00, 70_00]
    assert await ledger_balances(pay)


async def test_a_win_the_balance_does_not_cover_is_paid_by_checkout(pay):
    c = await funded(pay, budget=50_00)
    approved, _ = await approve(pay, c, 80_00)
    assert await pay.status(approved) == "REQUESTED"
    assert len(await pay.events("payments.payment.requested.v1")) == 1
    assert await pay.events(DRAWN) == [] and await balance(pay, c) == 50_00
    await pay.pay(approved)  # the brand pays it as any other win
    assert await pay.status(approved) == "COMPLETED" and await ledger_balances(pay)


async def test_a_campaign_payments_never_heard_of_is_paid_by_checkout(pay):
    c = await campaign(pay)
    await pay.deliver(BidApproved(bid_id=uuid.uuid4(), slot_id=uuid.uuid4(), slot_title="t", creator_id=uuid.uuid4(),
                                  buyer_id=c.buyer_id, final_price_cents=10_00, campaign_id=uuid.uuid4()))
    assert await pay.scalar("SELECT status FROM payments") == "REQUESTED"


async def test_a_drawn_win_refunded_goes_back_to_the_balance(pay):
    c = await funded(pay, budget=100_00)
    approved, _ = await approve(pay, c, 40_00)
    pay.clock.advance(days=4)  # never pinned: refunded in full by the refund job
    assert await pay.service.state["refunds"].run_once() == 1
    assert await pay.status(approved) == "REFUNDED"
    assert await balance(pay, c) == 100_00 and await pay.scalar("SELECT count(*) FROM sandbox_refunds") == 0
    assert await ledger_balances(pay)


async def test_a_drawn_win_refunded_after_the_campaign_settled_goes_back_to_the_brand(pay):
    c = await funded(pay, budget=100_00)
    approved, _ = await approve(pay, c, 40_00)
    await settle(pay, c, spent=40_00)  # 60.00 back
    pay.clock.advance(days=4)
    assert await pay.service.state["refunds"].run_once() == 1
    assert await pay.status(approved) == "REFUNDED"
    assert sorted(r.amount_cents for r in await pay.rows("SELECT amount_cents FROM sandbox_refunds")) == [40_00,
                                                                                                          60_00]
    returned = await pay.events(RETURNED)
    assert [(e["amountCents"], e["idempotencyKey"]) for e in returned] == [
        (60_00, f"campaign-returned-{c.campaign_id}"),
        (40_00, f"campaign-returned-{c.campaign_id}-{await pay.scalar('SELECT id FROM payments')}-refund")]
    assert await balance(pay, c) == 0 and await pay.balance(ledger.buyer_charges(c.buyer_id)) == 0
    assert await ledger_balances(pay)


# --- returned -----------------------------------------------------------------------------

async def test_the_rest_goes_back_through_the_provider_newest_funding_first_in_part_and_once(pay):
    c = await funded(pay, budget=100_00)
    await campaign(pay, campaign_id=c.campaign_id, buyer=c.buyer_id, budget=150_00, version=2)
    await pay_page(pay, (await fund(pay, c)).json()["url"])  # the 50.00 raised
    await approve(pay, c, 120_00)
    assert await balance(pay, c) == 30_00
    envelope = await settle(pay, c, spent=120_00)
    await pay.service.consumers.dispatch(envelope, {})
    await settle(pay, c, spent=120_00)
    refunds = await pay.rows("SELECT r.amount_cents, c.amount_cents AS paid FROM sandbox_refunds r "
                             "JOIN sandbox_checkouts c ON c.payment_intent = r.payment_intent")
    assert [(r.amount_cents, r.paid) for r in refunds] == [(30_00, 50_00)]  # from the newest funding, in part
    [returned] = await pay.events(RETURNED)
    assert (returned["amountCents"], returned["balanceCents"]) == (30_00, 0)
    assert returned["idempotencyKey"] == f"campaign-returned-{c.campaign_id}"
    assert await balance(pay, c) == 0 and await pay.balance(ledger.buyer_charges(c.buyer_id)) == 120_00
    # the provider's charge.refunded for it is our own refund's echo: no reversal
    await pay.service.state["sandbox"].deliver_due()
    outcomes = [r.outcome for r in await pay.rows("SELECT outcome FROM webhook_events WHERE type = 'charge.refunded'")]
    assert outcomes == ["ignored: a refund Pinbid made or booked"]
    assert await pay.events(REVERSED) == [] and await ledger_balances(pay)
    ended = await fund(pay, c)
    assert ended.status_code == 409 and ended.json()["code"] == "campaign_ended"


async def test_the_rest_spread_over_two_fundings_is_refunded_from_both(pay):
    c = await funded(pay, budget=100_00)
    await campaign(pay, campaign_id=c.campaign_id, buyer=c.buyer_id, budget=150_00, version=2)
    await pay_page(pay, (await fund(pay, c)).json()["url"])
    await approve(pay, c, 20_00)
    await settle(pay, c, spent=20_00)
    refunded = sorted(r.amount_cents for r in await pay.rows("SELECT amount_cents FROM sandbox_refunds"))
    assert refunded == [50_00, 80_00] and await balance(pay, c) == 0 and await ledger_balances(pay)


class Refusing:
    """The provider, refusing the refunds numbered in `refused` (1 = the first asked)."""

    def __init__(self, provider, refused: set[int]):
        self.provider, self.refused, self.asked = provider, refused, 0

    async def refund(self, payment_intent: str, idempotency_key: str, *, amount_cents: int | None = None) -> str:
        self.asked += 1
        if self.asked in self.refused:
            raise ProviderError("Stripe is down")
        return await self.provider.refund(payment_intent, idempotency_key, amount_cents=amount_cents)


async def test_a_return_the_provider_refuses_in_part_books_what_left_and_the_job_returns_the_rest(pay):
    c = await funded(pay, budget=100_00)
    await campaign(pay, campaign_id=c.campaign_id, buyer=c.buyer_id, budget=150_00, version=2)
    await pay_page(pay, (await fund(pay, c)).json()["url"])
    await approve(pay, c, 20_00)
    campaigns = pay.service.state["campaigns"]
    campaigns.provider = Refusing(campaigns.provider, refused={2})
    envelope = await settle(pay, c, spent=20_00)
    assert await balance(pay, c) == 80_00  # the newest funding's 50.00 went back; the older one's 80.00 waits
    assert [(e["amountCents"], e["balanceCents"]) for e in await pay.events(RETURNED)] == [(50_00, 80_00)]
    await pay.service.consumers.dispatch(envelope, {})  # redelivered: settled once
    assert await campaigns.return_due() == 0  # not due yet
    pay.clock.advance(minutes=6)
    assert await campaigns.return_due() == 1
    assert await balance(pay, c) == 0 and await campaigns.return_due() == 0
    returned = await pay.events(RETURNED)
    assert [(e["amountCents"], e["balanceCents"], e["idempotencyKey"]) for e in returned] == [
        (50_00, 80_00, f"campaign-returned-{c.campaign_id}"),
        (80_00, 0, f"campaign-returned-{c.campaign_id}-5000")]
    assert sorted(r.amount_cents for r in await pay.rows("SELECT amount_cents FROM sandbox_refunds")) == [50_00,
                                                                                                          80_00]
    assert await pay.scalar("SELECT return_next_at FROM campaigns") is None
    await pay.service.state["sandbox"].deliver_due()
    assert await pay.events(REVERSED) == [] and await ledger_balances(pay)


async def test_nothing_left_is_recorded_without_a_refund(pay):
    c = await funded(pay, budget=50_00)
    await approve(pay, c, 50_00)
    await settle(pay, c, spent=50_00)
    assert await pay.scalar("SELECT count(*) FROM sandbox_refunds") == 0
    [returned] = await pay.events(RETURNED)
    assert (returned["amountCents"], returned["balanceCents"]) == (0, 0)
    assert await pay.scalar("SELECT settled_at IS NOT NULL FROM campaigns") is True


async def test_a_funding_paid_after_the_campaign_settled_goes_straight_back(pay):
    c = await campaign(pay, budget=70_00)
    url = (await fund(pay, c)).json()["url"]
    await settle(pay, c, spent=0)
    await pay_page(pay, url)
    assert await pay.scalar("SELECT amount_cents FROM sandbox_refunds") == 70_00
    assert [e["amountCents"] for e in await pay.events(RETURNED)] == [0, 70_00]
    assert await balance(pay, c) == 0 and await ledger_balances(pay)


# --- reversed -----------------------------------------------------------------------------

async def test_a_funding_refunded_at_the_provider_is_reversed_and_what_was_spent_is_a_loss(pay):
    c = await funded(pay, budget=100_00)
    await approve(pay, c, 30_00)
    intent = await pay.scalar("SELECT payment_intent FROM campaign_fundings")
    await pay.service.state["sandbox"].refund(intent, "someone-at-the-provider")  # not Pinbid: the dashboard
    await pay.service.state["sandbox"].deliver_due()
    [reversed_] = await pay.events(REVERSED)
    assert (reversed_["amountCents"], reversed_["balanceCents"], reversed_["fundedCents"]) == (100_00, 0, 0)
    assert await balance(pay, c) == 0
    assert await pay.balance(ledger.REFUND_LOSSES) == 30_00
    assert await pay.balance(ledger.buyer_charges(c.buyer_id)) == 0
    assert await ledger_balances(pay)
    await settle(pay, c, spent=30_00)  # marketplace ends it: nothing is left to return
    assert await pay.scalar("SELECT count(*) FROM sandbox_refunds") == 1
    assert [e["amountCents"] for e in await pay.events(RETURNED)] == [0]


async def test_a_refund_at_the_provider_whose_charge_has_no_metadata_is_known_by_its_payment_intent(pay):
    c = await funded(pay, budget=100_00)
    intent = await pay.scalar("SELECT payment_intent FROM campaign_fundings")
    refunded = await post(pay, stripe_event("charge.refunded", {
        "id": "ch_2", "object": "charge", "amount": 100_00, "amount_refunded": 25_00, "payment_intent": intent}))
    assert refunded.json()["outcome"] == "funding refunded at the provider"
    [reversed_] = await pay.events(REVERSED)
    assert (reversed_["amountCents"], reversed_["balanceCents"]) == (25_00, 75_00)
    assert await balance(pay, c) == 75_00 and await ledger_balances(pay)


async def test_a_dispute_of_a_funding_is_reversed_once(pay):
    c = await funded(pay, budget=100_00)
    intent = await pay.scalar("SELECT payment_intent FROM campaign_fundings")
    dispute = {"id": "dp_1", "object": "dispute", "amount": 100_00, "payment_intent": intent, "charge": "ch_1"}
    first = await post(pay, stripe_event("charge.dispute.created", dispute))
    again = await post(pay, stripe_event("charge.dispute.created", dispute))
    assert first.json()["outcome"] == "funding disputed"
    assert again.json()["outcome"] == "ignored: funding already disputed"
    assert len(await pay.events(REVERSED)) == 1 and await balance(pay, c) == 0
    approved, _ = await approve(pay, c, 10_00)  # nothing left to draw from: a checkout instead
    assert await pay.status(approved) == "REQUESTED"
    assert await ledger_balances(pay)
