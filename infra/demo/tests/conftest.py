"""One service of the demo world on a fresh real database and an in-process bus, with what its part of the seeding
tests need: delivering the events the other services would send, and reading what it announced."""

from collections.abc import AsyncIterator

import pytest
from cryptography.fernet import Fernet
from pinbid_kit.events import EventData
from pinbid_kit.runtime import Service
from pinbid_marketplace.app import build as build_marketplace
from pinbid_marketplace.settings import MarketplaceSettings
from pinbid_social.app import build as build_social
from pinbid_social.settings import SocialSettings
from pinbid_testing import MovableClock, deliver, outbox_events, running


class Running:
    def __init__(self, service: Service, clock: MovableClock):
        self.service, self.clock = service, clock

    async def deliver(self, data: EventData) -> None:
        await deliver(self.service, data)

    async def events(self, event_type: str) -> list[dict]:
        return await outbox_events(self.service.db, event_type)


@pytest.fixture
async def social(new_database, jwt_keys, tmp_path, clock) -> AsyncIterator[Running]:
    settings = SocialSettings(database_url=new_database("pinbid_social"), jwt_public_key_file=jwt_keys.public_key,
                              object_store_dir=tmp_path / "objects", encryption_keys=Fernet.generate_key().decode(),
                              public_url="http://pinbid.test", log_json=False, sandbox_posts_per_account=6)
    service = build_social(settings, clock=clock)
    service.jobs = []  # the seeding runs before the jobs start, as in the embedded run
    async with running(service):
        yield Running(service, clock)


@pytest.fixture
async def marketplace(new_database, jwt_keys, clock) -> AsyncIterator[Running]:
    settings = MarketplaceSettings(database_url=new_database("pinbid_marketplace"),
                                   jwt_public_key_file=jwt_keys.public_key,
                                   closer_interval_seconds=3600)
    service = build_marketplace(settings, clock=clock)
    service.jobs = []
    async with running(service):
        yield Running(service, clock)
