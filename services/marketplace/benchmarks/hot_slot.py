"""Hot slot: N concurrent bidders on one slot for S seconds through the gateway. Prints requests/s, accepted and
refused bids/s, latency percentiles, the time the slot's lock was held per accepted bid (read from the
marketplace's /metrics), and checks the slot's state at the end against the database.

Bidders behave as people do: each reads the current bid from every answer (the 201's slot, or the `currentBid`
of a too-low 422) and bids just above it.

`make bench-hot` runs it inside a distributed run of its own; by hand, start the distributed run first (see
README), then:
  uv run python services/marketplace/benchmarks/hot_slot.py --api http://127.0.0.1:8000/api \
      --db postgresql://postgres@127.0.0.1:5432/pinbid_marketplace --metrics http://127.0.0.1:8102/metrics
The creator's post is written straight into marketplace's `posts` read model (social may not run)."""

import argparse
import asyncio
import random
import re
import time
import uuid
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import aiohttp
import httpx
import psycopg

LOCK_METRIC = "pinbid_marketplace_slot_lock_held_seconds"  # per guarded write (a batch of bids), as PostgreSQL saw it
LOCK_PER_BID_METRIC = "pinbid_marketplace_slot_lock_per_accepted_bid_seconds"
WRITE_METRIC = "pinbid_marketplace_bid_write_round_trip_seconds"  # the same write, as the service's event loop saw it


async def register(http: httpx.AsyncClient, role: str, n: int) -> tuple[str, str]:
    email = f"bench-{role.lower()}-{n}-{uuid.uuid4().hex[:6]}@example.com"
    body = {"name": f"Bench {role.title()} {n}", "email": email, "password": "bench-password-1", "role": role}
    if role == "INFLUENCER":
        body["instagramHandle"] = f"bench{n}"
    response = await http.post("/auth/register", json=body)
    response.raise_for_status()
    data = response.json()
    return data["token"], data["user"]["id"]


def percentile(ordered: list[float], p: float) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else float("nan")


async def lock_histogram(urls: list[str], metric: str = LOCK_METRIC) -> dict[float, float]:
    """Cumulative bucket counts (upper bound in seconds -> count) of a lock histogram, summed over the
    marketplace processes."""
    buckets: Counter = Counter()
    pattern = re.compile(rf'^{metric}_bucket\{{.*le="([^"]+)".*\}} ([0-9.e+-]+)$')
    async with httpx.AsyncClient(timeout=10) as http:
        for url in urls:
            for line in (await http.get(url)).text.splitlines():
                found = pattern.match(line)
                if found:
                    buckets[float(found.group(1))] += float(found.group(2))
    return dict(buckets)


def histogram_percentile(before: dict[float, float], after: dict[float, float], p: float) -> float:
    """The p-quantile in seconds of what was observed between the two scrapes, interpolated within its bucket."""
    bounds = sorted(after)
    counts = [after[b] - before.get(b, 0.0) for b in bounds]
    total = counts[-1] if counts else 0
    if not total:
        return float("nan")
    rank, lower, below = p * total, 0.0, 0.0
    for bound, cumulative in zip(bounds, counts, strict=True):
        if cumulative >= rank:
            if bound == float("inf"):
                return lower
            inside = cumulative - below
            return lower + (bound - lower) * ((rank - below) / inside if inside else 1.0)
        lower, below = bound, cumulative
    return lower


async def new_hot_slot(http: httpx.AsyncClient, db: str, creator: tuple[str, str]) -> str:
    """A fresh slot on a fresh post of the creator's (the post written straight into marketplace's read model)."""
    creator_token, creator_id = creator
    post_id = f"bench{uuid.uuid4().hex[:12]}"
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute("INSERT INTO posts (id, user_id, media_type, media_url, permalink, caption, views, "
                     "like_count, comments_count) VALUES (%s, %s, 'IMAGE', 'https://img.test/b.jpg', "
                     "'https://ig.test/b', '', 0, 0, 0)", (post_id, creator_id))
    slot = await http.post("/influencer/pin-slots", headers={"Authorization": f"Bearer {creator_token}"},
                           json={"postId": post_id, "title": "Hot slot", "category": "tech", "minBid": 1,
                                 "auctionEnd": (datetime.now(UTC) + timedelta(days=2)).isoformat()})
    slot.raise_for_status()
    return slot.json()["id"]


