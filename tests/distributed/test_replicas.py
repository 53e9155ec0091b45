"""Two replicas of everything (`make up REPLICAS=2`: two processes of each service and two gateways, on real
PostgreSQL and RabbitMQ) run complete rounds: slot → bids → close → approve → pay → pin → payout. Requests
alternate between the two gateways, both marketplace replicas run the closer, both payments replicas the
payout worker, and every replica consumes from its service's shared queue. The run proves what replicas
must not break: each auction closes once, each event has one effect, each payout is made once, and nothing
is left in any outbox or dead-letter queue.

The calendar is the one thing simulated: payouts are due on a schedule day, so two payout workers (the
two replicas' code, built on the same database) run for next Monday at the same moment."""

import asyncio
import itertools
import os
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit, urlunsplit

import httpx
import psycopg
import pytest
from pinbid_kit.secrets import load_or_create_key
from pinbid_testing import eventually

from .conftest import dead_letters

pytestmark = pytest.mark.slow  # run first (pinbid_testing.plugin)

ROUNDS = int(os.environ.get("PINBID_REPLICA_ROUNDS", "6"))
BIDS = (70, 85, 100, 120)  # one per brand: the last brand wins and pays the second price


@pytest.fixture
def run(launch):
    with launch(2) as started:
        yield started


class Gateways:
    """Requests alternate between the two gateways (and so between the two replicas of each service)."""

    def __init__(self, urls: list[str]):
        self.urls = urls
        self.clients = [httpx.AsyncClient(base_url=url, timeout=30) for url in urls]
        self._next = itertools.cycle(self.clients)

    def __call__(self) -> httpx.AsyncClient:
        return next(self._next)

    def local(self, url: str) -> str:
        """A link a service built from its public URL, sent to the first gateway of this run."""
        parts, target = urlsplit(url), urlsplit(self.urls[0])
        return urlunsplit((target.scheme, target.netloc, parts.path, parts.query, parts.fragment))

    async def close(self) -> None:
        for c in self.clients:
            await c.aclose()


async def register(api: Gateways, role: str, handle: str = "") -> tuple[dict[str, str], str]:
    tag = uuid.uuid4().hex[:8]
    body = {"name": f"Replica {role.title()}", "email": f"replica-{tag}@example.com", "password": "replica-pass-1",
            "role": role, **({"instagramHandle": handle} if role == "INFLUENCER" else {"businessName": f"Brand {tag}"})}
    response = await api().post("/api/auth/register", json=body)
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}, response.json()["user"]["id"]


async def until(check, within: float = 90.0):
    found = []

    async def done() -> bool:
        result = await check()
        if result:
            found.append(result)
        return bool(result)

    await eventually(done, within=within, every=0.2)
    return found[0]


async def creator_with_posts(api: Gateways) -> tuple[dict[str, str], str, str, list[str]]:
    username = f"replica_{uuid.uuid4().hex[:6]}"
    creator, creator_id = await register(api, "INFLUENCER", username)
    # started through the second gateway and finished through the first, as one browser (cookies are per
    # host, not per port): the state one social replica signed is checked by the other
    start = (await api.clients[1].get("/api/instagram/connect", headers=creator)).json()["url"]
    api.clients[0].cookies.update(api.clients[1].cookies)
    authorize = await api.clients[0].post(api.local(start), data={"username": username, "action": "approve"})
    connected = await api.clients[0].get(api.local(authorize.headers["location"]))
    assert "connected=1" in connected.headers["location"], connected.headers

    async def posts():
        response = await api().get("/api/instagram/posts", headers=creator)
        return [p["id"] for p in response.json()] if response.status_code == 200 and response.json() else None

    post_ids = await until(posts)
    settings = await api().put("/api/influencer/payout-settings", headers=creator, json={
        "payoutMethod": "PAYPAL", "paypalEmail": f"{username}@example.com", "minimumPayout": 50,
        "schedule": "WEEKLY", "taxFormSubmitted": True})
    assert settings.status_code == 200, settings.text
    login = await api().post("/api/influencer/instagram-login", headers=creator,
                             json={"username": username, "password": "sandbox"})
    assert login.status_code == 200, login.text
    return creator, creator_id, username, post_ids


