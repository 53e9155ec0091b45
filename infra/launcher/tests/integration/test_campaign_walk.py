"""Issue 36's walk: a campaign across marketplace, payments and social, real, on fresh databases and one in-process
bus, on one movable clock. A brand creates a campaign in marketplace, funds it in payments on the sandbox's
checkout page; marketplace bids for it on the slots that fit, within the budget; a win at the second price is
approved by the creator and paid from the balance (no checkout), another is rejected; the brand ends it and the rest
goes back through the provider. After each step the ledger is balanced, the campaign's committed and spent as
marketplace answers them agree with payments' balance, and each finance event is announced once with its amount.
Also: the funding refunded at the provider ends the campaign, which stops bidding, and no cent is lost; a funding
left unpaid; four wins approved at once; a drawn win not pinned in time, and one ended early (its unearned share
back in the balance); a buyer fee, which a campaign's wins do not carry; a campaign outbid early that takes the
slot's second chance when the winner is rejected, paid from the balance."""

import asyncio
import uuid
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

import pytest
from pinbid_payments.domain import ledger, stages
from pinbid_payments.domain.money import Split
from pinbid_testing import eventually

from .walk import Sale, Services, World

BUDGET, MOST_PER_COMMENT = 100_00, 60_00  # cents
COMMENT = "Northwind's oat latte, pulled fresh every morning"
FUNDED, DRAWN = "payments.campaign.funded.v1", "payments.campaign.drawn.v1"
RETURNED, REVERSED = "payments.campaign.returned.v1", "payments.campaign.funding_reversed.v1"


def cents(amount) -> int:
    return int(Decimal(str(amount)) * 100)


@dataclass
class Money:
    """What payments' books hold for the campaign, in cents."""

    balance: int
    charges: int  # the brand's card: paid in less given back
    drawn: int  # the campaign.drawn events' amounts
    returned: int  # the campaign.returned events' amounts
    reversed: int  # the campaign.funding_reversed events' amounts
    refunded: int = 0  # what refunds of its drawn wins put back in the balance


