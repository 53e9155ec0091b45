"""Pinbid bids for a campaign (issue 36): matching open and new slots, the budget reserved under the campaign's lock,
never twice on a slot, never against the brand's own bid, stopping when paused, ended, out of budget or past its
dates; outbid bids released; the concurrency the issue asks for. On a real PostgreSQL, with the relay delivering
marketplace's own events to itself as in the running product."""

import asyncio
import uuid
from datetime import timedelta
from decimal import Decimal

from pinbid_kit.events import campaigns as ce
from pinbid_kit.events import identity as i
from pinbid_kit.events import marketplace as m
from pinbid_testing import outbox_events
from pinbid_testing.waiting import eventually
from sqlalchemy import text

COMMITTED = text("""
    SELECT coalesce(sum(ceiling) FILTER (WHERE status IN ('ACTIVE', 'OUTBID')), 0)
         + coalesce(sum(final_price) FILTER (WHERE status IN ('PENDING_INFLUENCER_APPROVAL', 'APPROVED',
                                             'AWAITING_PAYMENT', 'WON', 'PINNED')), 0)
    FROM bids WHERE campaign_id = :id""")


def campaigns_never_release(world, monkeypatch) -> None:
    """The campaign's own cue (release an outbid bid) never comes: what the brand does by hand comes first."""
    async def not_released(session, bid_id) -> bool:
        return False
    monkeypatch.setattr(world.service.state["campaign_bidding"], "release_outbid", not_released)


async def new_campaign(world, buyer, *, fund: bool = True, **fields) -> dict:
    body = {"name": "Fitness push", "filters": {"category": "fitness"}, "budget": 200, "maxPerSlot": 40,
            "commentText": "Try our protein bars", "endsAt": (world.clock.now + timedelta(days=20)).isoformat(),
            **fields}
    response = await world.http.post("/buyer/campaigns", json=body, headers=buyer)
    assert response.status_code == 201, response.text
    campaign = response.json()
    if fund:
        await fund_campaign(world, buyer, campaign["id"], Decimal(str(body["budget"])))
    return campaign


async def fund_campaign(world, buyer, campaign_id: str, amount: Decimal) -> None:
    cents = int(amount * 100)
    await world.deliver(ce.CampaignFunded(campaign_id=uuid.UUID(campaign_id), buyer_id=uuid.UUID(buyer["x-user"]),
                                          amount_cents=cents, balance_cents=cents, payment_id=uuid.uuid4(),
                                          funded_cents=cents), source="payments")


async def campaign(world, buyer, campaign_id: str) -> dict:
    response = await world.http.get(f"/buyer/campaigns/{campaign_id}", headers=buyer)
    assert response.status_code == 200, response.text
    return response.json()


async def committed_on_rows(world, campaign_id: str) -> Decimal:
    async with world.service.db.autocommit() as conn:
        return await conn.scalar(COMMITTED, {"id": campaign_id})


async def bids_of(world, campaign_id: str) -> list:
    async with world.service.db.autocommit() as conn:
        return (await conn.execute(text("SELECT slot_id, amount, ceiling, status, comment_text, auto_bid_enabled "
                                         "FROM bids WHERE campaign_id = :id"), {"id": campaign_id})).all()


async def settled(world) -> None:
    """Wait until marketplace has handled everything it wrote to itself: no event unsent, and every event of a type it
    consumes carries the inbox row of each of its handlers (written in the handler's transaction, with the events
    the handler caused: those are then in the outbox too, and waited for in turn)."""
    handlers: dict[str, list[str]] = {}
    for r in world.service.consumers.registrations:
        handlers.setdefault(r.pattern, []).append(r.name)

    async def quiet() -> bool:
        async with world.service.db.autocommit() as conn:
            if await conn.scalar(text("SELECT count(*) FROM outbox WHERE sent_at IS NULL")):
                return False
            missing = await conn.scalar(text("""
                SELECT count(*) FROM outbox o
                CROSS JOIN LATERAL unnest(CAST(:names AS text[]), CAST(:types AS text[])) AS h(name, type)
                WHERE h.type = o.type
                  AND NOT EXISTS (SELECT 1 FROM inbox i WHERE i.event_id = o.id AND i.handler = h.name)"""),
                {"names": [n for names in handlers.values() for n in names],
                 "types": [t for t, names in handlers.items() for _ in names]})
            return not missing
    await eventually(quiet)