async def one_round(api: Gateways, marketplace_db: str, creator: dict, post_id: str,
                    brands: list[dict[str, str]], accepted: Counter) -> str:
    """slot → bids from every brand → closed by the closers → approved → paid → pinned; returns the bid id."""

    async def listed():
        response = await api().post("/api/influencer/pin-slots", headers=creator, json={
            "postId": post_id, "title": f"Replica slot {uuid.uuid4().hex[:6]}", "description": "",
            "category": "tech", "minBid": 60, "duration": 7,
            "auctionEnd": (datetime.now(UTC) + timedelta(hours=2)).isoformat()})
        return response.json()["id"] if response.status_code == 201 else None

    slot_id = await until(listed)  # the post reaches marketplace as an event from social
    for amount, brand in zip(BIDS, brands, strict=True):
        placed = await api().post("/api/buyer/bids", headers=brand, json={
            "pinSlotId": slot_id, "amount": amount, "newCommentText": f"Ad · our offer {amount} #ad"})
        assert placed.status_code == 201, placed.text
        accepted[slot_id] += 1
    with psycopg.connect(marketplace_db, autocommit=True) as conn:  # time passes: the auction is over
        conn.execute("UPDATE slots SET auction_end = now() - interval '1 second' WHERE id = %s", (slot_id,))

    async def awaiting_approval():
        response = await api().get("/api/influencer/approvals", headers=creator)
        return next((b["id"] for b in response.json() if b["pinSlot"]["id"] == slot_id), None)

    bid_id = await until(awaiting_approval)
    approved = await api().post(f"/api/influencer/approvals/{bid_id}", headers=creator, json={"status": "APPROVED"})
    assert approved.status_code == 200, approved.text
    winner = brands[-1]

    async def checkout():
        response = await api().post("/api/payments/create-checkout-session", headers=winner, json={"bidId": bid_id})
        return response.json()["url"] if response.status_code == 200 else None

    paid = await api.clients[0].post(api.local(await until(checkout)), data={"action": "pay"})
    assert paid.status_code == 303, paid.text

    async def status(wanted: str):
        bids = (await api().get("/api/buyer/bids", headers=winner)).json()
        return any(b["id"] == bid_id and b["status"] == wanted for b in bids)

    await until(lambda: status("WON"))

    async def pinned():
        response = await api().put(f"/api/influencer/pin-comment/{bid_id}", headers=creator)
        return response.status_code == 200

    await until(pinned)  # the award reaches social as an event; until then there is nothing to pin
    await until(lambda: status("PINNED"))
    return bid_id


def rows(url: str, sql: str, *params) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute(sql, params).fetchall()


async def test_two_replicas_of_everything_run_complete_rounds_once(run):
    await complete_rounds_once(run)


