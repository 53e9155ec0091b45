"""Concurrency on real PostgreSQL: many requests at once through the HTTP app (asyncio.gather)."""

import asyncio
import random
import uuid
from decimal import Decimal

from pinbid_marketplace import store
from pinbid_marketplace.domain import auction
from pinbid_marketplace.domain.states import LIVE
from pinbid_marketplace.models import Bid, Slot
from pinbid_marketplace.rules import auction_rules
from pinbid_testing import eventually
from sqlalchemy import select, text


async def rows(world, slot_id: str) -> tuple[Slot, list[Bid]]:
    async with world.service.db.transaction() as session:
        slot = await session.get(Slot, uuid.UUID(slot_id))
        bids = list(await session.scalars(select(Bid).where(Bid.slot_id == slot.id).order_by(Bid.seq)))
        return slot, bids


def replay(slot: Slot, accepted: list[tuple[uuid.UUID, Decimal, Decimal]], world, now) -> auction.Slot:
    """Apply the accepted bids one by one, in commit order, to a fresh slot."""
    state = auction.Slot(id=slot.id, creator_id=slot.creator_id, min_bid=slot.min_bid, auction_end=slot.auction_end)
    bids: dict[uuid.UUID, auction.Bid] = {}
    for buyer, amount, ceiling in accepted:
        placement = auction.place_bid(state, [b for b in bids.values() if b.status in LIVE], buyer_id=buyer,
                                      amount=amount, ceiling=ceiling, now=now,
                                      rules=auction_rules(world.service.state["settings"]), new_id=uuid.uuid4())
        bids[buyer] = placement.bid
    state.bids = bids  # type: ignore[attr-defined]
    return state


async def test_100_bids_at_once_equal_the_accepted_ones_applied_in_commit_order(world):
    creator, posts = await world.creator()
    slot = await world.slot(creator, posts[0], minBid=10)
    buyers = [await world.buyer(f"B{n}") for n in range(100)]
    rng = random.Random(7)
    offers = []
    for headers in buyers:
        amount = Decimal(rng.randint(1000, 30000)) / 100
        auto = rng.random() < 0.5
        ceiling = amount + Decimal(rng.randint(0, 5000)) / 100 if auto else amount
        offers.append((headers, amount, auto, ceiling))
    responses = await asyncio.gather(*[
        world.bid(h, slot["id"], float(a), autoBidEnabled=auto, maxAutoBid=float(c) if auto else None)
        for h, a, auto, c in offers])
    statuses = [r.status_code for r in responses]
    assert set(statuses) <= {201, 422}, statuses
    accepted_count = statuses.count(201)
    assert accepted_count >= 3, accepted_count

    slot_row, bid_rows = await rows(world, slot["id"])
    assert slot_row.bid_count == accepted_count == len(bid_rows)  # no lost update
    assert sorted(b.seq for b in bid_rows) == list(range(1, accepted_count + 1))
    by_buyer = {uuid.UUID(h["x-user"]): (a, c) for h, a, _, c in offers}
    in_commit_order = [(b.buyer_id, *by_buyer[b.buyer_id]) for b in bid_rows]
    expected = replay(slot_row, in_commit_order, world, world.clock.now)
    assert slot_row.current_bid == expected.current_bid
    for row in bid_rows:
        model = expected.bids[row.buyer_id]
        assert (row.amount, row.ceiling, row.status) == (model.amount, model.ceiling, model.status.value)
    assert sum(1 for b in bid_rows if b.status == "ACTIVE") == 1


async def six_slots_due(world) -> list[dict]:
    """Six of one creator's slots whose auctions have ended, four of them with a bid."""
    creator, posts = await world.creator(posts=6)
    slots = [await world.slot(creator, pid) for pid in posts]
    buyer = await world.buyer()
    for s in slots[:4]:
        assert (await world.bid(buyer, s["id"], 20)).status_code == 201
    world.clock.advance(days=3)
    return slots


