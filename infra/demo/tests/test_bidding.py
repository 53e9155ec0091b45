"""The demo's background bidders: they outbid on open demo slots only, never on anyone else's slot."""

import random
import uuid
from datetime import timedelta
from decimal import Decimal

from pinbid_demo import plan as demo
from pinbid_demo.bidding import DemoBidders
from pinbid_kit.events import identity as i
from pinbid_kit.events import social as s
from pinbid_marketplace.domain.listing import NewSlot
from pinbid_marketplace.rules import auction_rules
from sqlalchemy import text


async def creator(world, posts: int) -> tuple[uuid.UUID, list[str]]:
    """A creator someone signed up (not of the demo world) and their posts, as identity and social announce them."""
    user_id = uuid.uuid4()
    await world.deliver(i.UserRegistered(user_id=user_id, email=f"{user_id.hex[:8]}@c.test", name="Maya",
                                         role="INFLUENCER", instagram_handle="maya"))
    await world.deliver(s.AccountConnected(user_id=user_id, instagram_id="ig" + user_id.hex[:6], username="maya",
                                           profile=s.CreatorProfile(followers=20_000, avg_views=5_000,
                                                                    avg_engagement=Decimal("4.5"), verified=True)))
    ids = [f"m{user_id.hex[:10]}{n}" for n in range(posts)]
    await world.deliver(s.MediaSynced(user_id=user_id, instagram_id="ig", posts=[
        s.SyncedPost(id=pid, media_type="IMAGE", media_url=f"https://img.test/{pid}.jpg",
                     permalink=f"https://instagram.test/p/{pid}") for pid in ids]))
    return user_id, ids


async def list_slot(world, creator_id: uuid.UUID, post_id: str, title: str, *, demo_world: bool) -> uuid.UUID:
    return await world.service.state["slots"].create(creator_id, NewSlot(
        post_id=post_id, title=title, description="", category="food", min_bid=Decimal(40), buy_now_price=None,
        auction_end=world.clock.now + timedelta(days=2), duration_days=7), demo=demo_world)


def bidders(world, **kwargs) -> DemoBidders:
    settings = world.service.state["settings"]
    return DemoBidders(world.service.db, settings, auction_rules(settings), world.clock, **kwargs)


async def test_background_bidders_bid_on_demo_slots_only(marketplace):
    world = marketplace
    for brand in demo.BRANDS:
        await world.deliver(i.UserRegistered(user_id=uuid.uuid4(), email=brand.email, name=brand.name, role="BUYER",
                                             business_name=brand.business_name))
    creator_id, posts = await creator(world, posts=2)
    people = await list_slot(world, creator_id, posts[0], "A creator's own slot", demo_world=False)
    demo_slot = await list_slot(world, creator_id, posts[1], "A demo slot", demo_world=True)
    bidding = bidders(world, rng=random.Random(3))

    placed = sum([await bidding.run_once() for _ in range(12)])

    async with world.service.db.transaction() as session:
        bids = (await session.execute(text("SELECT slot_id, buyer_id, status, comment_text FROM bids"))).all()
        brands = dict((await session.execute(text("SELECT id, email FROM users"))).all())
        slot = (await session.execute(text("SELECT current_bid, bid_count FROM slots WHERE id = :i"),
                                      {"i": demo_slot})).one()
        visitor = await session.scalar(text("SELECT id FROM users WHERE email = :e"), {"e": demo.BRAND})
    assert placed >= 3 and {b.slot_id for b in bids} == {demo_slot}
    assert people not in {b.slot_id for b in bids}
    assert visitor not in {b.buyer_id for b in bids}  # the brand a visitor signs in as never bids by itself
    assert sum(b.status == "ACTIVE" for b in bids) == 1 and slot.current_bid > Decimal(40)
    assert slot.current_bid < Decimal(40) * Decimal("2.5") + 20  # within the brands' budget
    for bid in bids:  # only brands whose product fits a food post, each with its line for food
        brand = demo.brand(brands[bid.buyer_id])
        assert brand.fits("food") and bid.comment_text == brand.comment_for("food")


async def test_nothing_to_bid_on_places_nothing(marketplace):
    creator_id, posts = await creator(marketplace, posts=1)
    await list_slot(marketplace, creator_id, posts[0], "Morning latte art", demo_world=False)
    assert await bidders(marketplace).run_once() == 0
