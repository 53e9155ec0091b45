"""Where one bid's time goes at a light load: the same accepted bid timed through the gateway and straight at the
marketplace, beside each one's floor (an answer with no work: the gateway's /api/health, the service's /healthz)
and the bid's own statements run straight on PostgreSQL, each side sent one after the other (nothing queues).

    gateway hop     = bid through the gateway - bid straight at the service
    service's work  = bid straight at the service - the service's floor - the statements' round trips

Inside a distributed run (`make bench-hot` runs none of this; by hand):
  uv run python services/marketplace/benchmarks/bid_breakdown.py --api http://127.0.0.1:8000/api \\
      --service http://127.0.0.1:8103 --db postgresql://postgres@127.0.0.1:5432/pinbid_marketplace [--bids 300]"""

import argparse
import asyncio
import statistics
import time
from collections import Counter

import aiohttp
import httpx
import psycopg
from hot_slot import Bidder, Seen, new_hot_slot, percentile, register, register_buyers


def reported(label: str, took: list[float]) -> list[float]:
    """`took` (ms) sorted, its percentiles printed under `label`."""
    took.sort()
    print(f"{label:44s} p50 {statistics.median(took):6.2f}  p90 {percentile(took, 0.9):6.2f}  "
          f"p99 {percentile(took, 0.99):6.2f} ms", flush=True)
    return took


async def timed(label: str, count: int, call) -> list[float]:
    took = []
    for _ in range(count):
        started = time.perf_counter()
        await call()
        took.append((time.perf_counter() - started) * 1000)
    return reported(label, took)


async def read(session: aiohttp.ClientSession, path: str) -> None:
    async with session.get(path) as response:
        response.raise_for_status()
        await response.read()


async def bids_on(session: aiohttp.ClientSession, label: str, slot_id: str, bidders: list[Bidder],
                  count: int) -> list[float]:
    """Bidders in turn, one bid at a time, each just above the last price (so each is accepted)."""
    statuses: Counter = Counter()
    turn = iter(range(count))

    async def one() -> None:
        await bidders[next(turn) % len(bidders)].bid(session, slot_id, statuses)

    took = await timed(label, count, one)
    assert set(statuses) <= {201, 422}, statuses
    return took


def statements(db: str, slot_id: str, count: int) -> list[float]:
    """The round trips of an accepted bid's three statements (check, read, guarded write), each as a trivial
    statement on one kept connection: what the wire and PostgreSQL's own turn cost, without the work."""
    took = []
    with psycopg.connect(db, autocommit=True) as conn:
        for _ in range(count):
            started = time.perf_counter()
            for _ in range(3):
                conn.execute("SELECT version FROM slots WHERE id = %s", (slot_id,), prepare=True).fetchone()
            took.append((time.perf_counter() - started) * 1000)
    return reported("three statement round trips (psycopg)", took)


async def main(args) -> None:
    async with httpx.AsyncClient(base_url=args.api, timeout=30) as http:
        creator = await register(http, "INFLUENCER", 0)
        tokens = await register_buyers(http, 4)
        slot_id = await new_hot_slot(http, args.db, creator)
    seen = Seen()
    bidders = [Bidder(token, seen) for token in tokens]
    async with aiohttp.ClientSession(args.api + "/") as through, aiohttp.ClientSession(args.service + "/") as direct:
        await bids_on(through, "warm-up", slot_id, bidders, 30)
        gateway_floor = await timed("gateway's floor (GET /api/health)", args.bids, lambda: read(through, "health"))
        service_floor = await timed("service's floor (GET /healthz)", args.bids, lambda: read(direct, "healthz"))
        via_gateway = await bids_on(through, "accepted bid through the gateway", slot_id, bidders, args.bids)
        straight = await bids_on(direct, "accepted bid straight at the service", slot_id, bidders, args.bids)
    trips = statements(args.db, slot_id, args.bids)
    p50 = statistics.median
    print(f"\ngateway hop (p50): {p50(via_gateway) - p50(straight):6.2f} ms "
          f"(of which its floor {p50(gateway_floor) - p50(service_floor):.2f})")
    print(f"service's work (p50): {p50(straight) - p50(service_floor) - p50(trips):6.2f} ms beside "
          f"{p50(trips):.2f} ms of round trips")


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    parser.add_argument("--api", default="http://127.0.0.1:8000/api")
    parser.add_argument("--service", default="http://127.0.0.1:8103", help="the marketplace process's own address")
    parser.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/pinbid_marketplace")
    parser.add_argument("--bids", type=int, default=300)
    return parser


if __name__ == "__main__":
    asyncio.run(main(parser().parse_args()))