async def test_two_closers_at_once_close_each_slot_once(world):
    slots = await six_slots_due(world)
    closer = world.service.state["closer"]
    closed = await asyncio.gather(closer.run_once(), closer.run_once(), closer.run_once())
    assert sum(closed) == 6
    async with world.service.db.transaction() as session:
        per_slot = dict((await session.execute(text(
            "SELECT envelope->'data'->>'slotId', count(*) FROM outbox "
            "WHERE type = 'marketplace.auction.closed.v1' GROUP BY 1"))).tuples().all())
    assert per_slot == {s["id"]: 1 for s in slots}


async def test_the_creator_and_the_closer_racing_close_once(world):
    creator, posts = await world.creator(posts=1)
    slot = await world.slot(creator, posts[0])
    world.clock.advance(days=3)
    ended, closed = await asyncio.gather(
        world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator),
        world.service.state["closer"].run_once())
    assert (ended.status_code == 200) != (closed == 1), (ended.status_code, closed)
    assert ended.status_code in (200, 409)


async def test_bids_racing_the_close_are_accepted_before_it_or_refused(world):
    creator, posts = await world.creator(posts=1)
    slot = await world.slot(creator, posts[0], minBid=10)
    buyers = [await world.buyer(f"R{n}") for n in range(40)]
    closer = world.service.state["closer"]

    async def close_now():
        await asyncio.sleep(0)  # let some bids start first
        return await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)

    results = await asyncio.gather(close_now(), *[world.bid(h, slot["id"], 10 + n, autoBidEnabled=True,
                                                            maxAutoBid=10 + 2 * n)
                                                  for n, h in enumerate(buyers)])
    assert results[0].status_code == 200
    bid_statuses = [r.status_code for r in results[1:]]
    assert set(bid_statuses) <= {201, 409, 422}
    assert 409 in bid_statuses or 201 in bid_statuses
    slot_row, bid_rows = await rows(world, slot["id"])
    assert slot_row.status == "CLOSED"
    assert len(bid_rows) == bid_statuses.count(201) == slot_row.bid_count
    # nothing half-applied: no bid stays live on a closed slot, and the winner is the best accepted ceiling
    assert not [b for b in bid_rows if b.status in LIVE]
    if bid_rows:
        winner = max(bid_rows, key=lambda b: (b.ceiling, -b.seq))
        assert winner.status == "PENDING_INFLUENCER_APPROVAL" and slot_row.winning_bid_id == winner.id
    for r in results[1:]:
        if r.status_code == 409:
            assert r.json()["detail"] == "This auction has ended."
    assert await closer.run_once() == 0


async def test_the_locking_read_sees_what_the_previous_holder_of_the_lock_committed(world):
    """The statement that locks a slot (ending an auction) reads its bids after the lock is granted (another
    replica's bid that committed while we waited is in the read), not as of the statement's start."""
    creator, posts = await world.creator(posts=1)
    slot = await world.slot(creator, posts[0], minBid=10)
    buyer = await world.buyer()
    assert (await world.bid(buyer, slot["id"], 20)).status_code == 201
    slot_id, other_buyer = uuid.UUID(slot["id"]), uuid.uuid4()
    db = world.service.db
    async with db.transaction() as first:
        holder = await first.connection()
        await holder.execute(text("SELECT 1 FROM slots WHERE id = :id FOR UPDATE"), {"id": slot_id})
        async with db.transaction() as second:
            waiter = await second.connection()
            waiting = asyncio.create_task(store.lock_for_closing(waiter, slot_id))

            async def waits_for_the_lock() -> bool:
                async with db.transaction() as observer:
                    return bool(await observer.scalar(text(
                        "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                        "WHERE NOT l.granted AND a.datname = current_database()")))

            await eventually(waits_for_the_lock)
            assert not waiting.done()
            await holder.execute(text(
                "INSERT INTO bids (id, slot_id, buyer_id, amount, ceiling, auto_bid_enabled, seq, status, likes, "
                "replies, clicks, is_demo) VALUES (gen_random_uuid(), :slot, :buyer, 90, 90, false, 2, 'ACTIVE', "
                "0, 0, 0, false)"), {"slot": slot_id, "buyer": other_buyer})
            await holder.execute(text("UPDATE slots SET bid_count = 2 WHERE id = :id"), {"id": slot_id})
            await first.commit()
            locked = await waiting
    assert locked is not None and locked.slot.bid_count == 2
    assert other_buyer in {b.buyer_id for b in locked.bids.values()}
