"""Services under test: run them as the launcher does, and talk to their apps without a network."""

import contextlib
from collections.abc import AsyncIterator

import httpx
from pinbid_kit.bus import Bus, InProcessBus
from pinbid_kit.runtime import Service


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
