"""Hot slot: N concurrent bidders on one slot for S seconds through the gateway; prints bids/s, latency
percentiles, status counts, and checks the slot's state at the end against the database.

Start the distributed run first (see README), then:
  uv run python services/marketplace/benchmarks/hot_slot.py --api http://127.0.0.1:8310/api \
      --db postgresql://postgres@127.0.0.1:5432/bench_marketplace_marketplace
The creator's post is written straight into marketplace's `posts` read model (social may not run)."""

import argparse
import asyncio
import random
import statistics
import time
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta

import aiohttp
import httpx
import psycopg


async def register(http: httpx.AsyncClient, role: str, n: int) -> tuple[str, str]:
    email = f"bench-{role.lower()}-{n}-{uuid.uuid4().hex[:6]}@example.com"
    body = {"name": f"Bench {role.title()} {n}", "email": email, "password": "bench-password-1", "role": role}
    if role == "INFLUENCER":
        body["instagramHandle"] = f"bench{n}"
    response = await http.post("/auth/register", json=body)
    response.raise_for_status()
    data = response.json()
    return data["token"], data["user"]["id"]


async def main(args) -> None:
    limits = httpx.Limits(max_connections=args.bidders + 10, max_keepalive_connections=args.bidders + 10)
    async with httpx.AsyncClient(base_url=args.api, timeout=30, limits=limits) as http:
        creator_token, creator_id = await register(http, "INFLUENCER", 0)
        post_id = f"bench{uuid.uuid4().hex[:12]}"
        with psycopg.connect(args.db, autocommit=True) as conn:
            conn.execute("INSERT INTO posts (id, user_id, media_type, media_url, permalink, caption, views, "
                         "like_count, comments_count) VALUES (%s, %s, 'IMAGE', 'https://img.test/b.jpg', "
                         "'https://ig.test/b', '', 0, 0, 0)", (post_id, creator_id))
        slot = await http.post("/influencer/pin-slots", headers={"Authorization": f"Bearer {creator_token}"},
                               json={"postId": post_id, "title": "Hot slot", "category": "tech", "minBid": 1,
                                     "auctionEnd": (datetime.now(UTC) + timedelta(days=2)).isoformat()})
        slot.raise_for_status()
        slot_id = slot.json()["id"]
        sem = asyncio.Semaphore(10)

        async def buyer(n: int) -> str:
            async with sem:
                return (await register(http, "BUYER", n))[0]

        tokens = await asyncio.gather(*[buyer(n) for n in range(args.bidders)])
        print(f"{args.bidders} buyers registered; bidding for {args.seconds}s on slot {slot_id}")
        shared = {"current": 1.0}
        latencies: list[float] = []
        statuses: Counter = Counter()
        deadline = time.perf_counter() + args.seconds

        async def bidder(session: aiohttp.ClientSession, token: str) -> None:
            rng = random.Random(token)
            headers = {"Authorization": f"Bearer {token}"}
            while time.perf_counter() < deadline:
                amount = round(shared["current"] + rng.randint(1, 300) / 100, 2)
                body = {"pinSlotId": slot_id, "amount": amount}
                if rng.random() < 0.3:
                    body |= {"autoBidEnabled": True, "maxAutoBid": round(amount + rng.randint(1, 500) / 100, 2)}
                started = time.perf_counter()
                try:
                    async with session.post("buyer/bids", json=body, headers=headers) as response:
                        statuses[response.status] += 1
                        if response.status == 201:
                            placed = await response.json()
                            shared["current"] = max(shared["current"], placed["pinSlot"]["currentBid"] or 0)
                        else:
                            await response.read()
                except aiohttp.ClientError as exc:
                    statuses[type(exc).__name__] += 1
                latencies.append((time.perf_counter() - started) * 1000)

        started = time.perf_counter()
        # the load itself goes through aiohttp: httpx's pool costs more CPU than the servers under test
        connector = aiohttp.TCPConnector(limit=args.bidders)
        async with aiohttp.ClientSession(args.api + "/", connector=connector) as session:
            await asyncio.gather(*[bidder(session, t) for t in tokens])
        elapsed = time.perf_counter() - started
        latencies.sort()
        total = len(latencies)
        print(f"requests: {total} in {elapsed:.1f}s = {total / elapsed:.0f} bids/s")
        print(f"latency ms: p50 {statistics.median(latencies):.1f}  p90 {latencies[int(total * .9)]:.1f}  "
              f"p99 {latencies[int(total * .99)]:.1f}  max {latencies[-1]:.1f}")
        print(f"statuses: {dict(statuses)}")
        detail = (await http.get(f"/marketplace/slots/{slot_id}", headers={"Authorization": f"Bearer {tokens[0]}"}))
        detail = detail.json()
    with psycopg.connect(args.db) as conn:
        live = conn.execute("SELECT status, amount, ceiling, seq FROM bids WHERE slot_id = %s AND status IN "
                            "('ACTIVE', 'OUTBID') ORDER BY ceiling DESC, seq", (slot_id,)).fetchall()
        count, current = conn.execute("SELECT bid_count, current_bid FROM slots WHERE id = %s", (slot_id,)).fetchone()
        updates = conn.execute("SELECT count(*) FROM outbox WHERE type = 'marketplace.slot.updated.v1' AND "
                               "envelope->'data'->>'slotId' = %s", (slot_id,)).fetchone()[0]
    checks = {
        "bidCount == accepted responses": count == statuses[201] == detail["bidCount"],
        "one slot.updated event per accepted bid": updates == statuses[201],
        "exactly one leader": sum(1 for r in live if r[0] == "ACTIVE") == 1,
        "leader has the best ceiling (ties: earliest)": bool(live) and live[0][0] == "ACTIVE",
        "currentBid == leader's amount": bool(live) and current == live[0][1],
        "no server errors": not any(isinstance(k, int) and k >= 500 for k in statuses),
    }
    for name, ok in checks.items():
        print(f"  {'OK  ' if ok else 'FAIL'} {name}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--api", default="http://127.0.0.1:8310/api")
    parser.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/bench_marketplace_marketplace")
    parser.add_argument("--bidders", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    asyncio.run(main(parser.parse_args()))
