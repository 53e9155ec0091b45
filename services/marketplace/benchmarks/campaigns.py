"""Campaigns (issue 36): how long a slot waits for a campaign's bid, and what matching one new slot costs.

1. Listed to bid: marketplace runs as the launcher runs it (in-process bus, outbox relay, its own `slot.created`
   handled by the campaigns' matcher); one ACTIVE campaign fits every slot. SLOTS slots are listed one after the
   other (Slots.create, the creator's call) and the time from the listing's commit to the campaign's bid row being
   committed is taken for each (polled every millisecond). Prints p50, p99, max.
2. Matching against 1,000 ACTIVE campaigns (CAMPAIGNS, varied filters, one in 100 fitting, one in six naming no
   category): the time to find the campaigns a new slot fits (`CampaignBidding.campaigns_for`: one read of the
   ACTIVE campaigns of the slot's category or of none, the filter in Python), and the whole `bid_on_new_slot`
   (that read, the locks of the fitting campaigns, their bids), in ms.

A scratch database of its own (migrated, dropped at the end):
  uv run python services/marketplace/benchmarks/campaigns.py
Environment: SLOTS (default 200), CAMPAIGNS (default 1000)."""

import asyncio
import os
import statistics
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

from pinbid_kit.envelope import Envelope
from pinbid_kit.events import campaigns as ce
from pinbid_kit.events import identity as i
from pinbid_kit.events import social as s
from pinbid_kit.tokens import generate_keypair
from pinbid_marketplace.app import build
from pinbid_marketplace.campaign_bidding import open_slot
from pinbid_marketplace.campaigns import NewCampaign
from pinbid_marketplace.domain.campaigns import Filters, Terms
from pinbid_marketplace.domain.listing import CATEGORIES, NewSlot
from pinbid_marketplace.models import Campaign, Slot
from pinbid_marketplace.settings import MarketplaceSettings
from pinbid_testing.databases import scratch_database
from pinbid_testing.services import running
from sqlalchemy import func, insert, select, text

SLOTS = int(os.environ.get("SLOTS", "200"))
CAMPAIGNS = int(os.environ.get("CAMPAIGNS", "1000"))


def ms(seconds: float) -> float:
    return seconds * 1000


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


async def deliver(service, data) -> None:
    await service.consumers.dispatch(Envelope(type=data.event_type, source="bench", data=data.payload()), {})


async def creator_with_posts(service, posts: int) -> tuple[uuid.UUID, list[str]]:
    user_id = uuid.uuid4()
    await deliver(service, i.UserRegistered(user_id=user_id, email=f"{user_id.hex[:8]}@c.test", name="Maker",
                                            role="INFLUENCER", instagram_handle="maker"))
    await deliver(service, s.AccountConnected(user_id=user_id, instagram_id="ig" + user_id.hex[:6], username="maker",
                                              profile=s.CreatorProfile(followers=20_000, avg_views=5_000,
                                                                       avg_engagement=Decimal("4.5"), verified=True)))
    ids = [f"b{user_id.hex[:10]}{n}" for n in range(posts)]
    await deliver(service, s.MediaSynced(user_id=user_id, instagram_id="ig", posts=[
        s.SyncedPost(id=pid, media_type="IMAGE", media_url=f"https://img.test/{pid}.jpg",
                     permalink=f"https://instagram.test/p/{pid}") for pid in ids]))
    return user_id, ids


def new_slot(post_id: str, category: str = "fitness") -> NewSlot:
    return NewSlot(post_id=post_id, title="Home gym routine", description="A reel", category=category,
                   min_bid=Decimal("10.00"), buy_now_price=None,
                   auction_end=datetime.now(UTC) + timedelta(days=2), duration_days=7)


async def listed_to_bid(service) -> list[float]:
    campaigns, slots, db = service.state["campaigns"], service.state["slots"], service.db
    buyer = uuid.uuid4()
    await deliver(service, i.UserRegistered(user_id=buyer, email="b@b.test", name="Brand", role="BUYER",
                                            business_name="Brand Inc"))
    now = datetime.now(UTC)
    view = await campaigns.create(buyer, NewCampaign(
        terms=Terms(name="Bench", budget=Decimal("1000000.00"), max_per_slot=Decimal("40.00"),
                    comment_text="Try our bars", starts_at=now, ends_at=now + timedelta(days=30)),
        filters=Filters(category="fitness")))
    await deliver(service, ce.CampaignFunded(campaign_id=view.campaign.id, buyer_id=buyer, amount_cents=10**8,
                                             balance_cents=10**8, payment_id=uuid.uuid4(), funded_cents=10**8))
    creator, posts = await creator_with_posts(service, SLOTS)
    waits: list[float] = []
    for post in posts:
        slot_id = await slots.create(creator, new_slot(post))
        listed = time.perf_counter()
        async with db.autocommit() as conn:
            while True:  # noqa: ASYNC110 (the bid is a row another task commits: polled, every millisecond)
                if await conn.scalar(text("SELECT EXISTS (SELECT 1 FROM bids WHERE slot_id = :s AND "
                                          "campaign_id IS NOT NULL)"), {"s": slot_id}):
                    break
                await asyncio.sleep(0.001)
        waits.append(time.perf_counter() - listed)
    return waits


