"""GET /instagram/posts with pinSlots from the read model, and a buyer's own comments on a slot's post."""

import asyncio
import random
import uuid
from datetime import UTC, datetime, timedelta

from pinbid_kit.envelope import Envelope
from pinbid_kit.events.marketplace import SlotCreated, SlotUpdated
from pinbid_kit.events.social import AccountUpdated, MediaSynced
from prometheus_client import REGISTRY

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
    await social.deliver(SlotUpdated(slot_id=slot_id, creator_id=creator, post_id=first["id"], status="ACTIVE",
                                     current_bid_cents=2600, bid_count=4,
                                     auction_end=datetime.now(UTC) + timedelta(days=1)))
    slot = (await social.http.get("/instagram/posts", headers=social.auth(creator))).json()[0]["pinSlots"][0]
    assert (slot["bidCount"], slot["bidderCount"]) == (4, 1)  # a change that does not say keeps the count

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


async def test_a_burst_of_one_slots_changes_keeps_what_handling_each_in_turn_keeps(social):
    """social takes `slot.updated` in bursts and, of several of one slot, handles only the latest (LATEST_OF): two
    slots' changes, shuffled and with a tie, leave the rows the same changes handled one at a time leave."""
    creator = await social.user(handle="burst.keeper")
    await social.connect(creator)
    post = (await social.http.get("/instagram/posts", headers=social.auth(creator))).json()[0]["id"]
    end = datetime.now(UTC) + timedelta(days=1)
    start = datetime.now(UTC) - timedelta(minutes=5)
    slots = [uuid.uuid4(), uuid.uuid4()]

    def change(slot_id: uuid.UUID, n: int, second: int, status: str = "ACTIVE") -> Envelope:
        data = SlotUpdated(slot_id=slot_id, creator_id=creator, post_id=post, status=status, bid_count=n,
                           bidder_count=n, current_bid_cents=1000 + 100 * n, auction_end=end + timedelta(seconds=n))
        return Envelope(type=data.event_type, source="test", data=data.payload(),
                        occurred_at=start + timedelta(seconds=second))

    active_at_six = change(slots[0], 6, 6)
    closed_at_six = change(slots[0], 9, 6, status="CLOSED")  # a tie with the latest: the later arrival stands
    changes = [change(slots[0], n, n) for n in range(1, 6)] + [change(slots[1], n, n) for n in range(1, 7)]
    changes += [active_at_six, closed_at_six]
    random.Random(34).shuffle(changes)
    read = "SELECT status, current_bid_cents, bid_count, bidder_count, auction_end FROM slots WHERE slot_id = :s"

    def superseded() -> float:
        return REGISTRY.get_sample_value("pinbid_events_handled_total", {
            "service": "social", "type": SlotUpdated.event_type, "result": "superseded"}) or 0.0

    before = superseded()
    await asyncio.gather(*(social.service.consumers.dispatch(e, {}) for e in changes))
    assert superseded() - before == len(changes) - 2  # one change handled a slot
    in_a_burst = [await social.sql(read, s=slot) for slot in slots]
    recorded = await social.sql("SELECT count(*) FROM inbox WHERE handler = 'social.keep_slot_changes'")

    await social.sql("DELETE FROM slots WHERE slot_id = ANY(:s) RETURNING 1", s=slots)
    await social.sql("DELETE FROM inbox WHERE handler = 'social.keep_slot_changes' RETURNING 1")
    for one in changes:
        await social.service.consumers.dispatch(one, {})
    in_turn = [await social.sql(read, s=slot) for slot in slots]
    assert in_a_burst == in_turn
    closed_last = changes.index(closed_at_six) > changes.index(active_at_six)
    expected = ("CLOSED", 1900, 9) if closed_last else ("ACTIVE", 1600, 6)
    assert [rows[0][:3] for rows in in_turn] == [expected, ("ACTIVE", 1600, 6)]
    assert recorded == [(len(changes),)]  # each change is recorded as handled
