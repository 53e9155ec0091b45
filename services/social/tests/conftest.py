"""Fixtures for social's suites: a migrated database, the service on an in-process bus with the clock
the test moves (the shared `clock` fixture), signed tokens, and helpers to deliver events and read the outbox."""

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from cryptography.fernet import Fernet
from pinbid_kit import instagram_rules as ig
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import EventData
from pinbid_kit.events.identity import UserRegistered
from pinbid_kit.events.marketplace import BidAwarded, CommentApproved
from pinbid_kit.tokens import TokenSigner
from pinbid_social.app import build
from pinbid_social.settings import SocialSettings
from pinbid_testing import MovableClock, bearer_for, deliver, outbox_events, running
from sqlalchemy import text

PUBLIC = "http://pinbid.test"


@pytest.fixture
def settings(new_database, jwt_keys, tmp_path) -> SocialSettings:
    return SocialSettings(database_url=new_database("pinbid_social"), jwt_public_key_file=jwt_keys.public_key,
                          object_store_dir=tmp_path / "objects",
                          encryption_keys=Fernet.generate_key().decode(), public_url=PUBLIC, log_json=False,
                          posts_stale_seconds=300, sandbox_posts_per_account=6)


class Harness:
    """The running service and what tests do with it."""

    def __init__(self, service, signer: TokenSigner, clock: MovableClock):
        self.service = service
        self.signer = signer
        self.clock = clock
        self.http = httpx.AsyncClient(transport=httpx.ASGITransport(app=service.app), base_url="http://social")
        self.sandbox_owners: dict[uuid.UUID, str] = {}  # the sandbox owner cookie each user's browser was given

    def auth(self, user_id: uuid.UUID, role: str = "INFLUENCER") -> dict[str, str]:
        return bearer_for(self.signer, user_id, role)

    async def deliver(self, data: EventData, *, at: datetime | None = None) -> Envelope:
        return await deliver(self.service, data, at=at)

    async def award(self, award: BidAwarded) -> None:
        """A won, paid bid whose comment the creator approved, as marketplace announces them: a new text is
        approved with the disclosure first."""
        await self.deliver(award)
        await self.deliver(CommentApproved(
            bid_id=award.bid_id, slot_id=award.slot_id, creator_id=award.creator_id, buyer_id=award.buyer_id,
            comment_id=award.comment_id, text=ig.disclosed(award.comment_text or "", award.business_name or "Leo"),
            approved_at=datetime.now(UTC)))

    async def user(self, role: str = "INFLUENCER", *, handle: str | None = None, business: str | None = None,
                   name: str = "Test Person") -> uuid.UUID:
        user_id = uuid.uuid4()
        await self.deliver(UserRegistered(user_id=user_id, email=f"{user_id.hex[:8]}@example.com", name=name,
                                          role=role, instagram_handle=handle, business_name=business))
        return user_id

    async def events(self, event_type: str | None = None) -> list[dict]:
        return await outbox_events(self.service.db, event_type)

    async def sql(self, statement: str, **params):
        async with self.service.db.transaction() as session:
            return (await session.execute(text(statement), params)).all()

    async def start_connect(self, user_id: uuid.UUID, role: str = "INFLUENCER") -> tuple[str, str]:
        """GET /instagram/connect: the authorize url and the state cookie it set."""
        response = await self.http.get("/instagram/connect", headers=self.auth(user_id, role))
        assert response.status_code == 200, response.text
        return response.json()["url"], response.cookies["pinbid_ig_state"]

    async def authorize(self, url: str, *, action: str = "approve", username: str | None = None) -> str:
        """The person's answer on the sandbox authorize page; returns the redirect location."""
        parts = urlsplit(url)
        path = parts.path.removeprefix("/api")
        hint = parse_qs(parts.query).get("login_hint", [""])[0]
        response = await self.http.post(f"{path}?{parts.query}",
                                        content=f"action={action}&username={username or hint}",
                                        headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert response.status_code == 303, response.text
        return response.headers["location"]

    async def callback(self, location: str, cookie: str | None, user_id: uuid.UUID | None = None) -> str:
        parts = urlsplit(location)
        headers = {"Cookie": f"pinbid_ig_state={cookie}"} if cookie else {}
        response = await self.http.get(f"{parts.path.removeprefix('/api')}?{parts.query}", headers=headers)
        assert response.status_code == 303, response.text
        owner = response.cookies.get("pinbid_sandbox_owner")
        if owner is not None:  # one browser per user: kept apart from the shared client's jar
            self.http.cookies.delete("pinbid_sandbox_owner")
            if user_id is not None:
                self.sandbox_owners[user_id] = owner
        return response.headers["location"]

    def as_sandbox_owner(self, user_id: uuid.UUID) -> dict[str, str]:
        """The Cookie header of `user_id`'s browser, signed in to the sandbox Instagram by its connection."""
        return {"Cookie": f"pinbid_sandbox_owner={self.sandbox_owners[user_id]}"}

    async def connect(self, user_id: uuid.UUID, role: str = "INFLUENCER", *, username: str | None = None) -> str:
        url, cookie = await self.start_connect(user_id, role)
        return await self.callback(await self.authorize(url, username=username), cookie, user_id)


@pytest.fixture
async def social(settings, jwt_keys, clock) -> AsyncIterator[Harness]:
    service = build(settings, clock=clock)
    service.jobs = []  # tests run the jobs themselves, at the moment they choose
    async with running(service):
        harness = Harness(service, jwt_keys.signer, clock)
        yield harness
        await harness.http.aclose()
