"""From a committed bid to the `slot` event at a brand watching the slot: p50/p99, through the gateway.

Without options it starts the embedded product (in-process bus); `--distributed` starts the distributed run
(`make up`: every service and the gateway its own process, events over RabbitMQ) on its own ports, databases
and broker names, and removes them afterwards; `--base` measures a Pinbid already running. A creator connects
the sandbox Instagram and lists a post; two brands take turns bidding while a third watches the slot's live
stream. Each bid is timed from its request (the commit is inside it) and from its answer to the event's arrival;
an event can arrive before the answer.

    uv run python -m benchmarks.live_latency [--distributed | --base http://127.0.0.1:8000] [--bids 100]
"""

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import psycopg

from .common import embedded, percentile, wait_for

PG = os.environ.get("PINBID_PG_URL", "postgresql://postgres@127.0.0.1:5432")
PREFIX, BASE_PORT = "pinbid_livebench", 24400
SERVICES = ("identity", "marketplace", "payments", "social", "content")


@contextlib.contextmanager
def distributed() -> Iterator[str]:
    """The distributed run on ports, databases and exchanges of its own (the machine's RabbitMQ); yields the
    gateway's URL."""
    folder = Path(tempfile.mkdtemp(prefix="pinbid-live-latency-"))
    gateway_port = BASE_PORT + 25
    env = {**os.environ, "PINBID_VAR": str(folder / "var"), "PINBID_DB_PREFIX": PREFIX,
           "PINBID_BASE_PORT": str(BASE_PORT), "PINBID_GATEWAY_PORT": str(gateway_port),
           # small pools: the machine's PostgreSQL (max_connections 100) is shared with other work
           **{f"{name.upper()}_DB_POOL_SIZE": "5" for name in SERVICES},
           **{f"{name.upper()}_DB_MAX_OVERFLOW": "5" for name in SERVICES}}

    def launcher(command: str) -> None:
        done = subprocess.run([sys.executable, "-m", "pinbid_launcher", command], env=env, capture_output=True,
                              text=True)
        if done.returncode != 0:
            raise SystemExit(f"pinbid_launcher {command} failed:\n{done.stdout}{done.stderr}")

    try:
        launcher("up")
        wait_for(f"http://127.0.0.1:{gateway_port}/api/health")
        yield f"http://127.0.0.1:{gateway_port}"
    finally:
        launcher("down")
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            for name in SERVICES:
                conn.execute(f'DROP DATABASE IF EXISTS "{PREFIX}_{name}" WITH (FORCE)')


async def register(http: httpx.AsyncClient, role: str) -> tuple[dict[str, str], str]:
    handle = f"live_{uuid.uuid4().hex[:8]}"
    body = {"name": "Live Bench", "email": f"{handle}@example.com", "password": "live-bench-pass", "role": role,
            **({"instagramHandle": handle} if role == "INFLUENCER" else {"businessName": "Bench Brand"})}
    response = await http.post("/api/auth/register", json=body)
    response.raise_for_status()
    return {"Authorization": f"Bearer {response.json()['token']}"}, handle


async def listed_slot(http: httpx.AsyncClient, base: str) -> str:
    creator, handle = await register(http, "INFLUENCER")
    start = (await http.get("/api/instagram/connect", headers=creator)).json()["url"]

    def local(url: str) -> str:
        parts, target = urlsplit(url), urlsplit(base)
        return urlunsplit((target.scheme, target.netloc, parts.path, parts.query, parts.fragment))

    allowed = await http.post(local(start), data={"username": handle, "action": "approve"})
    await http.get(local(allowed.headers["location"]))
    for _ in range(300):
        response = await http.post("/api/influencer/pin-slots", headers=creator, json={
            "postId": await first_post(http, creator), "title": "Live bench", "description": "", "category": "tech",
            "minBid": 10, "duration": 7, "auctionEnd": (datetime.now(UTC) + timedelta(hours=3)).isoformat()})
        if response.status_code == 201:
            return response.json()["id"]
        await asyncio.sleep(0.1)  # the post reaches marketplace as an event
    raise SystemExit(f"could not list a slot: {response.text}")


async def first_post(http: httpx.AsyncClient, creator: dict) -> str:
    for _ in range(300):
        response = await http.get("/api/instagram/posts", headers=creator)
        if response.status_code == 200 and response.json():
            return response.json()[0]["id"]
        await asyncio.sleep(0.1)
    raise SystemExit("no sandbox posts")


async def watch(base: str, headers: dict, slot: str, arrivals: dict[int, float], ready: asyncio.Event) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=None) as http, http.stream(
            "GET", "/api/events/stream", params={"slots": slot}, headers=headers) as response:
        event = None
        async for line in response.aiter_lines():
            if line.startswith("event: "):
                event = line[7:]
                if event == "ready":
                    ready.set()
            elif line.startswith("data: ") and event == "slot":
                arrivals[json.loads(line[6:])["bidCount"]] = time.perf_counter()


async def measure(base: str, bids: int) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        slot = await listed_slot(http, base)
        brands = [(await register(http, "BUYER"))[0] for _ in range(2)]
        watcher = (await register(http, "BUYER"))[0]
        arrivals: dict[int, float] = {}
        ready = asyncio.Event()
        reader = asyncio.create_task(watch(base, watcher, slot, arrivals, ready))
        await asyncio.wait_for(ready.wait(), timeout=30)
        from_request, from_answer = [], []
        for n in range(1, bids + 1):
            started = time.perf_counter()
            placed = await http.post("/api/buyer/bids", headers=brands[n % 2], json={
                "pinSlotId": slot, "amount": 10 + n, "newCommentText": f"Ad · bench bid {n}"})
            answered = time.perf_counter()
            assert placed.status_code == 201, placed.text
            for _ in range(5000):
                if n in arrivals:
                    break
                await asyncio.sleep(0.001)
            from_request.append((arrivals[n] - started) * 1000)
            from_answer.append((arrivals[n] - answered) * 1000)
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader
    print(f"bid → slot event at a watching brand, {bids} bids through {base}:")
    for label, figures in (("request", from_request), ("answer", from_answer)):
        print(f"  from the bid's {label}: p50 {percentile(figures, 50):.1f} ms, p99 {percentile(figures, 99):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--base")
    where.add_argument("--distributed", action="store_true")
    parser.add_argument("--bids", type=int, default=100)
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        base = args.base or stack.enter_context(distributed() if args.distributed else embedded())
        asyncio.run(measure(base, args.bids))
    print(f"load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