async def suspend(world, person) -> None:
    """Identity's announcement that an operator suspended this person."""
    await world.deliver(i.UserSuspended(user_id=uuid.UUID(person["x-user"]), suspended_at=world.clock.now,
                                        operator_id=uuid.uuid4(), reason="fraud"), source="identity")


async def fitness_slots(world, creator, posts, n: int, **fields) -> list[dict]:
    return [await world.slot(creator, posts[k], category="fitness", **fields) for k in range(n)]


async def a_campaign_bidding(world) -> tuple[dict, dict, dict, dict]:
    """(creator, slot, buyer, campaign): a creator's open fitness slot and a brand's funded campaign, once the
    campaign's bid on it is placed."""
    creator, posts = await world.creator(posts=1)
    slot = await world.slot(creator, posts[0], category="fitness")
    buyer = await world.buyer()
    c = await new_campaign(world, buyer)
    await eventually(lambda: _count(world, c["id"], 1))
    return creator, slot, buyer, c


async def test_a_funded_campaign_bids_on_every_open_slot_that_fits_and_on_new_ones(world):
    creator, posts = await world.creator(posts=5)
    fitting = await fitness_slots(world, creator, posts, 2)
    other = await world.slot(creator, posts[2], category="food")
    buyer = await world.buyer("Acme")
    c = await new_campaign(world, buyer)
    await eventually(lambda: _count(world, c["id"], 2))
    rows = await bids_of(world, c["id"])
    assert {str(r.slot_id) for r in rows} == {s["id"] for s in fitting}
    assert all(r.amount == Decimal("10.00") and r.ceiling == Decimal("40.00") and r.auto_bid_enabled
               and r.comment_text == "Try our protein bars" and r.status == "ACTIVE" for r in rows)
    new = await world.slot(creator, posts[3], category="fitness")
    await eventually(lambda: _count(world, c["id"], 3))
    await settled(world)
    detail = await campaign(world, buyer, c["id"])
    assert detail["status"] == "ACTIVE" and detail["committed"] == 120 and detail["available"] == 80
    assert detail["counts"]["bidding"] == 3 and detail["counts"]["leading"] == 3
    assert {b["slotId"] for b in detail["bids"]} == {s["id"] for s in fitting} | {new["id"]}
    assert other["id"] not in {b["slotId"] for b in detail["bids"]}
    mine = (await world.http.get("/buyer/bids", headers=buyer)).json()
    assert {(b["campaignId"], b["campaignName"]) for b in mine} == {(c["id"], "Fitness push")}


async def _count(world, campaign_id: str, n: int) -> bool:
    return len(await bids_of(world, campaign_id)) == n


async def bid_once_and_settled(world, buyer, c: dict) -> dict:
    """The campaign's detail once it has placed its one bid and every event it caused is handled."""
    await eventually(lambda: _count(world, c["id"], 1))
    await settled(world)
    return await campaign(world, buyer, c["id"])


def bid_on_and_skipped(detail: dict) -> tuple[list[str], list[tuple[str, str]]]:
    """The slots a campaign bid on, and those it skipped with the reason."""
    return [b["slotId"] for b in detail["bids"]], [(s["slotId"], s["reason"]) for s in detail["skipped"]]


async def test_a_most_per_comment_below_the_minimum_places_no_bid_and_says_so(world):
    creator, posts = await world.creator(posts=2)
    cheap = await world.slot(creator, posts[0], category="fitness", minBid=10)
    dear = await world.slot(creator, posts[1], category="fitness", minBid=60)
    buyer = await world.buyer()
    c = await new_campaign(world, buyer)
    detail = await bid_once_and_settled(world, buyer, c)
    assert bid_on_and_skipped(detail) == ([cheap["id"]], [(dear["id"], "BELOW_MINIMUM")])
    assert c["fittingNow"] == 2 and detail["fittingNow"] == 2


async def test_filters_that_keep_no_open_slot_say_so_and_wait(world):
    creator, posts = await world.creator(posts=1)
    buyer = await world.buyer()
    c = await new_campaign(world, buyer, filters={"category": "gaming"})
    assert c["fittingNow"] == 0 and c["status"] == "DRAFT"
    await settled(world)
    await world.slot(creator, posts[0], category="gaming")
    await eventually(lambda: _count(world, c["id"], 1))