class CampaignWorld(World):
    # --- the brand's campaign, in marketplace ----------------------------------------------------------------
    async def create_campaign(self, buyer: uuid.UUID, **fields) -> str:
        body = {"name": "Latte lovers", "filters": {"category": "food"}, "budget": BUDGET / 100,
                "maxPerSlot": MOST_PER_COMMENT / 100, "commentText": COMMENT,
                "endsAt": (self.clock() + timedelta(days=20)).isoformat(), **fields}
        created = await self.act("marketplace", "POST", "/buyer/campaigns", buyer, "BUYER", status=201, json=body)
        assert created.json()["status"] == "DRAFT"
        await self.settled()
        return created.json()["id"]

    async def campaign(self, buyer: uuid.UUID, campaign_id: str) -> dict:
        return (await self.act("marketplace", "GET", f"/buyer/campaigns/{campaign_id}", buyer, "BUYER")).json()

    async def fund(self, buyer: uuid.UUID, campaign_id: str, *, copies: int = 1) -> str:
        """Payments' fund call (`copies` of it at once: one checkout) and the sandbox's checkout page: returns the
        funding's payment intent."""
        opened = await asyncio.gather(*[self.http["payments"].post(f"/buyer/campaigns/{campaign_id}/fund",
                                                                   headers=self.auth(buyer, "BUYER"))
                                        for _ in range(copies)])
        assert {o.status_code for o in opened} == {200}, [o.text for o in opened]
        [url] = {o.json()["url"] for o in opened}
        await self.pay_on_the_checkout_page(url)
        await self.settled()
        intent = await self.one(self.payments, "SELECT payment_intent FROM campaign_fundings WHERE campaign_id = :c "
                                               "AND status = 'COMPLETED' ORDER BY created_at DESC", c=campaign_id)
        assert intent is not None
        return intent

    async def funded_campaign_and_a_slot(self) -> tuple[uuid.UUID, uuid.UUID, str, str, str]:
        """(creator, brand, campaign, its funding's payment intent, slot): a new creator and brand, the brand's
        campaign created and funded, then the creator's first post listed as a food slot, which the campaign bids
        on."""
        creator, brand = await self.creator_and_brand()
        c = await self.create_campaign(brand)
        intent = await self.fund(brand, c)
        return creator, brand, c, intent, await self.list_slot(creator, 0, "food")

    async def end(self, buyer: uuid.UUID, campaign_id: str) -> dict:
        ended = await self.act("marketplace", "POST", f"/buyer/campaigns/{campaign_id}/end", buyer, "BUYER")
        await self.settled()
        return ended.json()

    # --- the creator's slots and decisions ---------------------------------------------------------------------
    async def list_slot(self, creator: uuid.UUID, post_index: int, category: str, *, min_bid: int = 10) -> str:
        post = await self.post(creator, post_index)
        slot = await self.act("marketplace", "POST", "/influencer/pin-slots", creator, "INFLUENCER", status=201,
                              json={"postId": post, "title": f"Reel {post_index}", "description": "A reel",
                                    "category": category, "minBid": min_bid, "duration": 7,
                                    "auctionEnd": (self.clock() + timedelta(days=2)).isoformat()})
        await self.settled()
        return slot.json()["id"]

    async def close(self, creator: uuid.UUID, slot_id: str) -> None:
        await self.act("marketplace", "POST", f"/influencer/pin-slots/{slot_id}/end-auction", creator, "INFLUENCER")
        await self.settled()

    async def approval(self, creator: uuid.UUID, bid_id: str, status: str) -> dict:
        decided = await self.act("marketplace", "POST", f"/influencer/approvals/{bid_id}", creator, "INFLUENCER",
                                 json={"status": status})
        await self.settled()
        return decided.json()

    # --- what payments' books say, and that both halves agree ---------------------------------------------------
    async def money(self, buyer: uuid.UUID, campaign_id: str) -> Money:
        async def amounts(kind: str) -> int:
            return sum(e["amountCents"] for e in await self.events(self.payments, kind)
                       if e["campaignId"] == campaign_id)

        drawn_bids = {str(r[0]) for r in await self.sql(self.payments, "SELECT bid_id FROM payments "
                                                                        "WHERE campaign_id = :c", c=campaign_id)}
        refunds = [*await self.events(self.payments, "payments.payment.refunded.v1"),
                   *await self.events(self.payments, "payments.payment.partially_refunded.v1")]
        return Money(await self.balance(ledger.campaign_balance(uuid.UUID(campaign_id))),
                     await self.balance(ledger.buyer_charges(buyer)), await amounts(DRAWN), await amounts(RETURNED),
                     await amounts(REVERSED), sum(e["refundCents"] for e in refunds if e["bidId"] in drawn_bids))

    async def agree(self, buyer: uuid.UUID, campaign_id: str) -> tuple[dict, Money]:
        """The ledger balanced; marketplace's spent is what payments drew; the balance is what was funded less what
        was drawn, returned and taken back; each funded event once per funding payment."""
        await self.balanced()
        detail, money = await self.campaign(buyer, campaign_id), await self.money(buyer, campaign_id)
        funded = [e for e in await self.events(self.payments, FUNDED) if e["campaignId"] == campaign_id]
        fundings = await self.one(self.payments, "SELECT count(*) FROM campaign_fundings WHERE campaign_id = :c "
                                                 "AND status = 'COMPLETED'", c=campaign_id)
        assert len(funded) == fundings
        paid_in = sum(e["amountCents"] for e in funded)
        assert cents(detail["spent"]) == money.drawn - money.refunded
        assert money.balance == paid_in - money.drawn - money.returned - money.reversed + money.refunded
        assert cents(detail["committed"]) <= min(cents(detail["budget"]), paid_in) or detail["status"] == "ENDED"
        return detail, money

    async def campaign_bids(self, campaign_id: str) -> dict[str, tuple]:
        """Marketplace's bids of the campaign by slot: status, ceiling and final price, in cents."""
        rows = await self.sql(self.marketplace, "SELECT slot_id, id, status, ceiling, final_price FROM bids "
                                                "WHERE campaign_id = :c", c=campaign_id)
        return {str(r[0]): (str(r[1]), r[2], cents(r[3]), None if r[4] is None else cents(r[4])) for r in rows}


@pytest.fixture
def world(services: Services) -> CampaignWorld:
    return CampaignWorld(services)


