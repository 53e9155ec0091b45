"""Time from the sandbox "Pay" to the bid showing WON, through the gateway of a running Pinbid.

For each sample it walks the real journey: a creator lists a post with a Buy Now price, a buyer buys it,
the creator approves, the buyer opens checkout; then it times the POST action=pay on the sandbox page
until GET /api/buyer/bids shows the bid WON (sandbox webhook → payments → RabbitMQ or the in-process
bus → marketplace). Prints p50/p99.

    make up   # or any running Pinbid; then:
    uv run python services/payments/benchmarks/pay_to_won.py --base http://127.0.0.1:8000 --samples 30
"""

import argparse
import asyncio
import statistics
import time
import uuid
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit, urlunsplit

import httpx


def local(url: str, base: str) -> str:
    """Absolute URLs the services build from their public_url, sent to the gateway under test instead."""
    parts, target = urlsplit(url), urlsplit(base)
    return urlunsplit((target.scheme, target.netloc, parts.path, parts.query, parts.fragment))


async def until(check, *, within: float = 30.0, every: float = 0.005):
    deadline = time.perf_counter() + within
    while time.perf_counter() < deadline:
        result = await check()
        if result:
            return result
        await asyncio.sleep(every)
    raise TimeoutError("condition not met")


async def register(http: httpx.AsyncClient, role: str) -> dict[str, str]:
    tag = uuid.uuid4().hex[:8]
    body = {"name": f"Bench {role.title()}", "email": f"bench-{tag}@example.com", "password": "bench-password",
            "role": role, **({"instagramHandle": f"bench_{tag}"} if role == "INFLUENCER" else {"businessName": "B"})}
    response = await http.post("/api/auth/register", json=body)
    response.raise_for_status()
    return {"Authorization": f"Bearer {response.json()['token']}"}


async def connect_instagram(http: httpx.AsyncClient, base: str, creator: dict) -> list[str]:
    start = (await http.get("/api/instagram/connect", headers=creator)).json()["url"]
    authorize = await http.post(local(start, base), data={"username": f"bench_{uuid.uuid4().hex[:6]}",
                                                          "action": "approve"})
    await http.get(local(authorize.headers["location"], base))
    posts = await until(lambda: _posts(http, creator))
    return [p["id"] for p in posts]


async def _posts(http, creator):
    response = await http.get("/api/instagram/posts", headers=creator)
    return response.json() if response.status_code == 200 and response.json() else None


async def sample(http: httpx.AsyncClient, base: str, creator: dict, buyer: dict, post_id: str) -> float:
    async def slot():
        response = await http.post("/api/influencer/pin-slots", headers=creator, json={
            "postId": post_id, "title": "Bench slot", "description": "", "category": "tech", "minBid": 50,
            "buyNowPrice": 100, "auctionEnd": (datetime.now(UTC) + timedelta(days=1)).isoformat(), "duration": 7})
        return response.json() if response.status_code == 201 else None

    slot_id = (await until(slot))["id"]
    bought = await http.post("/api/buyer/buy-now", headers=buyer, json={"pinSlotId": slot_id,
                                                                        "newCommentText": "Great post #ad"})
    bought.raise_for_status()
    bid_id = bought.json()["id"]
    approved = await http.post(f"/api/influencer/approvals/{bid_id}", headers=creator, json={"status": "APPROVED"})
    approved.raise_for_status()

    async def checkout():
        response = await http.post("/api/payments/create-checkout-session", headers=buyer, json={"bidId": bid_id})
        return response.json()["url"] if response.status_code == 200 else None

    page = local(await until(checkout), base)

    async def won():
        bids = (await http.get("/api/buyer/bids", headers=buyer)).json()
        return any(b["id"] == bid_id and b["status"] == "WON" for b in bids)

    started = time.perf_counter()
    paid = await http.post(page, data={"action": "pay"})
    assert paid.status_code == 303, paid.text
    await until(won)
    return time.perf_counter() - started


async def main(base: str, samples: int) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        buyer = await register(http, "BUYER")
        timings: list[float] = []
        while len(timings) < samples:  # each creator has a handful of sandbox posts to list
            creator = await register(http, "INFLUENCER")
            for post_id in (await connect_instagram(http, base, creator))[: samples - len(timings)]:
                timings.append(await sample(http, base, creator, buyer, post_id))
    ms = sorted(t * 1000 for t in timings)
    print(f"pay → WON through {base}: {len(ms)} samples, p50 {statistics.median(ms):.0f} ms, "
          f"p99 {ms[min(len(ms) - 1, int(0.99 * len(ms)))]:.0f} ms, min {ms[0]:.0f} ms, max {ms[-1]:.0f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    parser.add_argument("--samples", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(main(args.base, args.samples))
