"""1,000 live streams on one gateway process: memory per idle stream, and how long one slot update takes to reach
all of them.

Starts the distributed gateway alone (RabbitMQ under its own broker names), opens `--clients` streams watching
one slot, reads the gateway's resident memory before and after, then publishes `--updates` slot updates on the
bus one after the other and times each from publish to arrival at every client.

    uv run python -m benchmarks.live_fanout [--clients 1000] [--updates 20]
"""

import argparse
import asyncio
import contextlib
import os
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp
from pinbid_kit.bus import RabbitBus
from pinbid_kit.bus.rabbit import forget_deployment
from pinbid_kit.envelope import Envelope
from pinbid_kit.events.marketplace import SlotUpdated
from pinbid_kit.tokens import TokenSigner, generate_keypair

from .common import free_port, percentile, wait_for

AMQP = os.environ.get("PINBID_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/")


def resident_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


class Tally:
    """How many streams have each update; `everyone(n)` is set when all have update n."""

    def __init__(self, clients: int) -> None:
        self.clients = clients
        self.counts: dict[int, int] = {}
        self.done: dict[int, asyncio.Event] = {}

    def everyone(self, n: int) -> asyncio.Event:
        return self.done.setdefault(n, asyncio.Event())

    def arrived(self, n: int) -> None:
        self.counts[n] = self.counts.get(n, 0) + 1
        if self.counts[n] == self.clients:
            self.everyone(n).set()


class Client:
    def __init__(self, tally: Tally) -> None:
        self.tally = tally
        self.ready = asyncio.Event()
        self.arrivals: dict[int, float] = {}  # bid count → when it arrived

    async def run(self, session: aiohttp.ClientSession, url: str) -> None:
        async with session.get(url) as response:
            assert response.status == 200, response.status
            event = None
            async for raw in response.content:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                    if event == "ready":
                        self.ready.set()
                elif line.startswith("data: ") and event == "slot":
                    count = int(line.split('"bidCount":')[1].split(",")[0])
                    self.arrivals[count] = time.perf_counter()
                    self.tally.arrived(count)


async def measure(base: str, token: str, prefix: str, clients: int, updates: int, gateway_pid: int) -> None:
    slot = uuid.uuid4()
    url = f"{base}/api/events/stream?slots={slot}"
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout,
                                     headers={"Authorization": f"Bearer {token}"}) as session:
        before = resident_kib(gateway_pid)
        tally = Tally(clients)
        readers = [Client(tally) for _ in range(clients)]
        tasks = [asyncio.create_task(r.run(session, url)) for r in readers]
        await asyncio.wait_for(asyncio.gather(*(r.ready.wait() for r in readers)), timeout=120)
        await asyncio.sleep(2)
        after = resident_kib(gateway_pid)
        print(f"{clients} idle streams: gateway memory {before / 1024:.1f} → {after / 1024:.1f} MiB, "
              f"{(after - before) / clients:.1f} KiB per stream")
        bus = RabbitBus(AMQP, prefix=prefix)
        await bus.start()
        all_arrived: list[float] = []
        each: list[float] = []
        try:
            for n in range(1, updates + 1):
                data = SlotUpdated(slot_id=slot, creator_id=uuid.uuid4(), post_id="1", status="ACTIVE",
                                   current_bid_cents=1000 + n, bid_count=n,
                                   auction_end=datetime.now(UTC) + timedelta(hours=1))
                sent = time.perf_counter()
                await bus.publish(Envelope(type=data.event_type, source="bench", data=data.payload()), {})
                with contextlib.suppress(TimeoutError):  # counted below: what arrived, and how many did not
                    await asyncio.wait_for(tally.everyone(n).wait(), timeout=30)
                delays = [r.arrivals[n] - sent for r in readers if n in r.arrivals]
                each.extend(delays)
                all_arrived.append(max(delays))
                await asyncio.sleep(0.2)
        finally:
            await bus.stop()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    ms = [d * 1000 for d in each]
    last = [d * 1000 for d in all_arrived]
    print(f"one slot update to {clients} streams, {updates} updates: each stream p50 {percentile(ms, 50):.0f} ms, "
          f"p99 {percentile(ms, 99):.0f} ms; the last stream of each update p50 {percentile(last, 50):.0f} ms, "
          f"max {max(last):.0f} ms; {len(ms)} of {clients * updates} deliveries arrived")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--updates", type=int, default=20)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="pinbid-live-fanout-"))
    generate_keypair(folder / "jwt.pem", folder / "jwt.pub")
    token = TokenSigner((folder / "jwt.pem").read_bytes(), ttl_seconds=3600).sign(uuid.uuid4(), "BUYER", 1)
    port, prefix = free_port(), f"bench-live-{uuid.uuid4().hex[:6]}"
    env = {**os.environ, "PINBID_VAR": str(folder), "GATEWAY_PORT": str(port), "GATEWAY_BUS": "rabbitmq",
           "GATEWAY_AMQP_URL": AMQP, "GATEWAY_BUS_PREFIX": prefix, "GATEWAY_WEB_DIST": str(folder),
           "GATEWAY_JWT_PUBLIC_KEY_FILE": str(folder / "jwt.pub"), "GATEWAY_LOG_LEVEL": "WARNING"}
    gateway = subprocess.Popen([sys.executable, "-m", "pinbid_launcher", "gateway"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(f"http://127.0.0.1:{port}/api/health")
        asyncio.run(measure(f"http://127.0.0.1:{port}", token, prefix, args.clients, args.updates, gateway.pid))
    finally:
        gateway.terminate()
        gateway.wait(timeout=30)
        asyncio.run(forget_deployment(AMQP, prefix))
    print(f"load average during the run: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
