"""What the cross-service walks share (test_trust_walk, test_campaign_walk): social, payments and marketplace real,
on fresh databases and one in-process bus, on one movable clock; the people (registered on the bus, their sandbox
Instagram accounts connected as the browser does), a sold placement's steps (pinned in the sandbox Instagram app
with a screenshot, accepted, reported, answered, decided), SQL on each service, the sandbox checkout page paid
through HTTP, the ledger's figures, the provider's refunds, redelivery, and the wait until every announced event is
handled. The fixture
that builds the three services is `services` in this folder's conftest.py; each walk wraps it in its own World."""

import io
import uuid
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

import httpx
from PIL import Image
from pinbid_kit.envelope import Envelope
from pinbid_kit.events.identity import UserRegistered
from pinbid_kit.tokens import TokenSigner
from pinbid_payments import bookkeeping
from pinbid_testing import MovableClock, eventually
from sqlalchemy import text

PUBLIC = "http://pinbid.test"


class LateASGI(httpx.AsyncBaseTransport):
    """The sandbox provider's webhooks, sent to the payments app built after the client it is given."""

    def __init__(self, holder: dict):
        self.holder = holder

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await httpx.ASGITransport(app=self.holder["app"]).handle_async_request(request)


def png(color=(250, 250, 250)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (90, 160), color).save(out, "PNG")
    return out.getvalue()


@dataclass
class Sale:
    """One paid placement and its people."""

    bid: uuid.UUID
    slot: uuid.UUID
    post: str
    creator: uuid.UUID
    buyer: uuid.UUID


@dataclass
class Services:
    """The three services running on one bus, their HTTP clients, the clock and the token signer."""

    social: object
    payments: object
    marketplace: object
    bus: object
    clock: MovableClock
    signer: TokenSigner
    http: dict[str, httpx.AsyncClient]


