"""One service's database refuses connections for 20 s under load (a failover), on real PostgreSQL and RabbitMQ.

A steady load of profile updates goes through the gateway; each writes an `identity.user.updated` event that
marketplace, payments and social handle. Marketplace's database then refuses new connections and its sessions
are terminated (`ALLOW_CONNECTIONS false`, `pg_terminate_backend`) for `PINBID_OUTAGE_SECONDS`. Before events
waited for their database, marketplace burnt each event's five deliveries in 1.6 s and dead-lettered it. Now:
0 dead letters, every event handled once by every consumer, and the figures printed (`-s`; also
`uv run python -m benchmarks.database_outage`)."""

import asyncio
import os
import time
import uuid

import httpx
import psycopg
import pytest
from pinbid_testing import eventually, refusing_connections

from .conftest import dead_letters

pytestmark = pytest.mark.slow  # run first (pinbid_testing.plugin)

OUTAGE_SECONDS = float(os.environ.get("PINBID_OUTAGE_SECONDS", "20"))
RATE = 10  # profile updates a second
CONSUMERS = ("marketplace", "payments", "social")


def rows(url: str, sql: str, *params) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute(sql, params).fetchall()


async def longest_wait(metrics_url: str) -> float:
    """The marketplace's own figure of how long its oldest waiter has waited."""
    async with httpx.AsyncClient(timeout=2) as http:
        text = (await http.get(metrics_url)).text
    return max((float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                if line.startswith("pinbid_database_wait_seconds{")), default=0.0)


@pytest.fixture
def run(launch):
    with launch(1) as started:
        yield started


async def test_a_database_away_for_20_seconds_dead_letters_nothing_and_loses_nothing(run):
    db = run["databases"]
    async with httpx.AsyncClient(base_url=run["gateways"][0], timeout=30) as http:
        users = []
        for _ in range(5):
            email = f"failover-{uuid.uuid4().hex[:8]}@example.com"
            response = await http.post("/api/auth/register", json={
                "name": "Failover Brand", "email": email, "password": "failover-pass-1", "role": "BUYER"})
            assert response.status_code == 201, response.text
            users.append(({"Authorization": f"Bearer {response.json()['token']}"}, email))

        answers: list[int] = []
        stopping = asyncio.Event()

        async def load() -> None:
            n = 0
            while not stopping.is_set():
                headers, email = users[n % len(users)]
                response = await http.put("/api/auth/profile", headers=headers,
                                          json={"name": f"Failover Brand {n}", "email": email})
                answers.append(response.status_code)
                n += 1
                await asyncio.sleep(1 / RATE)

        loading = asyncio.create_task(load())
        await eventually(lambda: answers.count(200) >= 2 * RATE, within=30)  # events flowing before the outage
        longest = 0.0
        with refusing_connections(db["marketplace"]):
            outage_end = time.monotonic() + OUTAGE_SECONDS
            while time.monotonic() < outage_end:
                await asyncio.sleep(1)
                longest = max(longest, await longest_wait(run["services"]["marketplace"] + "/metrics"))
        back, answered_before = time.monotonic(), len(answers)
        await eventually(lambda: len(answers) >= answered_before + 2 * RATE, within=30)  # and after it
        stopping.set()
        await loading

    sent = [r[0] for r in rows(db["identity"], "SELECT id FROM outbox WHERE type = 'identity.user.updated.v1'")]

    async def all_handled() -> bool:
        return all(rows(db[name], "SELECT count(DISTINCT event_id) FROM inbox WHERE event_id = ANY(%s)",
                        sent)[0][0] == len(sent) for name in CONSUMERS)

    await eventually(all_handled, within=120, every=0.5)
    drained = time.monotonic() - back
    depths = await dead_letters(run["amqp_url"], run["prefix"])

    print(f"\n{len(answers)} profile updates ({len(sent)} events) with marketplace's database away for "
          f"{OUTAGE_SECONDS:.0f} s: longest wait {longest:.1f} s, every event handled {drained:.1f} s after the "
          f"database returned, dead letters {sum(depths.values())}")
    assert set(answers) == {200}  # identity's database never went away: users noticed nothing
    assert longest >= OUTAGE_SECONDS / 2  # marketplace did wait (its handlers met the outage)
    assert set(CONSUMERS) <= set(depths) and set(depths.values()) == {0}, depths
