"""Fixtures for payments' suites: a fresh migrated database per test (a clone of the run's template), a service
on a settable clock, signed tokens, and helpers to feed it events and read what it wrote."""

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime

import httpx
import pytest
from cryptography.fernet import Fernet
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import EventData
from pinbid_kit.events.marketplace import BidApproved
from pinbid_kit.events.social import CommentPinned, PlacementCompleted
from pinbid_kit.tokens import TokenSigner
from pinbid_payments import bookkeeping
from pinbid_payments.app import build
from pinbid_payments.settings import PaymentsSettings
from pinbid_testing import MovableClock, bearer_for, client, deliver, outbox_events
from sqlalchemy import text


@dataclass
class Harness:
    service: object
    settings: PaymentsSettings
    clock: MovableClock
    http: httpx.AsyncClient
    signer: TokenSigner
    users: dict = field(default_factory=dict)

    @property
    def db(self):
        return self.service.db

    def token(self, user_id: uuid.UUID, role: str) -> dict[str, str]:
        return bearer_for(self.signer, user_id, role)

    async def deliver(self, data: EventData, source: str = "marketplace") -> Envelope:
        return await deliver(self.service, data, source=source)

    async def approve(self, price_cents: int = 10_000, *, buyer=None, creator=None) -> BidApproved:
        event = BidApproved(bid_id=uuid.uuid4(), slot_id=uuid.uuid4(), slot_title="Summer drop reel",
                            creator_id=creator or uuid.uuid4(), buyer_id=buyer or uuid.uuid4(),
                            final_price_cents=price_cents)
        await self.deliver(event)
        return event

    async def pay(self, approved: BidApproved) -> httpx.Response:
        """The buyer's whole path: checkout, then Pay on the sandbox page."""
        response = await self.http.post("/payments/create-checkout-session", json={"bidId": str(approved.bid_id)},
                                        headers=self.token(approved.buyer_id, "BUYER"))
        assert response.status_code == 200, response.text
        path = "/" + response.json()["url"].split("/api/", 1)[1]
        return await self.http.post(path, data={"action": "pay"})

    async def pin(self, approved: BidApproved) -> None:
        """The comment is pinned: the first stage (a quarter of the creator's share) is released."""
        await self.deliver(CommentPinned(bid_id=approved.bid_id, slot_id=approved.slot_id,
                                         creator_id=approved.creator_id, buyer_id=approved.buyer_id,
                                         comment_id="c1", comment_text="Ad · @brand: Love it", pinned_at=self.clock()),
                           source="social")

    async def complete(self, approved: BidApproved) -> None:
        """The placement ran its whole duration: the rest of the creator's share is released."""
        await self.deliver(PlacementCompleted(bid_id=approved.bid_id, slot_id=approved.slot_id,
                                              creator_id=approved.creator_id, completed_at=self.clock()),
                           source="social")

    async def scalar(self, sql: str, **params):
        async with self.db.transaction() as session:
            return (await session.execute(text(sql), params)).scalar()

    async def rows(self, sql: str, **params):
        async with self.db.transaction() as session:
            return (await session.execute(text(sql), params)).all()

    async def events(self, event_type: str) -> list[dict]:
        return await outbox_events(self.db, event_type)

    async def status(self, approved: BidApproved) -> str:
        return await self.scalar("SELECT status FROM payments WHERE bid_id = :b", b=approved.bid_id)

    async def balance(self, account: str) -> int:
        async with self.db.transaction() as session:
            return await bookkeeping.balance(session, account)


def make_settings(database_url: str, public_key, **overrides) -> PaymentsSettings:
    values = dict(database_url=database_url, jwt_public_key_file=public_key, public_url="http://pinbid.test",
                  sandbox_webhook_url="http://test/payments/webhook", encryption_keys=Fernet.generate_key().decode(),
                  log_json=False)
    values.update(overrides)
    return PaymentsSettings(**values)


@pytest.fixture
async def make_harness(new_database, jwt_keys):
    made: list[Harness] = []

    async def make(**overrides) -> Harness:
        signer, public = jwt_keys
        clock = MovableClock(overrides.pop("now", datetime(2026, 11, 18, 12, 0, tzinfo=UTC)))
        url = overrides.pop("database_url", None) or new_database("pinbid_payments")
        settings = make_settings(url, public, **overrides)
        transport_holder: dict = {}
        http = httpx.AsyncClient(transport=_LateASGI(transport_holder), base_url="http://test")
        service = build(settings, clock=clock, http=http)
        transport_holder["app"] = service.app
        harness = Harness(service, settings, clock, client(service.app), signer)
        made.append(harness)
        return harness

    yield make
    for harness in made:
        await harness.service.db.dispose()


class _LateASGI(httpx.AsyncBaseTransport):
    """An ASGI transport to an app built after the client (the sandbox needs the client to build)."""

    def __init__(self, holder: dict):
        self.holder = holder

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await httpx.ASGITransport(app=self.holder["app"]).handle_async_request(request)


@pytest.fixture
async def pay(make_harness) -> Harness:
    return await make_harness()
