"""Campaigns through the distributed run (issue 36): the time from a slot being listed to the campaign's bid, with
every service in its own process and RabbitMQ between them, the creator's call going through the gateway.

1. Starts the distributed run (python -m pinbid_launcher up) on its own ports, databases (PINBID_DB_PREFIX),
   broker names (the bus prefix follows the database prefix) and var folder, so it never touches `make up`'s run.
2. Through the gateway's /api: a creator and a brand register (identity tells marketplace over RabbitMQ); the brand
   creates a campaign (fitness, most per comment $20, a budget above SLOTS x $20) and funds it on payments' sandbox
   checkout page (the sandbox's webhook, payments' `campaign.funded` over RabbitMQ, marketplace makes it ACTIVE).
3. WARMUP slots listed one after the other, not counted; then SLOTS fitness slots listed in an open loop at RATE a
   second (each listing due at its time whatever the answers before it). The creator's posts are written straight
   into marketplace's `posts` read model (social's Instagram sync is not what is measured). Marketplace's relay
   publishes `slot.created` to RabbitMQ, marketplace's consumer of it matches the slot and bids for the campaign.
4. A watcher LISTENs to marketplace's outbox NOTIFY (every bid's write sends one at its commit) and reads the
   campaign's bids on the slots still waiting at each, and at least every POLL_MS. Printed:
   listed (the creator's 201) to the bid seen, p50/p99/max; the same stamped by marketplace itself (the bid's
   `created_at` minus the slot's, no polling in it); the creator's call; each process's CPU per slot; the load.
5. Checks: every slot got exactly one bid of the campaign, committed never above the budget, no 5xx. Stops what it
   started and drops its databases (KEEP=1 keeps them).

  uv run python services/marketplace/benchmarks/campaigns_distributed.py   (or make bench-campaigns)
Environment: SLOTS (300), RATE (5 slots a second), WARMUP (10), POLL_MS (50), BENCH_CAMPAIGNS_PREFIX (benchcamp),
BENCH_CAMPAIGNS_BASE_PORT (8741), BENCH_CAMPAIGNS_GATEWAY_PORT (8761), KEEP."""

import asyncio
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import psycopg
from pinbid_kit.outbox import NOTIFY_CHANNEL

sys.path.insert(0, str(Path(__file__).parent))
import bench_hot  # noqa: E402
import hot_rates  # noqa: E402
import hot_slot  # noqa: E402

PG = bench_hot.PG
PREFIX = os.environ.get("BENCH_CAMPAIGNS_PREFIX", "benchcamp")
BASE_PORT = int(os.environ.get("BENCH_CAMPAIGNS_BASE_PORT", "8741"))
GATEWAY_PORT = int(os.environ.get("BENCH_CAMPAIGNS_GATEWAY_PORT", "8761"))
SLOTS = int(os.environ.get("SLOTS", "300"))
RATE = float(os.environ.get("RATE", "5"))
WARMUP = int(os.environ.get("WARMUP", "10"))
POLL_SECONDS = float(os.environ.get("POLL_MS", "50")) / 1000
MAX_PER_SLOT = 20
BUDGET = (SLOTS + WARMUP) * MAX_PER_SLOT + 100
GIVE_UP_SECONDS = 60  # a bid not seen this long after the last listing is counted missing


@dataclass
class Listing:
    due: float
    answered: float = 0.0
    status: int | str = 0
    slot_id: str | None = None
    seen: float | None = None


@dataclass
class Run:
    listings: list[Listing]
    stamped: list[float]  # the bid's created_at minus the slot's, as marketplace stamped them, seconds
    bids_per_slot: Counter
    committed: float
    cpu_ms_per_slot: dict[str, float]
    load_start: str
    load_end: str
    statuses: Counter = field(default_factory=Counter)


