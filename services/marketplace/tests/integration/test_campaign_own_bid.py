"""A slot a campaign skipped because its brand already bid there (`OWN_BID`) gets the campaign's bid once the brand
cancels its own bid (docs/decisions/campaigns.md "A campaign bids where the brand cancelled its own bid"). Real
PostgreSQL, with the relay delivering marketplace's own events to itself as in the running product."""

import asyncio
import uuid

from pinbid_kit.events import campaigns as ce
from sqlalchemy import text

from .test_campaign_bidding import a_campaign_bidding, bids_of, campaign, campaigns_never_release, new_campaign, settled
from .test_second_chance import outbox_of


async def skipped_for_own_bid(world, **campaign_fields):
    """A fitness slot the brand bid on by hand, then a campaign of the brand's that fits it: skipped (OWN_BID). A
    rival then outbids the brand's own bid (a leading bid cannot be cancelled)."""
    creator, posts = await world.creator(posts=2)
    slot = await world.slot(creator, posts[0], category="fitness")
    brand, rival = await world.buyer(), await world.buyer("Rival")
    own = await world.bid(brand, slot["id"], 15)
    assert own.status_code == 201, own.text
    c = await new_campaign(world, brand, **campaign_fields)
    await settled(world)
    assert await bids_of(world, c["id"]) == []
    detail = await campaign(world, brand, c["id"])
    assert [(s["slotId"], s["reason"]) for s in detail["skipped"]] == [(slot["id"], "OWN_BID")]
    assert (await world.bid(rival, slot["id"], 30)).status_code == 201
    await settled(world)
    return brand, slot, own.json()["id"], c


async def cancel(world, brand, bid_id: str) -> None:
    cancelled = await world.http.post(f"/buyer/bids/{bid_id}/cancel", headers=brand)
    assert cancelled.status_code == 200, cancelled.text
    await settled(world)


async def test_the_brand_cancels_its_own_bid_and_its_campaign_bids_there(world):
    brand, slot, own, c = await skipped_for_own_bid(world)
    await cancel(world, brand, own)
    [(slot_id, _, ceiling, status, _, _)] = await bids_of(world, c["id"])
    assert (str(slot_id), ceiling, status) == (slot["id"], 40, "ACTIVE")
    detail = await campaign(world, brand, c["id"])
    assert (detail["committed"], detail["skipped"]) == (40, [])
    [cue] = await outbox_of(world, ce.OwnBidCancelled.event_type)
    assert (cue["bidId"], cue["slotId"]) == (own, slot["id"])

    # the cue delivered again: still one bid, one record of the slot
    await world.deliver(ce.OwnBidCancelled.model_validate(cue), source="marketplace")
    await settled(world)
    assert len(await bids_of(world, c["id"])) == 1
    async with world.service.db.autocommit() as conn:
        assert await conn.scalar(text("SELECT count(*) FROM campaign_slots WHERE campaign_id = :c"),
                                 {"c": c["id"]}) == 1


async def test_a_paused_campaign_keeps_its_skip_and_does_not_bid(world):
    brand, slot, own, c = await skipped_for_own_bid(world)
    assert (await world.http.post(f"/buyer/campaigns/{c['id']}/pause", headers=brand)).status_code == 200
    await cancel(world, brand, own)
    assert await bids_of(world, c["id"]) == []
    assert [s["reason"] for s in (await campaign(world, brand, c["id"]))["skipped"]] == ["OWN_BID"]


async def test_a_campaign_no_longer_fitting_the_slot_does_not_bid(world):
    brand, slot, own, c = await skipped_for_own_bid(world)
    edited = await world.http.patch(f"/buyer/campaigns/{c['id']}", json={"filters": {"category": "food"}},
                                    headers=brand)
    assert edited.status_code == 200, edited.text
    await cancel(world, brand, own)
    assert await bids_of(world, c["id"]) == []


async def test_a_campaigns_bid_cancelled_by_the_brand_sets_off_no_cue(world, monkeypatch):
    campaigns_never_release(world, monkeypatch)
    _, slot, brand, c = await a_campaign_bidding(world)
    rival = await world.buyer("Rival")
    await settled(world)
    async with world.service.db.autocommit() as conn:
        bid_id = str(await conn.scalar(text("SELECT id FROM bids WHERE campaign_id = :c"), {"c": c["id"]}))
    assert (await world.bid(rival, slot["id"], 50)).status_code == 201
    await settled(world)
    await cancel(world, brand, bid_id)
    assert await outbox_of(world, ce.OwnBidCancelled.event_type) == []
    assert [r.status for r in await bids_of(world, c["id"])] == ["CANCELLED"]  # the campaign never bids there again


async def test_fifty_copies_of_the_cue_at_once_bid_once(world, monkeypatch):
    bidding = world.service.state["campaign_bidding"]
    brand, slot, own, c = await skipped_for_own_bid(world)
    after = bidding.after_own_bid_cancelled

    async def later(session, buyer_id, slot_id) -> int:  # the bus's delivery is late: the copies below race
        return 0
    monkeypatch.setattr(bidding, "after_own_bid_cancelled", later)
    await cancel(world, brand, own)
    assert await bids_of(world, c["id"]) == []
    monkeypatch.setattr(bidding, "after_own_bid_cancelled", after)

    async def copy() -> int:
        async with world.service.db.transaction() as session:
            return await bidding.after_own_bid_cancelled(session, uuid.UUID(brand["x-user"]), uuid.UUID(slot["id"]))

    assert sum(await asyncio.gather(*[copy() for _ in range(50)])) == 1
    await settled(world)
    assert len(await bids_of(world, c["id"])) == 1
    assert (await campaign(world, brand, c["id"]))["committed"] == 40
