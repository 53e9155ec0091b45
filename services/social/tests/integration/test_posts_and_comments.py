"""GET /instagram/posts with pinSlots from the read model, and a buyer's own comments on a slot's post."""

import uuid
from datetime import UTC, datetime, timedelta

from pinbid_kit.events.marketplace import SlotCreated, SlotUpdated
from pinbid_kit.events.social import AccountUpdated, MediaSynced

PUBLIC = "http://pinbid.test"


async def _slot(social, creator: uuid.UUID, post_id: str, **extra) -> uuid.UUID:
    slot_id = uuid.uuid4()
    await social.deliver(SlotCreated(slot_id=slot_id, creator_id=creator, post_id=post_id, title="Pin me",
                                     category="food", min_bid_cents=2500, duration_days=7,
                                     auction_end=datetime.now(UTC) + timedelta(days=1), **extra))
    return slot_id


async def test_posts_carry_their_slots_and_the_provider_shape(social):
    creator = await social.user(handle="maya.makes")
    await social.connect(creator)
    posts = (await social.http.get("/instagram/posts", headers=social.auth(creator))).json()
    assert len(posts) == 6
    first = posts[0]
    assert set(first) == {"id", "media_type", "media_url", "caption", "views", "like_count", "comments_count",
                          "permalink", "timestamp", "pinSlots"}
    slot_id = await _slot(social, creator, first["id"])
    await social.deliver(SlotUpdated(slot_id=slot_id, creator_id=creator, post_id=first["id"], status="ACTIVE",
                                     current_bid_cents=3150, bid_count=2,
                                     auction_end=datetime.now(UTC) + timedelta(days=1)))
    posts = (await social.http.get("/instagram/posts", headers=social.auth(creator))).json()
    slot = posts[0]["pinSlots"][0]
    assert slot["id"] == str(slot_id) and slot["currentBid"] == 31.5 and slot["minBid"] == 25 and slot["bidCount"] == 2
    assert slot["bidderCount"] == 2  # marketplace has not said yet: the bid count stands in
    assert all(p["pinSlots"] == [] for p in posts[1:])
    await social.deliver(SlotUpdated(slot_id=slot_id, creator_id=creator, post_id=first["id"], status="ACTIVE",
                                     current_bid_cents=2500, bid_count=3, bidder_count=1,
                                     auction_end=datetime.now(UTC) + timedelta(days=1)))
    slot = (await social.http.get("/instagram/posts", headers=social.auth(creator))).json()[0]["pinSlots"][0]
    assert (slot["bidCount"], slot["bidderCount"]) == (3, 1)  # a withdrawn bidder is no longer counted

    image = await social.http.get(first["media_url"].removeprefix(PUBLIC + "/api"))
    assert image.status_code == 200 and image.headers["content-type"] == "image/png"
    assert image.content.startswith(b"\x89PNG")
    assert (await social.http.get(first["media_url"].removeprefix(PUBLIC + "/api"))).content == image.content


async def test_an_older_slot_update_does_not_overwrite_a_newer_one(social):
    creator = await social.user(handle="order.matters")
    await social.connect(creator)
    post = (await social.http.get("/instagram/posts", headers=social.auth(creator))).json()[0]["id"]
    slot_id = uuid.uuid4()
    end = datetime.now(UTC) + timedelta(days=1)
    newer = SlotUpdated(slot_id=slot_id, creator_id=creator, post_id=post, status="CLOSED", current_bid_cents=5000,
                        bid_count=3, auction_end=end)
    older = SlotUpdated(slot_id=slot_id, creator_id=creator, post_id=post, status="ACTIVE", current_bid_cents=4000,
                        bid_count=2, auction_end=end)
    await social.deliver(newer, at=datetime.now(UTC))
    await social.deliver(older, at=datetime.now(UTC) - timedelta(minutes=1))
    await social.deliver(SlotCreated(slot_id=slot_id, creator_id=creator, post_id=post, title="Late", category="tech",
                                     min_bid_cents=1000, auction_end=end, duration_days=10))
    rows = await social.sql("SELECT status, current_bid_cents, title FROM slots WHERE slot_id = :s", s=slot_id)
    assert rows == [("CLOSED", 5000, "Late")]


async def test_posts_sync_when_stale_and_metrics_move_over_time(social):
    creator = await social.user(handle="grower")
    await social.connect(creator)
    before = (await social.http.get("/instagram/posts", headers=social.auth(creator))).json()
    assert len(await social.events(MediaSynced.event_type)) == 1  # fresh: served from the read model
    social.clock.advance(hours=30)
    after = (await social.http.get("/instagram/posts", headers=social.auth(creator))).json()
    assert len(await social.events(MediaSynced.event_type)) == 2
    assert after[0]["views"] > before[0]["views"] and after[0]["like_count"] >= before[0]["like_count"]
    assert len(await social.events(AccountUpdated.event_type)) == 1


async def test_the_buyer_sees_only_their_own_comments_and_must_be_connected(social):
    creator = await social.user(handle="maya.makes")
    buyer = await social.user("BUYER", name="Leo Brand", business="Northwind Coffee")
    await social.connect(creator)
    post = (await social.http.get("/instagram/posts", headers=social.auth(creator))).json()[0]["id"]
    slot_id = await _slot(social, creator, post)
    not_connected = await social.http.get(f"/instagram/comments/{slot_id}", headers=social.auth(buyer, "BUYER"))
    assert not_connected.status_code == 401
    await social.connect(buyer, "BUYER", username="northwind.coffee")
    mine = (await social.http.get(f"/instagram/comments/{slot_id}", headers=social.auth(buyer, "BUYER"))).json()
    assert len(mine) == 1 and mine[0]["username"] == "northwind.coffee" and mine[0]["comment"]
    unknown = await social.http.get(f"/instagram/comments/{uuid.uuid4()}", headers=social.auth(buyer, "BUYER"))
    assert unknown.status_code == 404