async def test_never_against_the_brands_own_bid_and_a_campaigns_bid_is_not_changed_by_hand(world):
    creator, posts = await world.creator(posts=2)
    own, theirs = await fitness_slots(world, creator, posts, 2)
    buyer = await world.buyer()
    assert (await world.bid(buyer, own["id"], 12)).status_code == 201
    c = await new_campaign(world, buyer)
    detail = await bid_once_and_settled(world, buyer, c)
    assert bid_on_and_skipped(detail) == ([theirs["id"]], [(own["id"], "OWN_BID")])
    campaign_bid = detail["bids"][0]["id"]
    raised = await world.http.put(f"/buyer/bids/{campaign_bid}", json={"amount": 500}, headers=buyer)
    assert raised.status_code == 409 and raised.json()["code"] == "campaign_bid"
    again = await world.bid(buyer, theirs["id"], 600)
    assert again.status_code == 409 and again.json()["code"] == "campaign_bid"
    assert await committed_on_rows(world, c["id"]) == Decimal("40.00")


async def test_an_outbid_campaign_bid_is_cancelled_and_its_ceiling_released(world):
    creator, slot, buyer, c = await a_campaign_bidding(world)
    rival = await world.buyer("Rival")
    assert (await world.bid(rival, slot["id"], 50)).status_code == 201
    async def cancelled() -> bool:
        return [r.status for r in await bids_of(world, c["id"])] == ["CANCELLED"]
    await eventually(cancelled)
    await settled(world)
    detail = await campaign(world, buyer, c["id"])
    assert detail["committed"] == 0 and detail["available"] == 200
    assert len(await bids_of(world, c["id"])) == 1  # never twice on one slot
    # the cue is the campaign's own event, beside bid.outbid; a person outbid by a person sets off none
    assert (await world.bid(await world.buyer("Third"), slot["id"], 60)).status_code == 201
    await settled(world)
    cues = await outbox_events(world.service.db, ce.CampaignBidOutbid.event_type)
    assert [e["campaignId"] for e in cues] == [c["id"]]
    assert len(await outbox_events(world.service.db, m.BidOutbid.event_type)) == 2


async def test_the_budget_caps_the_ceilings_then_the_campaign_is_out_of_budget(world):
    creator, posts = await world.creator(posts=6)
    await fitness_slots(world, creator, posts, 5)
    buyer = await world.buyer()
    c = await new_campaign(world, buyer, budget=100, maxPerSlot=40)
    await eventually(lambda: _count(world, c["id"], 3))
    await settled(world)
    ceilings = sorted(r.ceiling for r in await bids_of(world, c["id"]))
    assert ceilings == [Decimal("20.00"), Decimal("40.00"), Decimal("40.00")]
    detail = await campaign(world, buyer, c["id"])
    assert detail["status"] == "OUT_OF_BUDGET" and detail["reason"] == "budget" and detail["committed"] == 100
    await world.slot(creator, posts[5], category="fitness")
    await settled(world)
    assert len(await bids_of(world, c["id"])) == 3
    lower = await world.http.patch(f"/buyer/campaigns/{c['id']}", json={"budget": 90}, headers=buyer)
    assert lower.status_code == 409 and lower.json()["code"] == "budget_below_committed"


async def test_only_the_funded_part_of_the_budget_is_committed(world):
    creator, posts = await world.creator(posts=3)
    await fitness_slots(world, creator, posts, 3)
    buyer = await world.buyer()
    c = await new_campaign(world, buyer, fund=False, budget=200)
    await settled(world)
    assert await bids_of(world, c["id"]) == []  # a draft does not bid
    await fund_campaign(world, buyer, c["id"], Decimal("50"))
    await eventually(lambda: _count(world, c["id"], 2))
    await settled(world)
    assert await committed_on_rows(world, c["id"]) == Decimal("50.00")