async def register_buyers(http: httpx.AsyncClient, count: int) -> list[str]:
    sem = asyncio.Semaphore(10)

    async def buyer(n: int) -> str:
        async with sem:
            return (await register(http, "BUYER", n))[0]

    return list(await asyncio.gather(*[buyer(n) for n in range(count)]))


@dataclass
class Seen:
    """The current bid as a bidder last saw it: its own answers' (closed loop), or the page's, which the live
    stream keeps current for everyone watching (open loop: one Seen shared by every bidder)."""

    price: float = 0.0

    def heard(self, price: float | None) -> None:
        self.price = max(self.price, price or 0.0)


class Bidder:
    """A brand that bids just above the current bid it last saw; about a third of its bids carry an automatic
    maximum. It hears the price from a 201's slot or a too-low 422's `currentBid`."""

    def __init__(self, token: str, seen: Seen | None = None):
        self.rng = random.Random(token)
        self.headers = {"Authorization": f"Bearer {token}"}
        self.seen = seen or Seen()

    def next_offer(self, slot_id: str) -> dict:
        amount = round(max(self.seen.price, 1.0) + self.rng.randint(1, 100) / 100, 2)
        body = {"pinSlotId": slot_id, "amount": amount}
        if self.rng.random() < 0.3:
            body |= {"autoBidEnabled": True, "maxAutoBid": round(amount + self.rng.randint(1, 500) / 100, 2)}
        return body

    async def bid(self, session: aiohttp.ClientSession, slot_id: str, statuses: Counter) -> None:
        """One bid; its status (or the client error's name) counted in `statuses`."""
        try:
            async with session.post("buyer/bids", json=self.next_offer(slot_id), headers=self.headers) as response:
                statuses[response.status] += 1
                answer = await response.json(content_type=None)
                if response.status == 201:
                    self.seen.heard(answer["pinSlot"]["currentBid"])
                elif response.status == 422:
                    self.seen.heard(answer.get("currentBid"))
        except (aiohttp.ClientError, TimeoutError) as exc:  # an answer that never came: an error, counted
            statuses[type(exc).__name__] += 1


def slot_checks(db: str, slot_id: str, statuses: Counter, detail: dict) -> dict[str, bool]:
    """The slot's state at the end against the answers the bidders had."""
    with psycopg.connect(db) as conn:
        live = conn.execute("SELECT status, amount, ceiling, seq FROM bids WHERE slot_id = %s AND status IN "
                            "('ACTIVE', 'OUTBID') ORDER BY ceiling DESC, seq", (slot_id,)).fetchall()
        count, current, min_bid = conn.execute("SELECT bid_count, current_bid, min_bid FROM slots WHERE id = %s",
                                               (slot_id,)).fetchone()
        updates = conn.execute("SELECT count(*) FROM outbox WHERE type = 'marketplace.slot.updated.v1' AND "
                               "envelope->'data'->>'slotId' = %s", (slot_id,)).fetchone()[0]
    # one price: what the leader would pay now (the default second-price increment, 0)
    second_price = (min(live[0][2], max(min_bid, live[1][2])) if len(live) > 1 else min_bid) if live else None
    return {
        "bidCount == accepted responses": count == statuses[201] == detail["bidCount"],
        "one slot.updated event per accepted bid": updates == statuses[201],
        "exactly one leader": sum(1 for r in live if r[0] == "ACTIVE") == 1,
        "leader has the best ceiling (ties: earliest)": bool(live) and live[0][0] == "ACTIVE",
        "currentBid == the second price (what the leader would pay now)": current == second_price,
        "no server errors": not any(isinstance(k, int) and k >= 500 for k in statuses),
    }