async def complete_rounds_once(run: dict) -> None:
    from pinbid_payments.app import build as build_payments
    from pinbid_payments.settings import PaymentsSettings

    api = Gateways(run["gateways"])
    db = run["databases"]
    accepted: Counter = Counter()
    try:
        brands = [(await register(api, "BUYER"))[0] for _ in BIDS]
        creator, creator_id, _, post_ids = await creator_with_posts(api)
        assert len(post_ids) >= ROUNDS, post_ids
        bid_ids = await asyncio.gather(*(one_round(api, db["marketplace"], creator, post_id, brands, accepted)
                                         for post_id in post_ids[:ROUNDS]))  # rounds at the same time

        async def pinned_earnings_available():
            return rows(db["payments"], "SELECT count(*) FROM earnings WHERE creator_id = %s AND available_at "
                        "IS NOT NULL", creator_id)[0][0] == ROUNDS

        await until(pinned_earnings_available)

        # payday: both payments replicas' payout workers at the same moment
        next_monday = (datetime.now(UTC) + timedelta(days=7 - datetime.now(UTC).weekday())).replace(hour=12)
        keys = run["var"] / "keys"
        settings = PaymentsSettings(database_url=db["payments"], encryption_keys=load_or_create_key(keys / "data.key"),
                                    jwt_public_key_file=keys / "jwt-ed25519.pub")
        replicas = [build_payments(settings, clock=lambda: next_monday) for _ in range(2)]
        try:
            await asyncio.gather(*(r.state["payouts"].run_once() for r in replicas))
            await asyncio.gather(*(r.state["payouts"].run_once() for r in replicas))  # and again: nothing more
        finally:
            for r in replicas:
                await r.db.dispose()

        # nothing left behind: every outbox drained, every dead-letter queue empty
        async def drained():
            return all(rows(url, "SELECT count(*) FROM outbox WHERE sent_at IS NULL")[0][0] == 0
                       for url in db.values())

        await until(drained)
        depths = await dead_letters(run["amqp_url"], run["prefix"])
        assert {"identity", "marketplace", "payments", "social"} <= set(depths), depths  # every consumer's
        assert set(depths.values()) == {0}, depths
    finally:
        await api.close()

    # each auction closed once, with every accepted bid counted
    closed = Counter(r[0] for r in rows(db["marketplace"], "SELECT envelope->'data'->>'slotId' FROM outbox "
                                        "WHERE type = 'marketplace.auction.closed.v1' "
                                        "AND envelope->'data'->>'creatorId' = %s", creator_id))
    assert sorted(closed.values()) == [1] * ROUNDS
    counts = dict(rows(db["marketplace"], "SELECT id::text, bid_count FROM slots WHERE creator_id = %s", creator_id))
    assert counts == dict(accepted)

    # each event one effect: one payment, one earning, one completion in the ledger, one placement per bid
    for table in ("payments", "earnings"):
        assert Counter(r[0] for r in rows(db["payments"], f"SELECT bid_id FROM {table} WHERE creator_id = %s",
                                          creator_id)) == \
            Counter({uuid.UUID(b): 1 for b in bid_ids}), table
    ledger = rows(db["payments"], "SELECT t.kind, t.payment_id, sum(e.amount_cents) FROM ledger_transactions t "
                  "JOIN ledger_entries e ON e.transaction_id = t.id GROUP BY t.id")
    assert all(total == 0 for _, _, total in ledger), "every ledger transaction balances"
    per_payment = Counter((kind, payment) for kind, payment, _ in ledger if payment is not None)
    assert set(per_payment.values()) == {1}, per_payment
    placements = rows(db["social"], "SELECT bid_id FROM placements WHERE creator_id = %s", creator_id)
    assert Counter(r[0] for r in placements) == Counter({uuid.UUID(b): 1 for b in bid_ids})
    notices = Counter(rows(db["identity"], "SELECT user_id, kind, source_event_id FROM notifications "
                           "WHERE source_event_id IS NOT NULL"))
    assert notices and set(notices.values()) == {1}, "a notice per event and person, never two"

    # each payout made once: one payout for the period, paid once, announced once
    payouts = rows(db["payments"], "SELECT id, status FROM payouts WHERE creator_id = %s", creator_id)
    assert [status for _, status in payouts] == ["PAID"], payouts
    paid_events = rows(db["payments"], "SELECT count(*) FROM outbox WHERE type = 'payments.payout.paid.v1' "
                       "AND envelope->'data'->>'creatorId' = %s", creator_id)[0][0]
    assert paid_events == 1

    events = sum(rows(url, "SELECT count(*) FROM outbox")[0][0] for url in db.values())
    handled = sum(rows(url, "SELECT count(*) FROM inbox")[0][0] for url in db.values())
    print(f"replicas: {ROUNDS} rounds, {sum(accepted.values())} bids, {events} events published, {handled} "
          f"handled (event, handler) pairs, {sum(closed.values())} closes, {len(payouts)} payout, "
          f"0 duplicates, 0 left in outboxes and dead-letter queues")