async def test_a_funded_campaign_bids_within_its_budget_wins_pays_from_the_balance_and_returns_the_rest(world):
    creator, brand = await world.creator_and_brand()
    rival = await world.brand("Southside Tea", "southside.tea")
    c = await world.create_campaign(brand)
    intent = await world.fund(brand, c, copies=20)

    # funded: ACTIVE, the budget in the balance, announced once
    detail, money = await world.agree(brand, c)
    assert (detail["status"], cents(detail["funded"]), cents(detail["committed"])) == ("ACTIVE", BUDGET, 0)
    assert money == Money(balance=BUDGET, charges=BUDGET, drawn=0, returned=0, reversed=0)
    [funded] = await world.events(world.payments, FUNDED)
    assert (funded["amountCents"], funded["balanceCents"]) == (BUDGET, BUDGET)

    # slots that fit: a bid on each, the second only as high as what is left; one that does not fit: none
    first = await world.list_slot(creator, 0, "food")
    second = await world.list_slot(creator, 1, "food")
    elsewhere = await world.list_slot(creator, 2, "fitness")
    bids = await world.campaign_bids(c)
    assert {s: b[1:3] for s, b in bids.items()} == {first: ("ACTIVE", MOST_PER_COMMENT),
                                                  second: ("ACTIVE", BUDGET - MOST_PER_COMMENT)}
    assert elsewhere not in bids
    detail, money = await world.agree(brand, c)
    assert (detail["status"], cents(detail["committed"]), cents(detail["spent"])) == ("OUT_OF_BUDGET", BUDGET, 0)
    assert money.balance == BUDGET  # committed is a reservation: nothing moves in payments

    # a slot that fits once the budget is committed: no bid
    spent_out = await world.list_slot(creator, 3, "food")
    assert spent_out not in await world.campaign_bids(c)
    detail, _ = await world.agree(brand, c)
    assert (detail["status"], detail["reason"], cents(detail["committed"])) == ("OUT_OF_BUDGET", "budget", BUDGET)

    # a rival bids on the first slot; the campaign's proxy bid leads; the auction closes at the second price
    await world.act("marketplace", "POST", "/buyer/bids", rival, "BUYER", status=201, json={
        "pinSlotId": first, "amount": 30, "newCommentText": "Southside's chai, steeped slow"})
    await world.settled()
    await world.close(creator, first)
    win, status, _, price = (await world.campaign_bids(c))[first]
    assert (status, price) == ("PENDING_INFLUENCER_APPROVAL", 30_00)  # the runner-up's 30, not its 60
    detail, _ = await world.agree(brand, c)
    assert cents(detail["committed"]) == 30_00 + (BUDGET - MOST_PER_COMMENT)

    # the creator approves the exact comment; payments draws the price from the balance, without a checkout
    approved = await world.approval(creator, win, "APPROVED")
    assert approved["approvedComment"].endswith(COMMENT)  # the campaign's comment, the disclosure first
    payment = await world.sql(world.payments, "SELECT status, amount_cents, campaign_id, provider_session_id "
                                              "FROM payments WHERE bid_id = :b", b=win)
    assert payment == [("COMPLETED", 30_00, uuid.UUID(c), None)]
    assert (await world.campaign_bids(c))[first][1] == "WON"

    async def awaiting_pin() -> bool:
        return await world.one(world.social, "SELECT status FROM placements WHERE bid_id = :b", b=win) \
            == "AWAITING_PIN"

    await eventually(awaiting_pin, within=10)
    assert await world.one(world.social, "SELECT approved_text FROM bid_comments WHERE bid_id = :b", b=win) \
        == approved["approvedComment"]
    detail, money = await world.agree(brand, c)
    assert (cents(detail["spent"]), cents(detail["committed"])) == (30_00, 30_00 + BUDGET - MOST_PER_COMMENT)
    assert money == Money(balance=BUDGET - 30_00, charges=BUDGET, drawn=30_00, returned=0, reversed=0)
    [drawn] = await world.events(world.payments, DRAWN)
    assert (drawn["amountCents"], drawn["balanceCents"]) == (30_00, BUDGET - 30_00)
    assert (await world.balance(ledger.creator_pending(creator)), await world.balance(ledger.PLATFORM_FEES)) \
        == (27_00, 3_00)

    # the second slot closes with the campaign alone at the minimum; the creator rejects it: released
    await world.close(creator, second)
    other, status, _, price = (await world.campaign_bids(c))[second]
    assert (status, price) == ("PENDING_INFLUENCER_APPROVAL", 10_00)
    await world.approval(creator, other, "REJECTED")
    assert await world.one(world.payments, "SELECT count(*) FROM payments WHERE bid_id = :b", b=other) == 0
    detail, money = await world.agree(brand, c)
    assert (cents(detail["committed"]), cents(detail["spent"])) == (30_00, 30_00)
    assert money.balance == BUDGET - 30_00

    assert detail["status"] == "OUT_OF_BUDGET"  # released, but back only when the clock finds a slot within it

    # the campaign's clock: the slot listed while the budget was spent is within what is left now, and gets a bid
    world.clock.advance(minutes=5)
    await world.marketplace.state["campaign_bidding"].run_clock()
    await world.settled()
    last, status, ceiling, _ = (await world.campaign_bids(c))[spent_out]
    assert (status, ceiling) == ("ACTIVE", MOST_PER_COMMENT)
    detail, money = await world.agree(brand, c)
    assert (detail["status"], cents(detail["committed"])) == ("ACTIVE", 30_00 + MOST_PER_COMMENT)

    # the brand ends it: its live bid runs its course, so nothing settles yet and nothing goes back
    ended = await world.end(brand, c)
    assert (ended["status"], ended["reason"], cents(ended["committed"])) == ("ENDED", "ended_by_brand",
                                                                            30_00 + MOST_PER_COMMENT)
    assert await world.events(world.marketplace, "marketplace.campaign.settled.v1") == []
    assert await world.refunds_at_the_provider(intent) == []
    detail, money = await world.agree(brand, c)
    assert money.balance == BUDGET - 30_00 and money.returned == 0

    # its last win rejected: nothing is outstanding, it settles, and the rest goes back through the provider, once
    await world.close(creator, spent_out)
    await world.approval(creator, last, "REJECTED")
    world.clock.advance(minutes=5)
    await world.marketplace.state["campaign_bidding"].run_clock()  # the clock settles what a decision left ended
    await world.settled()
    [settled] = await world.events(world.marketplace, "marketplace.campaign.settled.v1")
    assert (settled["campaignId"], settled["spentCents"]) == (c, 30_00)
    assert await world.refunds_at_the_provider(intent) == [BUDGET - 30_00]  # funded minus drawn
    detail, money = await world.agree(brand, c)
    assert (cents(detail["committed"]), cents(detail["spent"])) == (30_00, 30_00)
    assert money == Money(balance=0, charges=30_00, drawn=30_00, returned=BUDGET - 30_00, reversed=0)
    [returned] = await world.events(world.payments, RETURNED)
    assert (returned["amountCents"], returned["balanceCents"]) == (BUDGET - 30_00, 0)
    mine = (await world.http["marketplace"].get("/buyer/bids", headers=world.auth(brand, "BUYER"))).json()
    assert {(b["id"], b["status"], b["campaignName"]) for b in mine} == {
        (win, "WON", "Latte lovers"), (other, "REJECTED", "Latte lovers"), (last, "REJECTED", "Latte lovers")}

    # every event between the halves delivered again, later runs of the jobs and later slots change nothing
    for service, kind in ((world.payments, FUNDED), (world.marketplace, "marketplace.bid.approved.v1"),
                          (world.payments, "payments.payment.completed.v1"), (world.payments, DRAWN),
                          (world.marketplace, "marketplace.campaign.settled.v1"), (world.payments, RETURNED),
                          (world.marketplace, "marketplace.campaign.updated.v1")):
        assert await world.redeliver(service, kind) >= 1, kind
    world.clock.advance(days=1)
    await world.marketplace.state["campaign_bidding"].run_clock()
    await world.payments.state["campaigns"].return_due()
    late = await world.list_slot(creator, 4, "food")
    assert late not in await world.campaign_bids(c)
    await world.settled()
    assert await world.refunds_at_the_provider(intent) == [BUDGET - 30_00]
    assert [len(await world.events(world.payments, kind)) for kind in (FUNDED, DRAWN, RETURNED, REVERSED)] \
        == [1, 1, 1, 0]
    assert len(await world.events(world.marketplace, "marketplace.campaign.settled.v1")) == 1
    detail, money = await world.agree(brand, c)
    assert (detail["status"], cents(detail["committed"]), cents(detail["spent"])) == ("ENDED", 30_00, 30_00)
    assert money == Money(balance=0, charges=30_00, drawn=30_00, returned=BUDGET - 30_00, reversed=0)
    assert await world.one(world.payments, "SELECT status FROM payments WHERE bid_id = :b", b=win) == "COMPLETED"