async def main(args) -> dict:
    limits = httpx.Limits(max_connections=args.bidders + 10, max_keepalive_connections=args.bidders + 10)
    async with httpx.AsyncClient(base_url=args.api, timeout=30, limits=limits) as http:
        slot_id = await new_hot_slot(http, args.db, await register(http, "INFLUENCER", 0))
        tokens = await register_buyers(http, args.bidders)
        print(f"{args.bidders} buyers registered; bidding for {args.seconds:.0f}s on slot {slot_id}", flush=True)
        latencies: list[float] = []
        statuses: Counter = Counter()
        deadline = time.perf_counter() + args.seconds

        async def keep_bidding(bidder: Bidder, session: aiohttp.ClientSession) -> None:
            while time.perf_counter() < deadline:
                started = time.perf_counter()
                await bidder.bid(session, slot_id, statuses)
                latencies.append((time.perf_counter() - started) * 1000)

        lock_before = await lock_histogram(args.metrics) if args.metrics else {}
        per_bid_before = await lock_histogram(args.metrics, LOCK_PER_BID_METRIC) if args.metrics else {}
        write_before = await lock_histogram(args.metrics, WRITE_METRIC) if args.metrics else {}
        started = time.perf_counter()
        # the load itself goes through aiohttp: httpx's pool costs more CPU than the servers under test
        connector = aiohttp.TCPConnector(limit=args.bidders)
        async with aiohttp.ClientSession(args.api + "/", connector=connector) as session:
            await asyncio.gather(*[keep_bidding(Bidder(t), session) for t in tokens])
        elapsed = time.perf_counter() - started
        lock_after = await lock_histogram(args.metrics) if args.metrics else {}
        per_bid_after = await lock_histogram(args.metrics, LOCK_PER_BID_METRIC) if args.metrics else {}
        write_after = await lock_histogram(args.metrics, WRITE_METRIC) if args.metrics else {}
        detail = (await http.get(f"/marketplace/slots/{slot_id}", headers={"Authorization": f"Bearer {tokens[0]}"}))
        detail = detail.json()
    latencies.sort()
    total = len(latencies)
    result = {
        "seconds": elapsed, "requests": total, "requests_per_s": total / elapsed,
        "accepted_per_s": statuses[201] / elapsed, "refused_per_s": statuses[422] / elapsed,
        "p50_ms": percentile(latencies, 0.5), "p90_ms": percentile(latencies, 0.9),
        "p99_ms": percentile(latencies, 0.99), "max_ms": latencies[-1] if latencies else float("nan"),
        "statuses": {str(k): v for k, v in statuses.items()},
        "lock_p50_ms": histogram_percentile(lock_before, lock_after, 0.5) * 1000,
        "lock_p99_ms": histogram_percentile(lock_before, lock_after, 0.99) * 1000,
        "lock_per_bid_p50_ms": histogram_percentile(per_bid_before, per_bid_after, 0.5) * 1000,
        "lock_per_bid_p99_ms": histogram_percentile(per_bid_before, per_bid_after, 0.99) * 1000,
        "write_p50_ms": histogram_percentile(write_before, write_after, 0.5) * 1000,
        "write_p99_ms": histogram_percentile(write_before, write_after, 0.99) * 1000,
        "bids_per_transaction": statuses[201] / max(1.0, lock_after.get(float("inf"), 0)
                                                    - lock_before.get(float("inf"), 0)),
        "checks": slot_checks(args.db, slot_id, statuses, detail),
    }
    print(f"requests: {total} in {elapsed:.1f}s = {result['requests_per_s']:.0f}/s; accepted "
          f"{result['accepted_per_s']:.0f}/s, refused (too low) {result['refused_per_s']:.0f}/s")
    print(f"latency ms: p50 {result['p50_ms']:.1f}  p90 {result['p90_ms']:.1f}  p99 {result['p99_ms']:.1f}  "
          f"max {result['max_ms']:.1f}")
    if args.metrics:
        print(f"slot lock held ms: per accepted bid p50 {result['lock_per_bid_p50_ms']:.3f}  p99 "
              f"{result['lock_per_bid_p99_ms']:.3f}; per transaction p50 {result['lock_p50_ms']:.2f}  p99 "
              f"{result['lock_p99_ms']:.2f}; {result['bids_per_transaction']:.1f} accepted bids per transaction")
        print(f"guarded write's round trip in the service ms: p50 {result['write_p50_ms']:.2f}  p99 "
              f"{result['write_p99_ms']:.2f}")
    print(f"statuses: {dict(statuses)}")
    for name, ok in result["checks"].items():
        print(f"  {'OK  ' if ok else 'FAIL'} {name}")
    return result


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    parser.add_argument("--api", default="http://127.0.0.1:8000/api")
    parser.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/pinbid_marketplace")
    parser.add_argument("--metrics", action="append", default=[],
                        help="a marketplace process's /metrics URL (repeat for replicas)")
    parser.add_argument("--bidders", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    return parser


if __name__ == "__main__":
    asyncio.run(main(parser().parse_args()))
