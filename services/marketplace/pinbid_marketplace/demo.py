"""Demo pin slots for the embedded default, made through the real code paths: the demo creator lists three
of their sandbox posts and the demo brand bids on one. Seeding again changes nothing (the creator already
has slots). Social seeds first; its posts reach this service as events, so this waits for them a little."""

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from pinbid_kit.runtime import Service
from sqlalchemy import func, select

from .bidding import Bidding, Offer
from .domain.listing import NewSlot
from .models import Post, Slot, User
from .slots import Slots

log = logging.getLogger("pinbid.marketplace.demo")
CREATOR, BRAND = "creator@demo.pinbid.app", "brand@demo.pinbid.app"
WAIT_SECONDS = 20.0
LISTINGS = [
    ("Morning routine reel: pin your brand first", "fitness", Decimal("40.00"), None, timedelta(days=2), 14),
    ("Latte art close-up: coffee and kitchen brands", "food", Decimal("25.00"), Decimal("120.00"),
     timedelta(days=3), 7),
    ("Weekend in Lisbon: travel gear spotlight", "travel", Decimal("60.00"), None, timedelta(hours=30), 21),
]


async def _wait_for_posts(service: Service) -> tuple[User | None, User | None, list[Post]]:
    deadline = asyncio.get_running_loop().time() + WAIT_SECONDS
    while True:
        async with service.db.transaction() as session:
            creator = await session.scalar(select(User).where(User.email == CREATOR))
            brand = await session.scalar(select(User).where(User.email == BRAND))
            posts = list(await session.scalars(select(Post).where(Post.user_id == creator.id).order_by(Post.id)
                                               .limit(len(LISTINGS)))) if creator else []
        if (creator and brand and len(posts) == len(LISTINGS)) or asyncio.get_running_loop().time() > deadline:
            return creator, brand, posts
        await asyncio.sleep(0.25)


async def seed(service: Service) -> int:
    creator, brand, posts = await _wait_for_posts(service)
    if creator is None or brand is None or len(posts) < len(LISTINGS):
        log.warning("demo creator, brand or posts not known to marketplace; no demo slots")
        return 0
    async with service.db.transaction() as session:
        if await session.scalar(select(func.count()).select_from(Slot).where(Slot.creator_id == creator.id)):
            return 0
    slots: Slots = service.state["slots"]
    bidding: Bidding = service.state["bidding"]
    now = datetime.now(UTC)
    created = []
    for post, (title, category, min_bid, buy_now, ends_in, days) in zip(posts, LISTINGS, strict=True):
        created.append(await slots.create(creator.id, NewSlot(
            post_id=post.id, title=title, description=post.caption[:500], category=category, min_bid=min_bid,
            buy_now_price=buy_now, auction_end=now + ends_in, duration_days=days)))
    await bidding.place(brand.id, created[0], Offer(amount=Decimal("45.00"), auto_bid_enabled=True,
                                                    max_auto_bid=Decimal("80.00")))
    return len(created)