async def matching(service) -> tuple[list[float], list[float], int]:
    """CAMPAIGNS ACTIVE campaigns with varied filters; one in 100 fits the new fitness slots."""
    bidding, slots, db = service.state["campaign_bidding"], service.state["slots"], service.db
    now = datetime.now(UTC)
    rows = []
    for n in range(CAMPAIGNS):
        fits = n % 100 == 0
        # the others: one in six names no category (read and filtered in Python), the rest another category
        category = CATEGORIES[n % len(CATEGORIES)]
        filters = {"category": "fitness", "maxPrice": "50.00"} if fits else \
            {"minViews": 1000 + n, "search": f"word{n}"} if n % 6 == 0 else \
            {"category": category if category != "fitness" else "food", "minViews": 1000 + n}
        rows.append(dict(id=uuid.uuid4(), buyer_id=uuid.uuid4(), name=f"C{n}", status="ACTIVE", reason=None,
                         filters=filters, ask=None, budget=Decimal("100000.00"),
                         max_per_slot=Decimal("40.00"), funded=Decimal("100000.00"), comment_text="Try it",
                         starts_at=now - timedelta(hours=1),
                         ends_at=now + timedelta(days=30), version=1, created_at=now, updated_at=now))
    async with db.transaction() as session:
        await session.execute(insert(Campaign), rows)
        active = await session.scalar(select(func.count()).select_from(Campaign).where(Campaign.status == "ACTIVE"))
    creator, posts = await creator_with_posts(service, 60)
    find, whole = [], []
    fitting = 0
    for k, post in enumerate(posts):
        slot_id = await slots.create(creator, new_slot(post))
        async with db.transaction() as session:
            row = (await session.execute(select(Slot.category, Slot.price, Slot.avg_views, Slot.verified,
                                                Slot.creator_kept_pct, Slot.auction_end, Slot.search)
                                         .where(Slot.id == slot_id))).first()
            started = time.perf_counter()
            found = await bidding.campaigns_for(session, open_slot(row), datetime.now(UTC))
            find.append(time.perf_counter() - started)
            fitting = len(found)
        if k % 2 == 0:
            async with db.transaction() as session:
                started = time.perf_counter()
                await bidding.bid_on_new_slot(session, slot_id)
                whole.append(time.perf_counter() - started)
    print(f"{active} ACTIVE campaigns in the table")
    return find, whole, fitting


async def main() -> None:
    with tempfile.TemporaryDirectory() as keys, scratch_database("pinbid_marketplace") as url:
        generate_keypair(Path(keys) / "jwt.pem", Path(keys) / "jwt.pub")
        settings = MarketplaceSettings(database_url=url.replace("postgresql://", "postgresql+psycopg://"),
                                       jwt_public_key_file=Path(keys) / "jwt.pub", closer_interval_seconds=3600,
                                       campaign_clock_seconds=3600)
        service = build(settings)
        async with running(service):
            print(f"load average at the start: {os.getloadavg()[0]:.2f}")
            waits = await listed_to_bid(service)
        print(f"listed -> campaign's bid, {len(waits)} slots, one after the other, one fitting campaign:")
        print(f"  p50 {ms(statistics.median(waits)):.1f} ms   p99 {ms(pct(waits, 0.99)):.1f} ms   "
              f"max {ms(max(waits)):.1f} ms")
        # not running: no relay, so the measured calls are the only matcher of the new slots
        quiet = build(settings)
        find, whole, fitting = await matching(quiet)
        await quiet.db.dispose()
        print(f"matching one new slot against {CAMPAIGNS:,} ACTIVE campaigns ({fitting} fit):")
        print(f"  find the fitting ones: p50 {ms(statistics.median(find)):.2f} ms   p99 {ms(pct(find, 0.99)):.2f} ms")
        print(f"  find, lock and bid for them (bid_on_new_slot): p50 {ms(statistics.median(whole)):.1f} ms   "
              f"p99 {ms(pct(whole, 0.99)):.1f} ms")
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")

if __name__ == "__main__":
    asyncio.run(main())