async def test_a_paused_ended_or_past_campaign_does_not_bid(world):
    creator, posts = await world.creator(posts=4)
    buyer = await world.buyer()
    c = await new_campaign(world, buyer)
    await settled(world)
    url = f"/buyer/campaigns/{c['id']}"
    assert (await world.http.post(url + "/pause", headers=buyer)).json()["status"] == "PAUSED"
    await world.slot(creator, posts[0], category="fitness")
    await settled(world)
    assert await bids_of(world, c["id"]) == []
    resumed = (await world.http.post(url + "/resume", headers=buyer)).json()
    assert resumed["status"] == "ACTIVE"
    await eventually(lambda: _count(world, c["id"], 1))  # resuming bids on what it missed
    world.clock.advance(days=21)
    await world.service.state["campaign_bidding"].run_clock()
    ended = await campaign(world, buyer, c["id"])
    assert ended["status"] == "ENDED" and ended["reason"] == "ends_at"
    world.clock.advance(days=-21)  # slots can still be listed; the ended campaign stays out
    await world.slot(creator, posts[1], category="fitness")
    await settled(world)
    assert len(await bids_of(world, c["id"])) == 1


async def test_funding_reversed_ends_the_campaign(world):
    creator, posts = await world.creator(posts=2)
    buyer = await world.buyer()
    c = await new_campaign(world, buyer)
    await settled(world)
    reversed_ = ce.CampaignFundingReversed(campaign_id=uuid.UUID(c["id"]), buyer_id=uuid.UUID(buyer["x-user"]),
                                           amount_cents=20000, balance_cents=0, payment_id=uuid.uuid4(),
                                           funded_cents=0)
    await world.deliver(reversed_, source="payments")
    detail = await campaign(world, buyer, c["id"])
    assert detail["status"] == "ENDED" and detail["reason"] == "funding_reversed" and detail["funded"] == 0
    await world.slot(creator, posts[0], category="fitness")
    await settled(world)
    assert await bids_of(world, c["id"]) == []
    assert [e["campaignId"] for e in await outbox_events(world.service.db, ce.CampaignSettled.event_type)] \
        == [c["id"]]


async def test_a_creator_suspended_while_the_campaign_leads_releases_the_commitment(world):
    creator, _, buyer, c = await a_campaign_bidding(world)
    await suspend(world, creator)
    await settled(world)
    assert await committed_on_rows(world, c["id"]) == 0
    assert (await campaign(world, buyer, c["id"]))["committed"] == 0


async def test_fifty_slots_at_once_and_ten_closing_at_once_never_commit_above_the_budget(world):
    creators = [await world.creator(posts=10, name=f"Maker{k}") for k in range(5)]
    buyer = await world.buyer()
    c = await new_campaign(world, buyer, budget=500, maxPerSlot=30)
    await settled(world)
    seen: list[Decimal] = []
    watching = True

    async def watch() -> None:
        while watching:
            seen.append(await committed_on_rows(world, c["id"]))
            await asyncio.sleep(0)

    watcher = asyncio.create_task(watch())
    slots = await asyncio.gather(*[world.slot(h, p, category="fitness") for h, posts in creators for p in posts])
    await settled(world)
    rows = await bids_of(world, c["id"])
    assert len(rows) == 17  # 16 x 30 + one of 20: 500
    assert len({r.slot_id for r in rows}) == len(rows)  # never twice on a slot
    by_creator = {s["id"]: h for (h, _), chunk in zip(creators, [slots[k:k + 10] for k in range(0, 50, 10)],
                                                      strict=True) for s in chunk}
    bid_slots = [str(r.slot_id) for r in rows][:10]
    closes = await asyncio.gather(*[world.http.post(f"/influencer/pin-slots/{s}/end-auction",
                                                    headers=by_creator[s]) for s in bid_slots])
    assert all(r.status_code == 200 for r in closes)
    await settled(world)
    watching = False
    await watcher
    assert max(seen) <= Decimal("500.00") and await committed_on_rows(world, c["id"]) <= Decimal("500.00")
    detail = await campaign(world, buyer, c["id"])
    assert detail["counts"]["won"] == 10 and detail["committed"] <= 500