async def test_a_funding_left_unpaid_changes_nothing_and_paid_later_the_campaign_bids_on_what_was_listed(world):
    creator, brand = await world.creator_and_brand()
    c = await world.create_campaign(brand)
    opened = await world.http["payments"].post(f"/buyer/campaigns/{c}/fund", headers=world.auth(brand, "BUYER"))
    assert opened.status_code == 200, opened.text
    left = await world.http["payments"].post("/" + opened.json()["url"].split("/api/", 1)[1],
                                             data={"action": "cancel"})
    assert left.status_code == 303, left.text
    first = await world.list_slot(creator, 0, "food")
    assert await world.campaign_bids(c) == {}  # a draft does not bid
    world.clock.advance(hours=1, minutes=1)  # the funding's checkout expires unpaid
    await world.payments.state["sandbox"].expire_sessions()
    await world.payments.state["sandbox"].deliver_due()
    await world.settled()
    detail, money = await world.agree(brand, c)
    assert (detail["status"], cents(detail["funded"])) == ("DRAFT", 0)
    assert money == Money(balance=0, charges=0, drawn=0, returned=0, reversed=0)
    assert await world.events(world.payments, FUNDED) == []

    intent = await world.fund(brand, c)  # a new checkout, paid: ACTIVE, and it bids on the slot listed meanwhile
    assert await world.one(world.payments, "SELECT count(*) FROM campaign_fundings WHERE campaign_id = :c",
                           c=c) == 2
    assert (await world.campaign_bids(c))[first][1:3] == ("ACTIVE", MOST_PER_COMMENT)
    detail, money = await world.agree(brand, c)
    assert (detail["status"], cents(detail["funded"]), cents(detail["committed"])) == ("ACTIVE", BUDGET,
                                                                                        MOST_PER_COMMENT)
    assert money == Money(balance=BUDGET, charges=BUDGET, drawn=0, returned=0, reversed=0)
    assert await world.refunds_at_the_provider(intent) == []


