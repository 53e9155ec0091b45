"""The embedded run end to end: a bid placed through /api (identity and marketplace on real databases, events on
the in-process bus, the gateway's hub subscribed as the launcher does) reaches the streams that should hear of
it: the brand watching the slot, the slot's creator, and the bidders whose bids changed."""

import uuid
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from pinbid_testing import announce_a_post, free_port, running, serving

from .conftest import bearer, session
from .test_live_stream import open_stream


@pytest.fixture
async def product(gateway_before_identity_and_marketplace):
    gateway, identity, marketplace = gateway_before_identity_and_marketplace
    port = free_port()
    async with running(identity, marketplace) as bus:
        gateway.attach(bus)
        async with serving(gateway.app, port):
            yield f"http://127.0.0.1:{port}", bus


async def listed_slot(http: httpx.AsyncClient, bus, creator: str) -> str:
    """A slot on the creator's post, the post announced as social does."""
    creator_id = uuid.UUID((await http.get("/api/auth/me", headers=bearer(creator))).json()["id"])
    await announce_a_post(bus, creator_id)
    slot = await http.post("/api/influencer/pin-slots", headers=bearer(creator), json={
        "postId": "media-1", "title": "Sunrise swim", "description": "A reel", "category": "fitness",
        "minBid": 10, "auctionEnd": (datetime.now(UTC) + timedelta(days=2)).isoformat()})
    assert slot.status_code == 201, slot.text
    return slot.json()["id"]


async def test_a_bid_through_the_api_reaches_the_watchers_the_creator_and_the_outbid_brand(product):
    url, bus = product
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        creator, _ = await session(http, "INFLUENCER")
        first, second, watcher = [(await session(http, "BUYER"))[0] for _ in range(3)]
        slot = await listed_slot(http, bus, creator)
        watching = await open_stream(http, watcher, slot)
        owning = await open_stream(http, creator)
        first_stream = await open_stream(http, first)

        placed = await http.post("/api/buyer/bids", headers=bearer(first),
                                 json={"pinSlotId": slot, "amount": 25, "newCommentText": "Ad · first"})
        assert placed.status_code == 201, placed.text
        for stream in (watching, owning):
            [update] = await stream.wait_for("slot")
            # one price: alone, the leader would pay the minimum (10); its own 25 is its own
            assert (update["id"], update["currentBid"], update["bidCount"], update["status"]) == (slot, 10, 1, "ACTIVE")
            listed = (await http.get(f"/api/marketplace/slots/{slot}", headers=bearer(watcher))).json()
            assert update["auctionEnd"] == listed["auctionEnd"] and update["currentBid"] == listed["currentBid"]
        [mine] = await first_stream.wait_for("bid")
        assert (mine["id"], mine["slotId"], mine["status"], mine["amount"], mine["currentBid"]) == (
            placed.json()["id"], slot, "ACTIVE", 25, 10)

        raised = await http.post("/api/buyer/bids", headers=bearer(second),
                                 json={"pinSlotId": slot, "amount": 40, "newCommentText": "Ad · second"})
        assert raised.status_code == 201, raised.text
        [_, outbid] = await first_stream.wait_for("bid", 2)
        # the new leader would pay the first brand's 25
        assert (outbid["status"], outbid["currentBid"], outbid["slotTitle"]) == ("OUTBID", 25, "Sunrise swim")
        [_, update] = await watching.wait_for("slot", 2)
        assert (update["currentBid"], update["bidCount"]) == (25, 2)
