"""The vanity link's redirect through the gateway: `GET /go/<code>` on the embedded product with its demo data (no
demo brands bidding in the background), each request from a different browser (so every one is counted: the
visitor's row, the hour's tally and the redirect in one statement), C in flight. Prints requests/s and
p50/p99/max latency; target p99 <= 20 ms.

    uv run python -m benchmarks.vanity_redirect [--requests 3000] [--concurrency 8]
"""

import argparse
import asyncio
import time

import aiohttp
import httpx

from .common import embedded, percentile

BRAND = {"email": "brand@demo.pinbid.app", "password": "pinbid-demo"}
LINKABLE = {"APPROVED", "AWAITING_PAYMENT", "WON", "PINNED"}


def short_link(base: str) -> str:
    with httpx.Client(base_url=base + "/api", timeout=30) as api:
        token = api.post("/auth/login", json=BRAND).raise_for_status().json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        for _ in range(60):  # the demo world is still being made when the product first answers
            bids = api.get("/buyer/bids", headers=headers).raise_for_status().json()
            won = [b for b in bids if b["status"] in LINKABLE and b.get("finalPrice") is not None]
            if won:
                break
            time.sleep(1)
        else:
            raise SystemExit("the demo brand has no won bid to link")
        made = api.put(f"/instagram/placements/{won[0]['id']}/link", headers=headers,
                       json={"url": "https://northwind.coffee/summer", "promoCode": "SUMMER-25"})
        return made.raise_for_status().json()["code"]


async def load(base: str, code: str, requests: int, concurrency: int) -> tuple[list[float], float, dict]:
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    gate = asyncio.Semaphore(concurrency)
    async with aiohttp.ClientSession(base) as http:
        async def one(n: int) -> None:
            async with gate:
                started = time.perf_counter()
                async with http.get(f"/go/{code}", allow_redirects=False,
                                    headers={"User-Agent": f"Mozilla/5.0 (iPhone) Safari/605.1 visitor-{n}"}) as r:
                    await r.read()
                    statuses[r.status] = statuses.get(r.status, 0) + 1
                latencies.append(time.perf_counter() - started)

        await asyncio.gather(*(one(-n - 1) for n in range(50)))  # warm up
        latencies.clear()
        started = time.perf_counter()
        await asyncio.gather(*(one(n) for n in range(requests)))
        return latencies, time.perf_counter() - started, statuses


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()
    with embedded(seed=True, demo_bidding=False) as base:
        code = short_link(base)
        latencies, elapsed, statuses = asyncio.run(load(base, code, args.requests, args.concurrency))
        with httpx.Client(base_url=base, timeout=10) as web:
            missing = web.get("/go/zzzzzzz")
    ms = [s * 1000 for s in latencies]
    print(f"/go/{code}: {len(ms)} redirects, {args.concurrency} in flight: {len(ms) / elapsed:.0f}/s, "
          f"p50 {percentile(ms, 50):.1f} ms, p99 {percentile(ms, 99):.1f} ms, max {max(ms):.1f} ms; "
          f"statuses {statuses}; unknown code: {missing.status_code} ({missing.headers['content-type']})")


if __name__ == "__main__":
    main()