async def test_four_wins_closing_and_approved_at_once_are_all_drawn_and_add_up_to_the_budget(world):
    creator, brand = await world.creator_and_brand()
    c = await world.create_campaign(brand, maxPerSlot=25)
    await world.fund(brand, c)
    slots = [await world.list_slot(creator, k, "food", min_bid=25) for k in range(4)]
    detail, _ = await world.agree(brand, c)
    assert (detail["status"], cents(detail["committed"])) == ("OUT_OF_BUDGET", BUDGET)
    await asyncio.gather(*[world.http["marketplace"].post(f"/influencer/pin-slots/{s}/end-auction",
                                                          headers=world.auth(creator, "INFLUENCER")) for s in slots])
    await world.settled()
    bids = await world.campaign_bids(c)
    assert sorted(b[1:] for b in bids.values()) == [("PENDING_INFLUENCER_APPROVAL", 25_00, 25_00)] * 4
    decided = await asyncio.gather(*[world.http["marketplace"].post(
        f"/influencer/approvals/{b[0]}", json={"status": "APPROVED"}, headers=world.auth(creator, "INFLUENCER"))
        for b in bids.values()])
    assert {d.status_code for d in decided} == {200}
    await world.settled()
    paid = await world.sql(world.payments, "SELECT status, amount_cents, provider_session_id FROM payments")
    assert paid == [("COMPLETED", 25_00, None)] * 4  # all drawn, none sent to a checkout
    assert {b[1] for b in (await world.campaign_bids(c)).values()} == {"WON"}
    detail, money = await world.agree(brand, c)
    assert (cents(detail["committed"]), cents(detail["spent"])) == (BUDGET, BUDGET)
    assert money == Money(balance=0, charges=BUDGET, drawn=BUDGET, returned=0, reversed=0)
    assert sorted(e["balanceCents"] for e in await world.events(world.payments, DRAWN)) == [0, 25_00, 50_00, 75_00]