async def test_matching_a_new_slot_agrees_with_the_listings_own_filter(world):
    """domain.campaigns.matches (a slot just listed) and queries.filtered (a campaign that becomes ACTIVE) are the
    same filter: each campaign's slots are exactly what GET /marketplace/slots shows with its filters."""
    big, posts = await world.creator(posts=4, views=9_000, verified=True, name="Big")
    small, small_posts = await world.creator(posts=2, views=800, verified=False, name="Small")
    await world.slot(big, posts[0], category="fitness", title="Home gym routine", minBid=15)
    await world.slot(big, posts[1], category="fitness", title="Trail run", minBid=30,
                     auctionEnd=(world.clock.now + timedelta(hours=12)).isoformat())
    await world.slot(big, posts[2], category="tech", title="Desk setup", minBid=12)
    await world.slot(small, small_posts[0], category="fitness", title="Gym basics", minBid=10)
    cases = [{"category": "fitness"}, {"minPrice": 14, "maxPrice": 30}, {"minViews": 1000},
             {"verified": True, "category": "fitness"}, {"timeLeft": "24h"}, {"search": "gym"}, {"search": "ru"}]
    for k, filters in enumerate(cases):
        buyer = await world.buyer()
        # each reaches above the ones before (which stay in the running): none is priced out
        as_new = await new_campaign(world, buyer, fund=False, filters=filters, budget=5000, maxPerSlot=50 * (k + 1))
        params = {("q" if k == "search" else k): str(v).lower() if isinstance(v, bool) else v
                  for k, v in filters.items()}
        # the listing as the campaign meets it: its own bids move no other slot's price
        listed = (await world.http.get("/marketplace/slots", params={**params, "limit": 50}, headers=buyer)).json()
        await fund_campaign(world, buyer, as_new["id"], Decimal(5000))
        await settled(world)
        assert {str(r.slot_id) for r in await bids_of(world, as_new["id"])} == {s["id"] for s in listed["slots"]}, \
            filters
        await world.http.post(f"/buyer/campaigns/{as_new['id']}/end", headers=buyer)
    # and one slot listed after, against every case at once
    watchers = []
    for filters in cases:
        buyer = await world.buyer()
        watchers.append((filters, await new_campaign(world, buyer, filters=filters, budget=1000, maxPerSlot=50)))
    await settled(world)
    late = await world.slot(big, posts[3], category="fitness", title="Gym at home", minBid=20)
    await settled(world)
    async with world.service.db.autocommit() as conn:
        considered = set((await conn.scalars(text("SELECT campaign_id::text FROM campaign_slots WHERE slot_id = :s"),
                                             {"s": late["id"]})).all())
    for filters, c in watchers:
        # considered (bid on, or priced out by the campaigns before it in the running): it fitted
        expected = all([filters.get("category", "fitness") == "fitness", filters.get("minPrice", 0) <= 20,
                        filters.get("maxPrice", 10**6) >= 20, filters.get("minViews", 0) <= 9000,
                        filters.get("timeLeft") is None, filters.get("search", "gym") == "gym"])
        assert (c["id"] in considered) is expected, filters


async def test_a_campaign_that_starts_later_waits_for_its_start(world):
    creator, posts = await world.creator(posts=1)
    await world.slot(creator, posts[0], category="fitness")
    buyer = await world.buyer()
    c = await new_campaign(world, buyer, startsAt=(world.clock.now + timedelta(hours=2)).isoformat())
    await settled(world)
    assert (await campaign(world, buyer, c["id"]))["status"] == "DRAFT" and await bids_of(world, c["id"]) == []
    world.clock.advance(hours=2)
    assert await world.service.state["campaign_bidding"].run_clock() == 1
    await eventually(lambda: _count(world, c["id"], 1))
    assert (await campaign(world, buyer, c["id"]))["status"] == "ACTIVE"


async def test_an_ended_campaign_settles_once_its_last_win_is_lost(world):
    creator, slot, buyer, c = await a_campaign_bidding(world)
    ended = (await world.http.post(f"/buyer/campaigns/{c['id']}/end", headers=buyer)).json()
    assert ended["status"] == "ENDED" and ended["committed"] == 40  # its leading bid runs its course
    closed = await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    assert closed.status_code == 200
    bid_id = (await campaign(world, buyer, c["id"]))["bids"][0]["id"]
    rejected = await world.http.post(f"/influencer/approvals/{bid_id}", json={"status": "REJECTED"},
                                     headers=creator)
    assert rejected.status_code == 200, rejected.text
    await settled(world)
    assert await outbox_events(world.service.db, ce.CampaignSettled.event_type) == []
    runner = world.service.state["campaign_bidding"]
    assert await runner.run_clock() == 1 and await runner.run_clock() == 0
    settled_events = await outbox_events(world.service.db, ce.CampaignSettled.event_type)
    assert [(e["campaignId"], e["spentCents"]) for e in settled_events] == [(c["id"], 0)]


