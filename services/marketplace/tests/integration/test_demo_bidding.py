"""The demo's background bidders: they outbid on open demo slots only, never on anyone else's slot."""

import random
import uuid
from datetime import timedelta
from decimal import Decimal

from pinbid_demo import plan as demo
from pinbid_kit.events import identity as i
from pinbid_marketplace.demo_bidding import DemoBidders
from pinbid_marketplace.domain.listing import NewSlot
from pinbid_marketplace.rules import auction_rules
from sqlalchemy import text


async def test_background_bidders_bid_on_demo_slots_only(world):
    for brand in demo.BRANDS:
        await world.deliver(i.UserRegistered(user_id=uuid.uuid4(), email=brand.email, name=brand.name, role="BUYER",
                                             business_name=brand.business_name))
    creator, posts = await world.creator(posts=2)
    creator_id = uuid.UUID(creator["x-user"])
    people = await world.slot(creator, posts[0], title="A creator's own slot")  # listed by a person: not demo
    demo_slot = await world.service.state["slots"].create(creator_id, NewSlot(
        post_id=posts[1], title="A demo slot", description="", category="food", min_bid=Decimal(40),
        buy_now_price=None, auction_end=world.clock.now + timedelta(days=2), duration_days=7), demo=True)
    settings = world.service.state["settings"]
    bidders = DemoBidders(world.service.db, settings, auction_rules(settings), world.clock, rng=random.Random(3))

    placed = sum([await bidders.run_once() for _ in range(12)])

    async with world.service.db.transaction() as session:
        bids = (await session.execute(text("SELECT slot_id, buyer_id, status, comment_text FROM bids"))).all()
        brands = dict((await session.execute(text("SELECT id, email FROM users"))).all())
        slot = (await session.execute(text("SELECT current_bid, bid_count FROM slots WHERE id = :i"),
                                      {"i": demo_slot})).one()
        visitor = await session.scalar(text("SELECT id FROM users WHERE email = :e"), {"e": demo.BRAND})
    assert placed >= 3 and {b.slot_id for b in bids} == {demo_slot}
    assert str(people["id"]) not in {str(b.slot_id) for b in bids}
    assert visitor not in {b.buyer_id for b in bids}  # the brand a visitor signs in as never bids by itself
    assert sum(b.status == "ACTIVE" for b in bids) == 1 and slot.current_bid > Decimal(40)
    assert slot.current_bid < Decimal(40) * Decimal("2.5") + 20  # within the brands' budget
    for bid in bids:  # only brands whose product fits a food post, each with its line for food
        brand = demo.brand(brands[bid.buyer_id])
        assert brand.fits("food") and bid.comment_text == brand.comment_for("food")


async def test_nothing_to_bid_on_places_nothing(world):
    creator, posts = await world.creator(posts=1)
    await world.slot(creator, posts[0])
    settings = world.service.state["settings"]
    bidders = DemoBidders(world.service.db, settings, auction_rules(settings), world.clock)
    assert await bidders.run_once() == 0