class World:
    def __init__(self, services: Services):
        self.social, self.payments, self.marketplace = services.social, services.payments, services.marketplace
        self.bus, self.clock, self.signer = services.bus, services.clock, services.signer
        self.http = services.http
        self.sandbox_owner: dict[uuid.UUID, str] = {}
        self.operator = uuid.uuid4()

    def auth(self, user_id: uuid.UUID, role: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.signer.sign(user_id, role, 0)}"}

    async def act(self, service: str, method: str, path: str, user: uuid.UUID, role: str, *, status: int = 200,
                  **request) -> httpx.Response:
        """A person's request to one service, which must answer `status`."""
        answer = await self.http[service].request(method, path, headers=self.auth(user, role), **request)
        assert answer.status_code == status, answer.text
        return answer

    async def sql(self, service, statement: str, **params) -> list:
        async with service.db.transaction() as session:
            return list((await session.execute(text(statement), params)).all())

    async def one(self, service, statement: str, **params):
        rows = await self.sql(service, statement, **params)
        return rows[0][0] if rows else None

    # --- people ----------------------------------------------------------------------------------------------
    async def register(self, role: str, name: str, *, handle: str | None = None,
                       business: str | None = None) -> uuid.UUID:
        """Identity's announcement of a new user, on the bus (identity itself is not needed for the walks)."""
        user_id = uuid.uuid4()
        event = UserRegistered(user_id=user_id, email=f"{user_id.hex[:8]}@walk.test", name=name, role=role,
                               instagram_handle=handle, business_name=business)
        await self.bus.publish(Envelope(type=event.event_type, source="identity", data=event.payload()), {})
        return user_id

    async def connect(self, user_id: uuid.UUID, role: str, username: str) -> None:
        """Connects the sandbox Instagram account, as the browser does: authorize page, callback."""
        http = self.http["social"]
        started = await http.get("/instagram/connect", headers=self.auth(user_id, role))
        assert started.status_code == 200, started.text
        url, state = started.json()["url"], started.cookies["pinbid_ig_state"]
        parts = urlsplit(url)
        authorized = await http.post(f"{parts.path.removeprefix('/api')}?{parts.query}",
                                     content=f"action=approve&username={username}",
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert authorized.status_code == 303, authorized.text
        back = urlsplit(authorized.headers["location"])
        assert parse_qs(back.query).get("code"), authorized.headers["location"]
        answered = await http.get(f"{back.path.removeprefix('/api')}?{back.query}",
                                  headers={"Cookie": f"pinbid_ig_state={state}"})
        assert answered.status_code == 303, answered.text
        owner = answered.cookies.get("pinbid_sandbox_owner")
        http.cookies.delete("pinbid_sandbox_owner")
        if owner:
            self.sandbox_owner[user_id] = owner

    async def creator_and_brand(self, *, creator_handle: str = "maya.makes",
                                brand_handle: str = "northwind.coffee") -> tuple[uuid.UUID, uuid.UUID]:
        creator = await self.register("INFLUENCER", "Maya Creator", handle=creator_handle)
        buyer = await self.register("BUYER", "Leo Brand", business="Northwind Coffee")
        await self.connect(creator, "INFLUENCER", creator_handle)
        await self.connect(buyer, "BUYER", brand_handle)
        method = await self.http["social"].put("/instagram/pin-method", json={"pinMethod": "MANUAL"},
                                               headers=self.auth(creator, "INFLUENCER"))
        assert method.status_code == 200, method.text
        return creator, buyer

    async def brand(self, name: str, handle: str) -> uuid.UUID:
        """Another brand, with its Instagram account connected."""
        buyer = await self.register("BUYER", name, business=name)
        await self.connect(buyer, "BUYER", handle)
        return buyer

    # --- the creator's posts, known to marketplace ------------------------------------------------------------
    async def post(self, creator: uuid.UUID, index: int) -> str:
        """The id of the creator's `index`th synced post, once social's MediaSynced reached marketplace."""
        posts = await self.http["social"].get("/instagram/posts", headers=self.auth(creator, "INFLUENCER"))
        assert posts.status_code == 200, posts.text
        post = posts.json()[index]["id"]

        async def post_known() -> bool:
            return await self.one(self.marketplace, "SELECT count(*) FROM posts WHERE id = :p", p=post) == 1

        await eventually(post_known, within=10)
        return post

    # --- the pin, on the creator's word --------------------------------------------------------------------------
    async def pin_in_the_app(self, sale: Sale) -> None:
        """Pinbid posts the approved comment, the creator pins it in the (sandbox) Instagram app and presses "I
        pinned it" with a screenshot."""
        creator = self.auth(sale.creator, "INFLUENCER")

        async def approved_text() -> bool:  # marketplace's CommentApproved reached social
            return await self.one(self.social, "SELECT approved_text FROM bid_comments WHERE bid_id = :b",
                                  b=sale.bid) is not None

        await eventually(approved_text, within=10)
        posted = await self.http["social"].put(f"/influencer/pin-comment/{sale.bid}", headers=creator)
        assert posted.status_code == 200, posted.text
        pinned = await self.http["social"].post(
            f"/instagram/sandbox/p/{sale.post}", data={"comment": posted.json()["commentId"], "action": "pin"},
            headers={"Cookie": f"pinbid_sandbox_owner={self.sandbox_owner[sale.creator]}"})
        assert pinned.status_code in (200, 303), pinned.text
        confirmed = await self.http["social"].post(f"/influencer/pin-comment/{sale.bid}/confirm", headers=creator,
                                                   files={"screenshot": ("pinned.png", png(), "image/png")})
        assert confirmed.status_code == 200, confirmed.text

        async def payments_knows_the_pin() -> bool:
            return await self.one(self.payments, "SELECT awaits_acceptance FROM payments WHERE bid_id = :b "
                                  "AND pinned_at IS NOT NULL", b=sale.bid) is True

        await eventually(payments_knows_the_pin, within=10)

    # --- the brand, the creator, the operator ----------------------------------------------------------------------
    async def trust(self, sale: Sale) -> dict:
        return (await self.act("social", "GET", f"/instagram/placements/{sale.bid}/trust", sale.buyer, "BUYER")).json()

    async def accept(self, sale: Sale) -> None:
        await self.act("social", "POST", f"/buyer/placements/{sale.bid}/accept", sale.buyer, "BUYER")

    async def report(self, sale: Sale, reason: str) -> str:
        reported = await self.act("social", "POST", f"/buyer/placements/{sale.bid}/report", sale.buyer, "BUYER",
                                  json={"reason": reason})
        return reported.json()["dispute"]["id"]

    async def answer(self, sale: Sale, note: str | None = None) -> httpx.Response:
        return await self.http["social"].post(
            f"/influencer/placements/{sale.bid}/screenshot", headers=self.auth(sale.creator, "INFLUENCER"),
            files={"screenshot": ("fresh.png", png((10, 200, 10)), "image/png")},
            data={"note": note} if note else None)

    async def decide(self, dispute_id: str, outcome: str) -> None:
        await self.act("social", "POST", f"/ops/disputes/{dispute_id}/decision", self.operator, "OPERATOR",
                       json={"outcome": outcome, "reason": "Compared the screenshots with the post."})

    # --- the provider's pages ------------------------------------------------------------------------------------
    async def pay_on_the_checkout_page(self, url: str) -> None:
        """The brand pays on the sandbox's checkout page; the sandbox sends the signed webhooks to payments."""
        paid = await self.http["payments"].post("/" + url.split("/api/", 1)[1], data={"action": "pay"})
        assert paid.status_code in (200, 303), paid.text

    # --- time passes ---------------------------------------------------------------------------------------------
    async def settled(self) -> None:
        """Every event the services announced has been handled: the in-process bus runs the handlers before the
        relay marks a row sent, so the world is still when no outbox holds an unsent row and no outbox grew since
        the previous look (a handler's own events are written before the row that caused them is marked sent)."""
        seen: list[tuple] = []

        async def still() -> bool:
            now = []
            for service in (self.social, self.marketplace, self.payments):
                now.append(tuple((await self.sql(service, "SELECT count(*), count(*) FILTER (WHERE sent_at IS NULL) "
                                                          "FROM outbox"))[0]))
            quiet = all(unsent == 0 for _, unsent in now) and seen[-1:] == [tuple(now)]
            seen.append(tuple(now))
            return quiet

        await eventually(still, within=10, every=0.05)
        assert self.bus.dead_letters == []

    async def refund_job(self) -> int:
        refunded = await self.payments.state["refunds"].run_once()
        await self.settled()
        return refunded

    # --- what the books say ---------------------------------------------------------------------------------------
    async def balance(self, account: str) -> int:
        async with self.payments.db.transaction() as session:
            return await bookkeeping.balance(session, account)

    async def balanced(self) -> None:
        unbalanced = await self.sql(self.payments, "SELECT transaction_id FROM ledger_entries "
                                                   "GROUP BY transaction_id HAVING sum(amount_cents) <> 0")
        assert unbalanced == []
        assert await self.one(self.payments, "SELECT coalesce(sum(amount_cents), 0) FROM ledger_entries") == 0

    async def refunds_at_the_provider(self, payment_intent: str) -> list[int]:
        """The refunds the (sandbox) provider made on one payment intent, in cents, oldest first."""
        rows = await self.sql(self.payments, "SELECT amount_cents FROM sandbox_refunds WHERE payment_intent = :i "
                                             "ORDER BY created_at", i=payment_intent)
        return [r[0] for r in rows]

    async def redeliver(self, service, event_type: str) -> int:
        """The bus delivers again every event of `event_type` the service announced (at-least-once delivery)."""
        rows = await self.sql(service, "SELECT envelope FROM outbox WHERE type = :t ORDER BY seq", t=event_type)
        for row in rows:
            await self.bus.publish(Envelope.model_validate(row[0]), {})
        await self.settled()
        return len(rows)

    async def events(self, service, event_type: str) -> list[dict]:
        rows = await self.sql(service, "SELECT envelope FROM outbox WHERE type = :t ORDER BY seq", t=event_type)
        return [r[0]["data"] for r in rows]