def headers(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def write_posts(db: str, creator_id: str, count: int) -> list[str]:
    ids = [f"camp{uuid.uuid4().hex[:12]}" for _ in range(count)]
    with psycopg.connect(db, autocommit=True) as conn, conn.cursor() as cur:
        cur.executemany("INSERT INTO posts (id, user_id, media_type, media_url, permalink, caption, views, "
                        "like_count, comments_count) VALUES (%s, %s, 'IMAGE', 'https://img.test/c.jpg', "
                        "'https://ig.test/c', '', 0, 0, 0)", [(i, creator_id) for i in ids])
    return ids


async def eventually(check, what: str, within: float = 60) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if await check():
            return
        await asyncio.sleep(0.2)
    raise SystemExit(f"gave up waiting: {what}")


async def funded_campaign(http: httpx.AsyncClient, api: str, brand: str) -> str:
    """A fitness campaign created through the gateway and funded on the sandbox's checkout page: ACTIVE."""
    created = await http.post("/buyer/campaigns", headers=headers(brand), json={
        "name": "Bench fitness", "filters": {"category": "fitness"}, "budget": BUDGET, "maxPerSlot": MAX_PER_SLOT,
        "commentText": "Try our protein bars", "endsAt": (datetime.now(UTC) + timedelta(days=20)).isoformat()})
    created.raise_for_status()
    campaign_id = created.json()["id"]
    opened = await http.post(f"/buyer/campaigns/{campaign_id}/fund", headers=headers(brand))
    while opened.status_code == 404:  # payments has not heard of the campaign yet (marketplace's event on its way)
        await asyncio.sleep(0.3)
        opened = await http.post(f"/buyer/campaigns/{campaign_id}/fund", headers=headers(brand))
    opened.raise_for_status()
    paid = await http.post(api + "/" + opened.json()["url"].split("/api/", 1)[1], data={"action": "pay"})
    if paid.status_code not in (200, 303):
        raise SystemExit(f"the sandbox's checkout page answered {paid.status_code}: {paid.text}")

    async def active() -> bool:
        detail = await http.get(f"/buyer/campaigns/{campaign_id}", headers=headers(brand))
        return detail.status_code == 200 and detail.json()["status"] == "ACTIVE"

    await eventually(active, "the campaign's funding reaching marketplace")
    return campaign_id


async def list_slot(http: httpx.AsyncClient, creator: str, post_id: str, listing: Listing) -> None:
    try:
        answer = await http.post("/influencer/pin-slots", headers=headers(creator), json={
            "postId": post_id, "title": "Home gym routine", "category": "fitness", "minBid": 10,
            "auctionEnd": (datetime.now(UTC) + timedelta(days=2)).isoformat()})
        listing.answered, listing.status = time.perf_counter(), answer.status_code
        if answer.status_code == 201:
            listing.slot_id = answer.json()["id"]
    except httpx.HTTPError as exc:
        listing.answered, listing.status = time.perf_counter(), type(exc).__name__


async def watch(db: str, campaign_id: str, listings: list[Listing], done: asyncio.Event) -> None:
    """Which of the listed slots still waiting have the campaign's bid, read again whenever marketplace's outbox
    NOTIFY says something committed (a bid's write carries one), and at least every POLL_SECONDS."""
    async with await psycopg.AsyncConnection.connect(db, autocommit=True) as listen, \
            await psycopg.AsyncConnection.connect(db, autocommit=True) as conn:
        await listen.execute(f"LISTEN {NOTIFY_CHANNEL}")
        while True:
            waiting = {x.slot_id: x for x in listings if x.slot_id and x.seen is None}
            if waiting:
                rows = await (await conn.execute("SELECT slot_id FROM bids WHERE campaign_id = %s AND slot_id = "
                                                 "ANY(%s)", (campaign_id, list(waiting)))).fetchall()
                now = time.perf_counter()
                for (slot_id,) in rows:
                    waiting[str(slot_id)].seen = now
            elif done.is_set():
                return
            async for _ in listen.notifies(timeout=POLL_SECONDS, stop_after=1):
                pass


async def open_loop(http: httpx.AsyncClient, db: str, creator: str, campaign_id: str, posts: list[str],
                    rate: float) -> list[Listing]:
    start = time.perf_counter() + 0.5
    listings = [Listing(due=start + k / rate) for k in range(len(posts))]
    done = asyncio.Event()
    watcher = asyncio.create_task(watch(db, campaign_id, listings, done))

    async def due(listing: Listing, post_id: str) -> None:
        await asyncio.sleep(max(0.0, listing.due - time.perf_counter()))
        await list_slot(http, creator, post_id, listing)

    await asyncio.gather(*[due(x, p) for x, p in zip(listings, posts, strict=True)])
    done.set()
    try:
        await asyncio.wait_for(watcher, GIVE_UP_SECONDS)
    except TimeoutError:
        pass
    return listings


def stamped_and_counted(db: str, campaign_id: str, slot_ids: list[str]) -> tuple[list[float], Counter]:
    with psycopg.connect(db) as conn:
        rows = conn.execute("SELECT s.id, extract(epoch FROM b.created_at - s.created_at) FROM slots s JOIN bids b "
                            "ON b.slot_id = s.id AND b.campaign_id = %s WHERE s.id = ANY(%s)",
                            (campaign_id, slot_ids)).fetchall()
    return [float(r[1]) for r in rows], Counter(str(r[0]) for r in rows)


async def run(api: str, db: str, var: Path) -> Run:
    limits = httpx.Limits(max_connections=100, max_keepalive_connections=100)
    async with httpx.AsyncClient(base_url=api, timeout=30, limits=limits) as http:
        creator, creator_id = await hot_slot.register(http, "INFLUENCER", 0)
        brand, _ = await hot_slot.register(http, "BUYER", 1)
        posts = write_posts(db, creator_id, WARMUP + SLOTS)
        campaign_id = await funded_campaign(http, api, brand)
        print(f"campaign {campaign_id} ACTIVE (budget {BUDGET}, {MAX_PER_SLOT} a slot); warming up with {WARMUP} "
              "slots", flush=True)
        await open_loop(http, db, creator, campaign_id, posts[:WARMUP], 2.0)
        meter = hot_rates.CpuMeter(var)
        await meter.settled()
        load_start = bench_hot.load()
        print(f"listing {SLOTS} slots at {RATE:g} a second (open loop); load average {load_start}", flush=True)
        before = meter.read()
        listings = await open_loop(http, db, creator, campaign_id, posts[WARMUP:], RATE)
        after = meter.read()
        load_end = bench_hot.load()
        committed = (await http.get(f"/buyer/campaigns/{campaign_id}", headers=headers(brand))).json()["committed"]
    slot_ids = [x.slot_id for x in listings if x.slot_id]
    stamped, per_slot = stamped_and_counted(db, campaign_id, slot_ids)
    cpu = {name: (after[name] - before[name]) * 1000 / len(listings) for name in after}
    return Run(listings, stamped, per_slot, committed, cpu, load_start, load_end,
               Counter(x.status for x in listings))


def ms_line(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    return (f"p50 {statistics.median(ordered) * 1000:7.1f} ms   p99 {hot_slot.percentile(ordered, 0.99) * 1000:7.1f} "
            f"ms   max {ordered[-1] * 1000:7.1f} ms   (n {len(ordered)})")


def report(result: Run) -> int:
    seen = [x.seen - x.answered for x in result.listings if x.seen is not None and x.slot_id]
    print("\n== campaigns, distributed (gateway, RabbitMQ) ==")
    print(f"slots listed               {len(result.listings)} at {RATE:g}/s, open loop; load average at the start "
          f"{result.load_start}, at the end {result.load_end}")
    print(f"listed -> campaign's bid   {ms_line(seen)}   (the creator's 201 to the bid seen on its commit's "
          "NOTIFY)")
    print(f"  as marketplace stamped   {ms_line(result.stamped)}   (bid created_at - slot created_at)")
    print(f"the creator's call         {ms_line([x.answered - x.due for x in result.listings])}")
    print("CPU ms a slot              " + ", ".join(f"{name} {v:.2f}" for name, v in result.cpu_ms_per_slot.items()
                                                    if v >= 0.01))
    checks = {
        "every listing answered 201": set(result.statuses) == {201},
        "every slot got exactly one bid of the campaign": len(result.bids_per_slot) == len(result.listings)
        and set(result.bids_per_slot.values()) == {1},
        "committed within the budget": result.committed <= BUDGET,
    }
    for name, ok in checks.items():
        print(f"  {'OK  ' if ok else 'FAIL'} {name}")
    if set(result.statuses) != {201}:
        print(f"  answers: {dict(result.statuses)}")
    return 0 if all(checks.values()) else 1


def main() -> int:
    var = Path(tempfile.mkdtemp(prefix="pinbid-bench-campaigns-"))
    env = {**os.environ, "PINBID_DB_PREFIX": PREFIX, "PINBID_BASE_PORT": str(BASE_PORT),
           "PINBID_GATEWAY_PORT": str(GATEWAY_PORT), "PINBID_VAR": str(var)}
    databases = [f"{PREFIX}_{module.name}" for module in bench_hot.services.installed()]

    def drop() -> None:
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            for name in databases:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    drop()
    try:
        print(f"starting the distributed run (databases {PREFIX}_*, gateway :{GATEWAY_PORT}, var {var})", flush=True)
        bench_hot.launcher("up", env)
        result = asyncio.run(run(f"http://127.0.0.1:{GATEWAY_PORT}/api", f"{PG}/{PREFIX}_marketplace", var))
    finally:
        bench_hot.launcher("down", env)
        if not os.environ.get("KEEP"):
            drop()
    return report(result)


if __name__ == "__main__":
    sys.exit(main())