async def test_a_drawn_win_not_pinned_in_time_goes_back_to_the_balance_and_then_to_the_brand(world):
    creator, brand, c, intent, first = await world.funded_campaign_and_a_slot()
    await world.close(creator, first)
    win, status, _, price = (await world.campaign_bids(c))[first]
    assert (status, price) == ("PENDING_INFLUENCER_APPROVAL", 10_00)
    await world.approval(creator, win, "APPROVED")
    detail, money = await world.agree(brand, c)
    assert (cents(detail["committed"]), cents(detail["spent"]), money.balance) == (10_00, 10_00, BUDGET - 10_00)

    # the creator never pins it: past the pin deadline the refund job gives it back, to the balance, once
    world.clock.advance(days=3, minutes=1)
    assert await world.refund_job() == 1
    assert await world.refund_job() == 0
    assert await world.one(world.payments, "SELECT status FROM payments WHERE bid_id = :b", b=win) == "REFUNDED"
    assert await world.refunds_at_the_provider(intent) == []  # the card was never charged for the win
    detail, money = await world.agree(brand, c)
    assert (cents(detail["committed"]), cents(detail["spent"]), detail["counts"]["won"]) == (0, 0, 0)
    assert money == Money(balance=BUDGET, charges=BUDGET, drawn=10_00, returned=0, reversed=0, refunded=10_00)
    assert (await world.balance(ledger.creator_pending(creator)), await world.balance(ledger.PLATFORM_FEES)) == (0, 0)

    # ended: the whole budget goes back through the provider, once
    ended = await world.end(brand, c)
    assert ended["status"] == "ENDED"
    [settled] = await world.events(world.marketplace, "marketplace.campaign.settled.v1")
    assert settled["spentCents"] == 0
    assert await world.refunds_at_the_provider(intent) == [BUDGET]
    detail, money = await world.agree(brand, c)
    assert money == Money(balance=0, charges=0, drawn=10_00, returned=BUDGET, reversed=0, refunded=10_00)
    assert await world.redeliver(world.payments, "payments.payment.refunded.v1") == 1
    assert await world.refunds_at_the_provider(intent) == [BUDGET]
    await world.agree(brand, c)


async def test_a_drawn_win_ended_early_returns_its_unearned_share_to_the_balance_and_the_campaign_settles(world):
    creator, brand, c, intent, first = await world.funded_campaign_and_a_slot()
    await world.close(creator, first)
    win = (await world.campaign_bids(c))[first][0]
    await world.approval(creator, win, "APPROVED")
    post = await world.one(world.marketplace, "SELECT post_id FROM slots WHERE id = :s", s=first)
    sale = Sale(uuid.UUID(win), uuid.UUID(first), str(post), creator, brand)

    # pinned in the app and accepted; then reported, answered, and decided: the unearned share goes back
    await world.pin_in_the_app(sale)
    await world.accept(sale)
    await world.settled()
    released = await world.one(world.payments, "SELECT released_cents FROM earnings WHERE bid_id = :b", b=win)
    assert released == 9_00 // 4  # the pin's quarter of the creator's 9.00
    world.clock.advance(hours=5)
    dispute_id = await world.report(sale, "The comment is not pinned on the post any more.")
    await world.settled()
    world.clock.advance(hours=1)
    assert (await world.answer(sale)).status_code == 200
    await world.decide(dispute_id, "REFUND_UNEARNED")
    await world.settled()
    assert await world.refund_job() == 1
    back = stages.early_end(Split(10_00, 1_00, 9_00), released)
    assert back.refund_cents > 0
    assert await world.one(world.social, "SELECT status FROM placements WHERE bid_id = :b", b=win) == "ENDED"
    detail, money = await world.agree(brand, c)
    assert money == Money(balance=BUDGET - 10_00 + back.refund_cents, charges=BUDGET, drawn=10_00, returned=0,
                          reversed=0, refunded=back.refund_cents)
    kept = 10_00 - back.refund_cents
    assert (cents(detail["committed"]), cents(detail["spent"])) == (kept, kept)  # the win costs what was kept
    assert await world.refunds_at_the_provider(intent) == []

    # ended: nothing is outstanding, it settles, and everything not kept goes back through the provider
    await world.end(brand, c)
    [settled] = await world.events(world.marketplace, "marketplace.campaign.settled.v1")
    assert settled["spentCents"] == kept
    assert await world.refunds_at_the_provider(intent) == [BUDGET - kept]
    detail, money = await world.agree(brand, c)
    assert (money.balance, money.charges, money.returned) == (0, kept, BUDGET - kept)


