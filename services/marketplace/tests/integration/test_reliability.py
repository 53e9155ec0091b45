"""A creator's reliability record, from events on real PostgreSQL: pins on time, placements kept or ended early,
decisions' response time; on cards, in the listing's filter and sort, and on the creator's own record (repeated
events change nothing)."""

import uuid
from datetime import timedelta

from pinbid_kit.events import payments as p
from pinbid_kit.events import social as s


async def placement(world, creator, post, *, minutes_to_decide: int, pin_late: bool = False):
    """A won, paid and pinned bid on a slot of `post`: returns the event ids to finish it with."""
    ids, pin = await paid_placement(world, creator, post, minutes_to_decide=minutes_to_decide, pin_late=pin_late)
    await world.deliver(pin)
    return ids


async def paid_placement(world, creator, post, *, minutes_to_decide: int, pin_late: bool = False):
    """A won and paid bid on a slot of `post`: its event ids, and the pin event not delivered yet."""
    slot = await world.slot(creator, post, minBid=10)
    buyer = await world.buyer()
    bid = (await world.bid(buyer, slot["id"], 20, newCommentText="Hello")).json()
    await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    world.clock.advance(minutes=minutes_to_decide)
    assert (await world.http.post(f"/influencer/approvals/{bid['id']}", json={"status": "APPROVED"},
                                  headers=creator)).status_code == 200
    ids = dict(bid_id=uuid.UUID(bid["id"]), buyer_id=uuid.UUID(buyer["x-user"]),
               creator_id=uuid.UUID(creator["x-user"]))
    payment = uuid.uuid4()
    await world.deliver(p.PaymentRequested(payment_id=payment, amount_cents=2000, expires_at=world.clock.now, **ids))
    await world.deliver(p.PaymentCompleted(payment_id=payment, amount_cents=2000,
                                           pin_deadline_at=world.clock.now + timedelta(days=3), **ids))
    pinned_at = world.clock.now + timedelta(days=4 if pin_late else 1)
    pin = s.CommentPinned(slot_id=uuid.UUID(slot["id"]), comment_id="c", comment_text="Ad · x: Hello",
                          pinned_at=pinned_at, **ids)
    return dict(bid_id=ids["bid_id"], slot_id=uuid.UUID(slot["id"]), creator_id=ids["creator_id"]), pin


async def test_the_record_follows_the_placements_and_reaches_the_cards_the_filter_and_the_sort(world):
    creator, posts = await world.creator(posts=6)
    newcomer, new_posts = await world.creator(posts=1, name="Newbie")
    kept = [await placement(world, creator, posts[n], minutes_to_decide=30) for n in range(3)]
    ended = await placement(world, creator, posts[3], minutes_to_decide=90, pin_late=True)
    for event in kept:
        completed = s.PlacementCompleted(completed_at=world.clock.now, **event)
        await world.deliver(completed)
        await world.deliver(completed)  # redelivered: counted once
    unpinned = s.CommentUnpinned(comment_id="c", unpinned_at=world.clock.now, reason="HIDDEN", **ended)
    await world.deliver(unpinned)
    await world.deliver(unpinned)

    record = (await world.http.get("/influencer/record", headers=creator)).json()
    assert record == {"pinned": 4, "pinnedOnTimePercent": 75, "placements": 4, "kept": 3, "endedEarly": 1,
                      "disputedPlacements": 0,
                      "keptPercent": 75, "decisions": 4, "responseMinutes": 45}

    open_slot = await world.slot(creator, posts[4], minBid=10)
    fresh = await world.slot(newcomer, new_posts[0], minBid=10)
    brand = await world.buyer()
    cards = {c["id"]: c["user"]["record"] for c in (await world.http.get("/marketplace/slots?limit=50",
                                                                         headers=brand)).json()["slots"]}
    assert cards[open_slot["id"]] == {"placements": 4, "keptPercent": 75, "responseMinutes": 45}
    assert cards[fresh["id"]] == {"placements": 0, "keptPercent": None, "responseMinutes": None}  # a new creator
    reliable = (await world.http.get("/marketplace/slots?sortBy=most-reliable", headers=brand)).json()
    assert [s["id"] for s in reliable["slots"]][-1] == fresh["id"]  # new creators last
    filtered = (await world.http.get("/marketplace/slots?minKeptPercent=70", headers=brand)).json()
    assert [s["id"] for s in filtered["slots"]] == [open_slot["id"]] and filtered["total"] == 1
    assert (await world.http.get("/marketplace/slots?minKeptPercent=80", headers=brand)).json()["total"] == 0
    assert (await world.http.get("/marketplace/slots?minKeptPercent=101", headers=brand)).status_code == 422


async def test_a_new_slot_carries_the_record_and_a_later_end_updates_the_open_slots(world):
    creator, posts = await world.creator(posts=3)
    first = await placement(world, creator, posts[0], minutes_to_decide=10)
    open_slot = await world.slot(creator, posts[1], minBid=10)
    brand = await world.buyer()

    async def card() -> dict:
        return (await world.http.get(f"/marketplace/slots/{open_slot['id']}", headers=brand)).json()["user"]["record"]

    assert (await card())["keptPercent"] is None
    await world.deliver(s.PlacementCompleted(completed_at=world.clock.now, **first))
    assert await card() == {"placements": 1, "keptPercent": 100, "responseMinutes": 10}
    later = await world.slot(creator, posts[2], minBid=10)
    assert (await world.http.get(f"/marketplace/slots/{later['id']}", headers=brand)).json()["user"]["record"][
        "keptPercent"] == 100
