"""Bids are written without holding the slot's lock: read unlocked, applied in Python, written only if the slot's
version is still the one read. These tests place bids through two `Bidding`s on one database, as two replicas of
the service would, and change the slot between a batch's read and its write."""

import asyncio
import random
import uuid
from decimal import Decimal

from pinbid_marketplace import bidding as bidding_module
from pinbid_marketplace import metrics
from pinbid_marketplace.bidding import Bidding, Offer
from pinbid_marketplace.domain.comments import Comment
from pinbid_marketplace.rules import auction_rules
from sqlalchemy import text

from .conftest import after_the_next_read
from .test_concurrency import replay, rows


def replica(world) -> Bidding:
    settings = world.service.state["settings"]
    return Bidding(world.service.db, settings, auction_rules(settings), world.clock)


def buyer_id(headers: dict[str, str]) -> uuid.UUID:
    return uuid.UUID(headers["x-user"])


def conflicts() -> float:
    return metrics.BID_WRITE_CONFLICTS._value.get()


async def test_a_bid_another_replica_writes_between_our_read_and_our_write_is_kept(world, monkeypatch):
    creator, posts = await world.creator(posts=1)
    slot = await world.slot(creator, posts[0], minBid=10)
    slot_id = uuid.UUID(slot["id"])
    first, second = await world.buyer("First"), await world.buyer("Second")
    ours, theirs = replica(world), replica(world)
    after_the_next_read(monkeypatch, lambda _: theirs.place(buyer_id(second), slot_id, Offer(Decimal(30))))
    before = conflicts()
    view = await ours.place(buyer_id(first), slot_id, Offer(Decimal(50)))

    assert conflicts() == before + 1  # our first write found the version changed, wrote nothing and read again
    slot_row, bid_rows = await rows(world, slot["id"])
    assert slot_row.bid_count == 2 == len(bid_rows)
    assert [b.buyer_id for b in bid_rows] == [buyer_id(second), buyer_id(first)]  # applied in commit order
    expected = replay(slot_row, [(b.buyer_id, b.amount, b.ceiling) for b in bid_rows], world, world.clock.now)
    assert slot_row.current_bid == expected.current_bid == view.slot.current_bid
    assert [b.status for b in bid_rows] == ["OUTBID", "ACTIVE"]


async def test_a_new_comment_between_our_read_and_our_write_is_not_overwritten(world, monkeypatch):
    creator, posts = await world.creator(posts=1)
    slot = await world.slot(creator, posts[0], minBid=10)
    leader = await world.buyer("Leader")
    assert (await world.bid(leader, slot["id"], 20)).status_code == 201
    mine = (await world.http.get("/buyer/bids", headers=leader)).json()[0]
    after_the_next_read(monkeypatch, lambda _: world.service.state["bidding"].submit_comment(
        buyer_id(leader), uuid.UUID(mine["id"]), Comment(None, None, "Changed while you bid #ad")))
    outbidder = await world.buyer("Outbidder")
    assert (await world.bid(outbidder, slot["id"], 40)).status_code == 201
    _, bid_rows = await rows(world, slot["id"])
    assert {b.buyer_id: b.comment_text for b in bid_rows}[buyer_id(leader)] == "Changed while you bid #ad"


async def test_a_bid_cancelled_between_our_read_and_our_write_stays_cancelled(world, monkeypatch):
    """Cancelling changes a bid and not its slot: lock_bid_of_buyer marks the slot changed in the statement that
    locks the bid, so the batch that read the bid as OUTBID writes nothing and reads again."""
    creator, posts = await world.creator(posts=1)
    slot = await world.slot(creator, posts[0], minBid=10)
    quitter, leader = await world.buyer("Quitter"), await world.buyer("Leader")
    assert (await world.bid(quitter, slot["id"], 20)).status_code == 201
    assert (await world.bid(leader, slot["id"], 30)).status_code == 201
    cancelled = (await world.http.get("/buyer/bids", headers=quitter)).json()[0]
    async def cancel(_) -> None:
        view = await world.service.state["bidding"].cancel(buyer_id(quitter), uuid.UUID(cancelled["id"]))
        assert view.bid.status == "CANCELLED"

    after_the_next_read(monkeypatch, cancel)
    before = conflicts()
    assert (await world.bid(await world.buyer("Outbidder"), slot["id"], 40)).status_code == 201
    assert conflicts() == before + 1
    _, bid_rows = await rows(world, slot["id"])
    assert {b.buyer_id: b.status for b in bid_rows}[buyer_id(quitter)] == "CANCELLED"


async def test_two_replicas_taking_60_bids_at_once_lose_none(world):
    creator, posts = await world.creator(posts=1)
    slot = await world.slot(creator, posts[0], minBid=10)
    slot_id = uuid.UUID(slot["id"])
    buyers = [await world.buyer(f"B{n}") for n in range(60)]
    replicas = [replica(world), replica(world)]
    rng = random.Random(11)
    # rising offers, so that most are accepted and the two replicas' batches keep overwriting each other's reads
    offers = [(buyer_id(h), Decimal(2000 + 100 * n + rng.randint(0, 150)) / 100) for n, h in enumerate(buyers)]

    async def place(n: int, buyer: uuid.UUID, amount: Decimal):
        try:
            return await replicas[n % 2].place(buyer, slot_id, Offer(amount))
        except bidding_module.BidTooLow:
            return None

    answers = await asyncio.gather(*(place(n, b, a) for n, (b, a) in enumerate(offers)))
    accepted = [a for a in answers if a is not None]
    assert len(accepted) >= 10
    slot_row, bid_rows = await rows(world, slot["id"])
    assert slot_row.bid_count == len(accepted) == len(bid_rows)
    assert sorted(b.seq for b in bid_rows) == list(range(1, len(accepted) + 1))
    expected = replay(slot_row, [(b.buyer_id, b.amount, b.ceiling) for b in bid_rows], world, world.clock.now)
    assert slot_row.current_bid == expected.current_bid
    assert [b.buyer_id for b in bid_rows if b.status == "ACTIVE"] == [max(bid_rows, key=lambda b: b.ceiling).buyer_id]
    async with world.service.db.transaction() as session:
        updates = await session.scalar(text(
            "SELECT count(*) FROM outbox WHERE type = 'marketplace.slot.updated.v1' "
            "AND envelope->'data'->>'slotId' = :slot"), {"slot": slot["id"]})
    assert updates == len(accepted)  # one slot.updated per accepted bid: nothing written twice or lost