@pytest.mark.parametrize("payments_overrides", [{"buyer_fee_cents": 2_50}])
async def test_with_a_buyer_fee_the_wins_still_add_up_to_the_budget_and_no_more(world):
    creator, brand = await world.creator_and_brand()
    c = await world.create_campaign(brand)
    intent = await world.fund(brand, c)
    first = await world.list_slot(creator, 0, "food", min_bid=60)
    second = await world.list_slot(creator, 1, "food", min_bid=40)  # exactly what is left
    bids = await world.campaign_bids(c)
    assert {s: b[1:3] for s, b in bids.items()} == {first: ("ACTIVE", 60_00), second: ("ACTIVE", 40_00)}
    for slot in (first, second):
        await world.close(creator, slot)
        await world.approval(creator, bids[slot][0], "APPROVED")
    detail, money = await world.agree(brand, c)
    assert (cents(detail["committed"]), cents(detail["spent"])) == (BUDGET, BUDGET)
    assert money == Money(balance=0, charges=BUDGET, drawn=BUDGET, returned=0, reversed=0)  # the card: the budget
    paid = await world.sql(world.payments, "SELECT status, amount_cents, buyer_fee_cents, provider_session_id "
                                           "FROM payments ORDER BY amount_cents")
    assert paid == [("COMPLETED", 40_00, 0, None), ("COMPLETED", 60_00, 0, None)]  # both drawn, no checkout
    await world.end(brand, c)
    assert [e["amountCents"] for e in await world.events(world.payments, RETURNED)] == [0]
    assert await world.refunds_at_the_provider(intent) == []
    await world.agree(brand, c)


async def test_a_funding_refunded_at_the_provider_ends_the_campaign_and_no_cent_is_lost(world):
    creator, brand, c, intent, first = await world.funded_campaign_and_a_slot()
    assert (await world.campaign_bids(c))[first][1:3] == ("ACTIVE", MOST_PER_COMMENT)

    # someone refunds the funding in the provider's dashboard: its webhook reverses it, marketplace ends it
    await world.payments.state["sandbox"].refund(intent, "someone-at-the-provider")
    assert await world.payments.state["sandbox"].deliver_due() == 1
    await world.settled()
    [reversed_] = await world.events(world.payments, REVERSED)
    assert (reversed_["amountCents"], reversed_["balanceCents"]) == (BUDGET, 0)
    detail, money = await world.agree(brand, c)
    assert (detail["status"], detail["reason"]) == ("ENDED", "funding_reversed")
    assert (cents(detail["funded"]), cents(detail["committed"]), cents(detail["available"])) == (0, 60_00, 0)
    assert money == Money(balance=0, charges=0, drawn=0, returned=0, reversed=BUDGET)
    assert await world.balance(ledger.REFUND_LOSSES) == 0

    assert await world.redeliver(world.payments, REVERSED) == 1  # delivered again: nothing more happens
    assert len(await world.events(world.marketplace, "marketplace.campaign.updated.v1")) == detail["version"]

    # it stops bidding
    later = await world.list_slot(creator, 1, "food")
    assert later not in await world.campaign_bids(c)

    # its live bid runs its course: won and approved, it is paid by checkout (nothing left to draw from)
    await world.close(creator, first)
    win, status, _, price = (await world.campaign_bids(c))[first]
    assert (status, price) == ("PENDING_INFLUENCER_APPROVAL", 10_00)
    await world.approval(creator, win, "APPROVED")
    assert await world.one(world.payments, "SELECT status FROM payments WHERE bid_id = :b", b=win) == "REQUESTED"
    checkout = await world.act("payments", "POST", "/payments/create-checkout-session", brand, "BUYER",
                               json={"bidId": win})
    await world.pay_on_the_checkout_page(checkout.json()["url"])
    await world.settled()
    assert (await world.campaign_bids(c))[first][1] == "WON"
    await world.marketplace.state["campaign_bidding"].run_clock()
    await world.settled()

    # marketplace counts the card-paid win as the campaign's spend; payments drew nothing and returns nothing
    detail = await world.campaign(brand, c)
    assert (detail["status"], cents(detail["committed"]), cents(detail["spent"])) == ("ENDED", 10_00, 10_00)
    assert await world.refunds_at_the_provider(intent) == [BUDGET]
    assert await world.balance(ledger.buyer_charges(brand)) == 10_00  # the win's checkout, and nothing else
    assert await world.balance(ledger.campaign_balance(uuid.UUID(c))) == 0
    assert await world.balance(ledger.REFUND_LOSSES) == 0
    assert [len(await world.events(world.payments, kind)) for kind in (FUNDED, DRAWN, REVERSED)] == [1, 0, 1]
    settled = await world.events(world.marketplace, "marketplace.campaign.settled.v1")
    assert [(e["campaignId"], e["spentCents"]) for e in settled] == [(c, 10_00)]
    assert [e["amountCents"] for e in await world.events(world.payments, RETURNED)] == [0]
    await world.balanced()


