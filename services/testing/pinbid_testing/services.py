"""Services under test: run them as the launcher does, and talk to their apps without a network."""

import contextlib
import uuid
from collections.abc import AsyncIterator
from datetime import datetime
from decimal import Decimal

import httpx
from pinbid_kit.bus import Bus, InProcessBus
from pinbid_kit.db import Database
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import EventData
from pinbid_kit.events import social as s
from pinbid_kit.runtime import Service
from pinbid_kit.tokens import TokenSigner
from sqlalchemy import text


@contextlib.asynccontextmanager
async def running(*services: Service, bus: Bus | None = None) -> AsyncIterator[Bus]:
    """Run services as the launcher does (consumers subscribed, outbox relay and jobs started) on
    `bus` (an in-process bus by default). Yields the bus."""
    bus = bus or InProcessBus(retry_base_seconds=0.01)
    for service in services:
        service.attach(bus, relay_idle_seconds=0.2)
    await bus.start()
    for service in services:
        await service.start_background()
    try:
        yield bus
    finally:
        for service in services:
            await service.stop_background()
        await bus.stop()
        for service in services:
            await service.db.dispose()


def client(app) -> httpx.AsyncClient:
    """An HTTP client for an ASGI app, without a network."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app, raise_app_exceptions=False),
                             base_url="http://test")


async def deliver(service: Service, data: EventData, *, source: str = "test", at: datetime | None = None) -> Envelope:
    """Hand an event to the service's consumers as the bus would (each handler once, through the inbox), as of `at`
    (now by default). Returns its envelope, to deliver again."""
    envelope = Envelope(type=data.event_type, source=source, data=data.payload(),
                        **({"occurred_at": at} if at is not None else {}))
    await service.consumers.dispatch(envelope, {})
    return envelope


async def announce_a_post(bus: Bus, creator_id: uuid.UUID) -> None:
    """What social announces on the bus when a creator connects an Instagram account with one post (`media-1`)."""
    for data in (s.AccountConnected(user_id=creator_id, instagram_id="ig-1", username="maya.makes",
                                    profile=s.CreatorProfile(followers=25_000, avg_views=6_000,
                                                             avg_engagement=Decimal("4.2"), verified=True)),
                 s.MediaSynced(user_id=creator_id, instagram_id="ig-1", posts=[s.SyncedPost(
                     id="media-1", media_type="IMAGE", media_url="https://img.test/1.jpg",
                     permalink="https://instagram.test/p/1")])):
        await bus.publish(Envelope(type=data.event_type, source="social", data=data.payload()), {})


async def outbox_events(db: Database, event_type: str | None = None) -> list[dict]:
    """The data of the events a service wrote to its outbox, in the order written (only `event_type`'s, if given)."""
    async with db.transaction() as session:
        rows = (await session.execute(text("SELECT type, envelope FROM outbox ORDER BY seq"))).all()
    return [r.envelope["data"] for r in rows if event_type is None or r.type == event_type]


def bearer_for(signer: TokenSigner, user_id: uuid.UUID, role: str, token_version: int = 0) -> dict[str, str]:
    """The Authorization header of a signed-in user."""
    return {"Authorization": f"Bearer {signer.sign(user_id, role, token_version)}"}
