"""The top-two-live-bids rule is written twice: in the domain (`auction.ranked`) and in the PL/pgSQL function the
batch's read calls (`marketplace_placement_bids`, migrations 0005 and 0006). These tests fill a slot with bids of
tied and untied ceilings in every status and check that the database's read returns what the domain's ranking
needs: the same two best bids in the same order, and with them the bidder's own live bid, so that `place_bid` on
the rows read decides as it would on every bid of the slot."""

import random
import uuid
from datetime import timedelta
from decimal import Decimal

from pinbid_marketplace import store
from pinbid_marketplace.domain import auction
from pinbid_marketplace.domain.states import BidStatus
from pinbid_marketplace.models import Bid
from pinbid_marketplace.rules import bid_state, slot_state
from sqlalchemy import text

STATUSES = [BidStatus.ACTIVE, BidStatus.OUTBID, BidStatus.OUTBID, BidStatus.OUTBID, BidStatus.CANCELLED,
            BidStatus.EXPIRED]
CEILINGS = [Decimal("20.00"), Decimal("25.00"), Decimal("25.00"), Decimal("30.00"), Decimal("30.00")]


async def fill(world, slot_id: uuid.UUID, rng: random.Random, count: int, first_seq: int = 1) -> list[Bid]:
    """`count` bids on the slot, each its own buyer, ceilings drawn from few values (ties are common), seqs from
    `first_seq` on in a shuffled order (a tie goes to the lower seq, not to the row inserted first)."""
    seqs = rng.sample(range(first_seq, first_seq + count), count)
    now = world.clock()
    rows = []
    for n in range(count):
        ceiling = rng.choice(CEILINGS)
        rows.append(Bid(id=uuid.uuid4(), slot_id=slot_id, buyer_id=uuid.uuid4(), amount=ceiling, ceiling=ceiling,
                        auto_bid_enabled=False, seq=seqs[n], status=rng.choice(STATUSES).value, likes=0, replies=0,
                        clicks=0, is_demo=False, created_at=now + timedelta(seconds=n), updated_at=now))
    async with world.service.db.transaction() as session:
        session.add_all(rows)
    return rows


async def placement_read(world, slot_id: uuid.UUID, buyers: list[uuid.UUID]) -> store.SlotRows:
    async with world.service.db.autocommit() as conn:
        seen = await store.read_for_placement(conn, slot_id, buyers, [])
    assert seen is not None
    return seen


async def test_the_databases_two_best_bids_are_the_domains_in_the_same_order(world):
    creator, posts = await world.creator(posts=1)
    slot = await world.slot(creator, posts[0], minBid=10)
    slot_id = uuid.UUID(slot["id"])
    rng = random.Random(20)
    placed: list[Bid] = []
    for _ in range(8):  # the slot grows: 1 bid, then up to 36, rankings with and without ties
        placed += await fill(world, slot_id, rng, rng.randint(1, 8), first_seq=len(placed) + 1)
        async with world.service.db.autocommit() as conn:
            read = (await conn.execute(text(
                "SELECT id FROM marketplace_placement_bids(:slot, CAST(:none AS uuid[]), CAST(:none AS uuid[]))"),
                {"slot": slot_id, "none": []})).scalars().all()
        expected = [b.id for b in auction.ranked([bid_state(b) for b in placed])[:2]]
        assert read == expected


async def test_place_bid_on_the_rows_read_decides_as_on_every_bid_of_the_slot(world):
    creator, posts = await world.creator(posts=1)
    slot = await world.slot(creator, posts[0], minBid=10)
    slot_id = uuid.UUID(slot["id"])
    rng = random.Random(9)
    placed = await fill(world, slot_id, rng, 30)
    rules = auction.Rules(step=Decimal("1.00"))
    for _ in range(25):
        # an existing bidder (live or not) or a newcomer, offering from below the field to above it
        bidder = rng.choice([b.buyer_id for b in placed] + [uuid.uuid4()])
        amount = Decimal(rng.randint(1500, 3600)) / 100
        ceiling = amount + rng.choice([Decimal(0), Decimal(5)])
        seen = await placement_read(world, slot_id, [bidder])
        outcomes = []
        for bids in (list(seen.bids.values()), placed):
            slot_now = slot_state(seen.slot)
            slot_now.current_bid = None  # let every amount reach the rule that ranks (check_bid is not under test)
            live = [bid_state(b) for b in bids if BidStatus(b.status) in (BidStatus.ACTIVE, BidStatus.OUTBID)]
            placement = auction.place_bid(slot_now, live, buyer_id=bidder, amount=max(amount, slot_now.min_bid),
                                          ceiling=max(ceiling, slot_now.min_bid), now=world.clock(), rules=rules,
                                          new_id=uuid.UUID(int=0))
            outcomes.append((placement.leader.id, placement.leader.amount, slot_now.current_bid,
                             [b.id for b in placement.outbid], placement.created, placement.raised_only))
        assert outcomes[0] == outcomes[1]