async def test_a_campaign_outbid_early_takes_the_second_chance_and_pays_from_the_balance(world):
    creator, brand = await world.creator_and_brand()
    rival = await world.brand("Southside Tea", "southside.tea")
    c = await world.create_campaign(brand)
    await world.fund(brand, c)
    slot = await world.list_slot(creator, 0, "food")
    bid, status, ceiling, _ = (await world.campaign_bids(c))[slot]
    assert (status, ceiling) == ("ACTIVE", MOST_PER_COMMENT)

    # outbid two days before the close: the campaign releases its bid (cancelled, marked), its ceiling back
    taken = await world.http["marketplace"].post("/buyer/bids", headers=world.auth(rival, "BUYER"), json={
        "pinSlotId": slot, "amount": 80, "newCommentText": "Southside's chai, steeped slow"})
    assert taken.status_code == 201, taken.text
    await world.settled()
    assert (await world.campaign_bids(c))[slot][1] == "CANCELLED"
    assert await world.one(world.marketplace, "SELECT released_at IS NOT NULL FROM bids WHERE id = :b", b=bid)
    detail, _ = await world.agree(brand, c)
    assert (detail["status"], cents(detail["committed"])) == ("ACTIVE", 0)

    # the rival wins and the creator rejects it; the creator offers the slot to the runner-up: the campaign's bid
    await world.close(creator, slot)
    rivals = taken.json()["id"]
    await world.approval(creator, rivals, "REJECTED")
    offered = await world.http["marketplace"].post(f"/influencer/bids/{rivals}/second-chance",
                                                   headers=world.auth(creator, "INFLUENCER"))
    assert offered.status_code == 200, offered.text
    assert (offered.json()["id"], offered.json()["amountOffered"]) == (bid, MOST_PER_COMMENT / 100)
    await world.settled()

    # the campaign accepted at once within its budget: approved, drawn from the balance (no checkout), won
    assert (await world.campaign_bids(c))[slot][1:] == ("WON", MOST_PER_COMMENT, MOST_PER_COMMENT)
    assert await world.one(world.marketplace, "SELECT winning_bid_id FROM slots WHERE id = :s", s=slot) \
        == uuid.UUID(bid)
    payment = await world.sql(world.payments, "SELECT status, amount_cents, campaign_id, provider_session_id "
                                              "FROM payments WHERE bid_id = :b", b=bid)
    assert payment == [("COMPLETED", MOST_PER_COMMENT, uuid.UUID(c), None)]
    detail, money = await world.agree(brand, c)
    assert (cents(detail["committed"]), cents(detail["spent"])) == (MOST_PER_COMMENT, MOST_PER_COMMENT)
    assert money == Money(balance=BUDGET - MOST_PER_COMMENT, charges=BUDGET, drawn=MOST_PER_COMMENT, returned=0,
                          reversed=0)

    # the offer, its acceptance and the draw delivered again: nothing more
    for service, kind in ((world.marketplace, "marketplace.bid.offered.v1"),
                          (world.marketplace, "marketplace.bid.approved.v1"), (world.payments, DRAWN)):
        assert await world.redeliver(service, kind) >= 1, kind
    await world.settled()
    assert len(await world.events(world.payments, DRAWN)) == 1
    assert len(await world.events(world.marketplace, "marketplace.bid.offer_accepted.v1")) == 1
    assert await world.agree(brand, c) == (detail, money)
