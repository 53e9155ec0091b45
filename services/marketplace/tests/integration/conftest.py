"""A marketplace on a fresh real database, with tokens, a controllable clock and read models fed by events."""

import contextlib
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import EventData
from pinbid_kit.events import identity as i
from pinbid_kit.events import social as s
from pinbid_kit.tokens import TokenSigner
from pinbid_marketplace import store
from pinbid_marketplace.app import build
from pinbid_marketplace.settings import MarketplaceSettings
from pinbid_testing import MovableClock, bearer_for, client, deliver, running
from sqlalchemy import text


class World:
    def __init__(self, service, signer: TokenSigner, clock: MovableClock):
        self.service, self.signer, self.clock = service, signer, clock
        self.http = client(service.app)

    def auth(self, user_id: uuid.UUID, role: str) -> dict[str, str]:
        return bearer_for(self.signer, user_id, role)

    async def deliver(self, data: EventData, source: str = "test") -> Envelope:
        return await deliver(self.service, data, source=source)

    async def buyer(self, name: str = "Brand") -> dict[str, str]:
        user_id = uuid.uuid4()
        await self.deliver(i.UserRegistered(user_id=user_id, email=f"{user_id.hex[:8]}@b.test", name=name,
                                            role="BUYER", business_name=f"{name} Inc"))
        headers = self.auth(user_id, "BUYER")
        headers["x-user"] = str(user_id)
        return headers

    async def creator(self, posts: int = 3, *, followers: int = 20_000, views: int = 5_000,
                      verified: bool = True, name: str = "Maya") -> tuple[dict[str, str], list[str]]:
        user_id = uuid.uuid4()
        await self.deliver(i.UserRegistered(user_id=user_id, email=f"{user_id.hex[:8]}@c.test", name=name,
                                            role="INFLUENCER", instagram_handle="maya"))
        await self.deliver(s.AccountConnected(user_id=user_id, instagram_id="ig" + user_id.hex[:6], username="maya",
                                              profile=s.CreatorProfile(followers=followers, avg_views=views,
                                                                       avg_engagement=Decimal("4.5"),
                                                                       verified=verified)))
        ids = [f"m{user_id.hex[:10]}{n}" for n in range(posts)]
        await self.deliver(s.MediaSynced(user_id=user_id, instagram_id="ig", posts=[
            s.SyncedPost(id=pid, media_type="IMAGE", media_url=f"https://img.test/{pid}.jpg",
                         permalink=f"https://instagram.test/p/{pid}") for pid in ids]))
        headers = self.auth(user_id, "INFLUENCER")
        headers["x-user"] = str(user_id)
        return headers, ids

    async def slot(self, creator: dict[str, str], post_id: str, **fields) -> dict:
        body = {"postId": post_id, "title": "Morning latte art", "description": "A reel", "category": "food",
                "minBid": 10, "auctionEnd": (self.clock.now + timedelta(days=2)).isoformat(), **fields}
        response = await self.http.post("/influencer/pin-slots", json=body, headers=creator)
        assert response.status_code == 201, response.text
        return response.json()

    async def bid(self, buyer: dict[str, str], slot_id: str, amount, **fields):
        return await self.http.post("/buyer/bids", json={"pinSlotId": slot_id, "amount": amount, **fields},
                                    headers=buyer)


@contextlib.asynccontextmanager
async def a_world(database_url: str, jwt_keys) -> AsyncIterator[World]:
    clock = MovableClock(datetime.now(UTC).replace(microsecond=0))
    settings = MarketplaceSettings(database_url=database_url, jwt_public_key_file=jwt_keys.public_key,
                                   closer_interval_seconds=3600, campaign_clock_seconds=3600, db_pool_size=10,
                                   db_max_overflow=15)
    service = build(settings, clock=clock)
    async with running(service):
        w = World(service, jwt_keys.signer, clock)
        yield w
        await w.http.aclose()


@pytest.fixture
async def world(new_database, jwt_keys):
    async with a_world(new_database("pinbid_marketplace"), jwt_keys) as w:
        yield w


@pytest.fixture(scope="module")
async def shared_world(run_databases, jwt_keys):
    """One world for the tests of a module that change nothing in it (refusals, reads; each still checks what it
    claims): building and starting the service and its data was most of such a test's time."""
    database_url = run_databases.new_shared("pinbid_marketplace")
    try:
        async with a_world(database_url, jwt_keys) as w:
            yield w
    finally:
        run_databases.release_shared(database_url)


def market_fixtures(build: Callable[[World], Awaitable[tuple]], shared: str = "unchanged_market"):
    """A module's two markets built by `build`: `market` in a world of its own, for a test that changes it, and
    `shared` (module-scoped) in the shared world, for the tests that leave it unchanged (reads, refusals)."""

    @pytest.fixture(name="market")
    async def own_market(world):
        return await build(world)

    @pytest.fixture(name=shared, scope="module")
    async def shared_market(shared_world):
        return await build(shared_world)

    return own_market, shared_market


async def snapshot(world: World) -> tuple:
    """Everything a refused request must leave unchanged: slots, bids and the outbox."""
    async with world.service.db.transaction() as session:
        slots = (await session.execute(text("SELECT id, title, description, current_bid, bid_count, status, "
                                            "auction_end FROM slots ORDER BY id"))).all()
        bids = (await session.execute(text("SELECT id, amount, ceiling, status, comment_text FROM bids "
                                           "ORDER BY id"))).all()
        outbox = await session.scalar(text("SELECT count(*) FROM outbox"))
    return slots, bids, outbox


def after_the_next_read(monkeypatch, change: Callable[[store.SlotRows], Awaitable[None]]) -> list[store.SlotRows]:
    """Runs `change` once, right after the next batch's read of its slot and before its write (another writer
    between the two). Returns what that read saw, once it has happened."""
    read = store.read_for_placement
    seen_first: list[store.SlotRows] = []

    async def read_then_change(conn, *args):
        seen = await read(conn, *args)
        if not seen_first:
            seen_first.append(seen)
            await change(seen)
        return seen

    monkeypatch.setattr(store, "read_for_placement", read_then_change)
    return seen_first