async def test_never_on_a_slot_of_a_creator_the_brand_is_tied_to(world):
    from pinbid_kit.events.trust import signal_hash
    creator, posts = await world.creator(posts=1)
    slot = await world.slot(creator, posts[0], category="fitness")
    buyer = await world.buyer()
    for user in (creator, buyer):
        await world.deliver(i.IdentityAccountSignal(user_id=uuid.UUID(user["x-user"]), kind="EMAIL",
                                                    value_hash=signal_hash("EMAIL", "maya@creator.test"),
                                                    observed_at=world.clock.now))
    c = await new_campaign(world, buyer)
    await settled(world)
    detail = await campaign(world, buyer, c["id"])
    assert bid_on_and_skipped(detail) == ([], [(slot["id"], "ASSOCIATED")])


async def test_a_campaigns_win_approved_tells_payments_its_campaign(world):
    from pinbid_kit.events import marketplace as m
    creator, slot, buyer, c = await a_campaign_bidding(world)
    await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    bid_id = (await campaign(world, buyer, c["id"]))["bids"][0]["id"]
    approved = await world.http.post(f"/influencer/approvals/{bid_id}", json={"status": "APPROVED"},
                                     headers=creator)
    assert approved.status_code == 200, approved.text
    events = await outbox_events(world.service.db, m.BidApproved.event_type)
    assert [(e["bidId"], e["campaignId"], e["finalPriceCents"]) for e in events] == [(bid_id, c["id"], 1000)]
    await settled(world)
    detail = await campaign(world, buyer, c["id"])
    assert detail["counts"]["won"] == 1 and detail["committed"] == 10  # the win's price, no longer its maximum


async def test_a_suspended_brands_campaigns_end_and_release_everything(world):
    creator, posts = await world.creator(posts=2)
    await world.slot(creator, posts[0], category="fitness")
    buyer = await world.buyer()
    c = await new_campaign(world, buyer)
    await eventually(lambda: _count(world, c["id"], 1))
    await suspend(world, buyer)
    await settled(world)
    detail = await campaign(world, buyer, c["id"])
    assert (detail["status"], detail["reason"], detail["committed"]) == ("ENDED", "suspended", 0)
    await world.slot(creator, posts[1], category="fitness")
    await settled(world)
    assert [r.status for r in await bids_of(world, c["id"])] == ["CANCELLED"]
    assert [e["campaignId"] for e in await outbox_events(world.service.db, ce.CampaignSettled.event_type)] \
        == [c["id"]]


async def test_past_its_end_it_does_not_bid_even_before_the_clock_ends_it(world):
    creator, posts = await world.creator(posts=1)
    buyer = await world.buyer()
    c = await new_campaign(world, buyer, endsAt=(world.clock.now + timedelta(days=1)).isoformat())
    await settled(world)
    world.clock.advance(days=1)
    await world.slot(creator, posts[0], category="fitness")
    await settled(world)
    assert await bids_of(world, c["id"]) == []
    assert (await campaign(world, buyer, c["id"]))["status"] == "ACTIVE"  # until the clock's next round
    await world.service.state["campaign_bidding"].run_clock()
    assert (await campaign(world, buyer, c["id"]))["status"] == "ENDED"


async def test_a_paid_win_partly_refunded_leaves_nothing_outstanding(world):
    from pinbid_kit.events import payments as p
    creator, slot, buyer, c = await a_campaign_bidding(world)
    await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    bid_id = (await campaign(world, buyer, c["id"]))["bids"][0]["id"]
    await world.http.post(f"/influencer/approvals/{bid_id}", json={"status": "APPROVED"}, headers=creator)
    ids = {"payment_id": uuid.uuid4(), "bid_id": uuid.UUID(bid_id), "buyer_id": uuid.UUID(buyer["x-user"]),
           "creator_id": uuid.UUID(creator["x-user"])}
    await world.deliver(p.PaymentCompleted(**ids, amount_cents=1000, pin_deadline_at=world.clock.now
                                           + timedelta(days=3)), source="payments")
    await world.deliver(p.PaymentPartiallyRefunded(**ids, amount_cents=1000, refund_cents=400, reason="ended early"),
                        source="payments")
    detail = (await world.http.post(f"/buyer/campaigns/{c['id']}/end", headers=buyer)).json()
    assert (detail["spent"], detail["committed"]) == (6, 6)
    settled_events = await outbox_events(world.service.db, ce.CampaignSettled.event_type)
    assert [(e["campaignId"], e["spentCents"]) for e in settled_events] == [(c["id"], 600)]
