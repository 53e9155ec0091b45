"""Live streams on one gateway process: memory per idle stream, how long one slot update takes to reach every
stream, and what stalled readers and a crowd that connects and drops at once do to everyone else.

Starts the distributed gateway alone (RabbitMQ under its own broker names) and opens `--clients` streams watching
one slot. The client is plain asyncio protocols on uvloop (no HTTP library, one callback per arrival), so its own
cost per delivery is small; its CPU time is printed beside the gateway's, to show which side the figure is about.
Then:

1. memory: the gateway's resident memory before and after the streams are open (idle, 2 s later);
2. fan-out: `--updates` slot updates published on the bus one after the other (0.2 s apart), each timed from its
   publish to its arrival at every stream (each stream's delay, and the last stream's);
3. stalled readers (`--stalled`): that many more streams on a second slot stop reading (a small receive window),
   beside as many that read; a burst of updates on that slot, while the timed updates of step 2 go on for the
   10,000: the stalled ones must be cut loose, the reading ones get every update, and the others' figures stay;
4. churn (`--churn`), once the others are closed: that many streams opened at once and dropped at once; the
   gateway's count of open streams (`pinbid_live_streams` on its `/metrics`) must come back to 0.

`--before REF` first runs the same on the gateway code of git REF (e.g. `main`: its `gateway/` package, taken with
`git archive`), in the same run. `--profile` samples the gateway with py-spy during the fan-out.

    uv run python -m benchmarks.live_fanout [--clients 10000] [--updates 20] [--stalled 100] [--churn 10000]
        [--before main] [--profile]
"""

import argparse
import asyncio
import contextlib
import io
import os
import re
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import uvloop
from pinbid_kit.bus import RabbitBus
from pinbid_kit.bus.rabbit import forget_deployment
from pinbid_kit.envelope import Envelope
from pinbid_kit.events.marketplace import SlotUpdated
from pinbid_kit.tokens import TokenSigner, generate_keypair

from .common import free_port, percentile, wait_for
from .gateway_cpu import cpu_seconds, profile_summary

AMQP = os.environ.get("PINBID_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/")
ROOT = Path(__file__).resolve().parent.parent
OPENING_AT_ONCE = 500  # connections being opened at a time (uvicorn's listen backlog is 2,048)
BID_COUNT = re.compile(rb'"bidCount":(\d+)')


def resident_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


@dataclass
class Tally:
    """When each update (by its bid count) arrived at each reading stream of one slot."""

    readers: int
    arrivals: dict[int, list[float]] = field(default_factory=dict)
    everyone: dict[int, asyncio.Event] = field(default_factory=dict)

    def all_of(self, n: int) -> asyncio.Event:
        return self.everyone.setdefault(n, asyncio.Event())

    def arrived(self, n: int, at: float) -> None:
        times = self.arrivals.setdefault(n, [])
        times.append(at)
        if len(times) == self.readers:
            self.all_of(n).set()


class Reader(asyncio.Protocol):
    """One stream: its `ready`, its `slot` updates into the tally, and when the gateway closed it."""

    def __init__(self, request: bytes, tally: Tally | None) -> None:
        self.request, self.tally = request, tally
        self.buffer = b""
        loop = asyncio.get_running_loop()
        self.ready, self.closed = loop.create_future(), loop.create_future()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's is not an asyncio.Transport subclass
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        *events, self.buffer = (self.buffer + data).split(b"\n\n")
        for event in events:
            if b"event: slot" in event:
                if self.tally is not None:
                    match = BID_COUNT.search(event)
                    assert match is not None, event
                    self.tally.arrived(int(match[1]), now)
            elif b"event: ready" in event and not self.ready.done():
                self.ready.set_result(None)
            elif not self.ready.done() and b" 200 OK" not in event and b"HTTP/1.1" in event:
                self.ready.set_exception(RuntimeError(event[:200].decode(errors="replace")))

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.ready.done():
            self.ready.set_exception(RuntimeError(f"closed before ready: {exc!r}"))
        if not self.closed.done():
            self.closed.set_result(None)


def stream_request(port: int, token: str, slot: uuid.UUID) -> bytes:
    return (f"GET /api/events/stream?slots={slot} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Authorization: Bearer {token}\r\n\r\n").encode()


async def open_streams(port: int, request: bytes, count: int, tally: Tally | None, *,
                       stalled: bool = False) -> list[Reader]:
    loop, gate = asyncio.get_running_loop(), asyncio.Semaphore(OPENING_AT_ONCE)

    async def one() -> Reader:
        async with gate:
            sock = socket.socket()
            if stalled:  # before connecting, so the window is small from the start and the gateway's writes back up
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.setblocking(False)
            await loop.sock_connect(sock, ("127.0.0.1", port))
            transport, reader = await loop.create_connection(lambda: Reader(request, tally), sock=sock)
            await asyncio.wait_for(reader.ready, timeout=120)
            if stalled:
                transport.pause_reading()  # and it never reads again (until it is counted)
            return reader

    return list(await asyncio.gather(*(one() for _ in range(count))))


def close_all(readers: list[Reader]) -> None:
    for reader in readers:
        if reader.transport is not None:
            reader.transport.abort()


async def open_stream_count(port: int) -> int | None:
    """The gateway's own count of open streams (`pinbid_live_streams`), or None from a gateway without it."""
    async with httpx.AsyncClient(timeout=60) as http:
        text = (await http.get(f"http://127.0.0.1:{port}/metrics")).text
    found = re.search(r"^pinbid_live_streams(?:\{[^}]*\})? (\S+)$", text, re.MULTILINE)
    return None if found is None else int(float(found[1]))


def slot_update(slot: uuid.UUID, n: int) -> Envelope:
    data = SlotUpdated(slot_id=slot, creator_id=uuid.uuid4(), post_id="1", status="ACTIVE",
                       current_bid_cents=1000 + n, bid_count=n, auction_end=datetime.now(UTC) + timedelta(hours=1))
    return Envelope(type=data.event_type, source="bench", data=data.payload())


@dataclass
class Run:
    label: str
    port: int
    pid: int
    token: str
    prefix: str


async def fan_out(bus: RabbitBus, run: Run, slot: uuid.UUID, tally: Tally, updates: int, first: int,
                  burst: "Burst | None" = None) -> tuple[list[float], list[float]]:
    """Each delivery's delay and each update's last, in ms; with a burst, the stalled slot's updates go out
    between the timed ones."""
    each, last = [], []
    for n in range(first, first + updates):
        sent = time.perf_counter()
        await bus.publish(slot_update(slot, n), {})
        with contextlib.suppress(TimeoutError):  # counted below: what arrived, and how many did not
            await asyncio.wait_for(tally.all_of(n).wait(), timeout=30)
        delays = [(at - sent) * 1000 for at in tally.arrivals.get(n, [])]
        each.extend(delays)
        last.append(max(delays, default=30_000))
        if burst is not None:
            await burst.send(bus)
        await asyncio.sleep(0.2)
    return each, last


@dataclass
class Burst:
    slot: uuid.UUID
    per_round: int
    sent: int = 0

    async def send(self, bus: RabbitBus) -> None:
        for _ in range(self.per_round):
            self.sent += 1
            await bus.publish(slot_update(self.slot, self.sent), {})


def figures(label: str, each: list[float], last: list[float], expected: int) -> str:
    return (f"{label}: each stream p50 {percentile(each, 50):.0f} ms, p99 {percentile(each, 99):.0f} ms; "
            f"the last stream of each update p50 {percentile(last, 50):.0f} ms, max {max(last):.0f} ms "
            f"(in order: {' '.join(f'{ms:.0f}' for ms in last)}); {len(each)} of {expected} deliveries arrived")


async def measure(run: Run, args: argparse.Namespace) -> None:
    slot, clients = uuid.uuid4(), args.clients
    before, client_cpu = resident_kib(run.pid), time.process_time()
    tally = Tally(clients)
    readers = await open_streams(run.port, stream_request(run.port, run.token, slot), clients, tally)
    await asyncio.sleep(2)
    after = resident_kib(run.pid)
    print(f"[{run.label}] {clients} idle streams: gateway memory {before / 1024:.1f} → {after / 1024:.1f} MiB, "
          f"{(after - before) / clients:.1f} KiB per stream", flush=True)
    bus = RabbitBus(AMQP, prefix=run.prefix)
    await bus.start()
    try:
        spy = start_profile(run.pid) if args.profile else None
        gateway_cpu, client_cpu = cpu_seconds(run.pid), time.process_time()
        each, last = await fan_out(bus, run, slot, tally, args.updates, 1)
        gateway_cpu, client_cpu = cpu_seconds(run.pid) - gateway_cpu, time.process_time() - client_cpu
        if spy is not None:
            print(stop_profile(spy, run.label))
        print(f"[{run.label}] " + figures(f"one slot update to {clients} streams, {args.updates} updates", each, last,
                                           clients * args.updates))
        print(f"[{run.label}] CPU during the fan-out: gateway {gateway_cpu:.2f} s, the client {client_cpu:.2f} s "
              f"({1e6 * gateway_cpu / (clients * args.updates):.0f} µs of the gateway's per delivery)", flush=True)
        if args.stalled:
            await stalled_readers(bus, run, args, slot, tally)
    finally:
        await bus.stop()
        close_all(readers)
    if args.churn:  # alone: 10,000 more beside the 10,000 would pass this machine's 20,000 open files
        await churn(run, args.churn, slot)


async def stalled_readers(bus: RabbitBus, run: Run, args: argparse.Namespace, slot: uuid.UUID, tally: Tally) -> None:
    side = uuid.uuid4()
    request = stream_request(run.port, run.token, side)
    side_tally = Tally(args.stalled)
    reading = await open_streams(run.port, request, args.stalled, side_tally)
    stalled = await open_streams(run.port, request, args.stalled, None, stalled=True)
    # the kernel holds up to 4 MiB for a stalled reader (the gateway's send buffer grows to tcp_wmem's maximum), some
    # 22,000 updates, before the gateway's own writes back up and its queue fills
    burst = Burst(side, per_round=max(1, 30_000 // args.updates))
    each, last = await fan_out(bus, run, slot, tally, args.updates, 1000, burst)
    print(f"[{run.label}] " + figures(f"the same, while {args.stalled} streams stall and {burst.sent} updates "
                                      f"go to them", each, last, args.clients * args.updates))
    still_open = await open_stream_count(run.port)
    for reader in stalled:
        assert reader.transport is not None
        reader.transport.resume_reading()  # what is left in its socket, then the end if the gateway cut it loose
    done, _ = await asyncio.wait([r.closed for r in stalled], timeout=30)
    got_all = sum(1 for n in range(1, burst.sent + 1) if len(side_tally.arrivals.get(n, [])) == args.stalled)
    print(f"[{run.label}] stalled readers cut loose: {len(done)} of {args.stalled} (streams the gateway held "
          f"then: {still_open if still_open is not None else 'n/a'} of {args.clients + 2 * args.stalled}); the "
          f"{args.stalled} reading beside them got {got_all} of {burst.sent} updates each", flush=True)
    close_all(reading + stalled)


async def churn(run: Run, count: int, slot: uuid.UUID) -> None:
    await settle(run.port)
    settled = resident_kib(run.pid)
    started = time.perf_counter()
    crowd = await open_streams(run.port, stream_request(run.port, run.token, slot), count, None)
    opened = time.perf_counter() - started
    peak = resident_kib(run.pid)
    close_all(crowd)
    dropped = time.perf_counter()
    remaining = await settle(run.port)
    gone = time.perf_counter() - dropped
    await asyncio.sleep(2)
    print(f"[{run.label}] {count} streams opened at once ({opened:.1f} s) and dropped at once: open streams "
          f"back to {remaining if remaining is not None else 'n/a'} in {gone:.1f} s; gateway memory "
          f"{settled / 1024:.1f} → {peak / 1024:.1f} → {resident_kib(run.pid) / 1024:.1f} MiB", flush=True)


async def settle(port: int) -> int | None:
    """Wait (60 s at most) until the gateway holds no stream; its count then (None: it does not count)."""
    deadline = time.perf_counter() + 60
    remaining = await open_stream_count(port)
    while remaining and time.perf_counter() < deadline:
        await asyncio.sleep(0.1)
        remaining = await open_stream_count(port)
    return remaining


def start_profile(pid: int) -> tuple[subprocess.Popen, Path]:
    out = Path(tempfile.mkdtemp(prefix="pinbid-live-profile-")) / "profile.txt"
    spy = subprocess.Popen(["py-spy", "record", "--pid", str(pid), "--format", "raw", "--rate", "250",
                            "--output", str(out), "--nonblocking"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    time.sleep(1)
    return spy, out


def stop_profile(spy: tuple[subprocess.Popen, Path], label: str) -> str:
    process, out = spy
    process.send_signal(2)
    process.wait(timeout=30)
    return f"[{label}] py-spy, the gateway during the fan-out: " + profile_summary(out, top=30)


def gateway_code(ref: str) -> Path:
    """The `gateway/` package of git `ref`, extracted into a folder of its own."""
    folder = Path(tempfile.mkdtemp(prefix="pinbid-gateway-before-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "gateway"], check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder / "gateway"


def one_run(label: str, args: argparse.Namespace, python_path: Path | None) -> None:
    folder = Path(tempfile.mkdtemp(prefix="pinbid-live-fanout-"))
    generate_keypair(folder / "jwt.pem", folder / "jwt.pub")
    token = TokenSigner((folder / "jwt.pem").read_bytes(), ttl_seconds=3600).sign(uuid.uuid4(), "BUYER", 1)
    port, prefix = free_port(), f"bench-live-{uuid.uuid4().hex[:6]}"
    env = {**os.environ, "PINBID_VAR": str(folder), "GATEWAY_PORT": str(port), "GATEWAY_BUS": "rabbitmq",
           "GATEWAY_AMQP_URL": AMQP, "GATEWAY_BUS_PREFIX": prefix, "GATEWAY_WEB_DIST": str(folder),
           "GATEWAY_JWT_PUBLIC_KEY_FILE": str(folder / "jwt.pub"), "GATEWAY_LOG_LEVEL": "WARNING"}
    if python_path is not None:  # ahead of the installed (editable) gateway package
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(python_path), os.environ.get("PYTHONPATH")]))
    gateway = subprocess.Popen([sys.executable, "-m", "pinbid_launcher", "gateway"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(f"http://127.0.0.1:{port}/api/health")
        uvloop.run(measure(Run(label, port, gateway.pid, token, prefix), args))
    finally:
        gateway.terminate()
        gateway.wait(timeout=30)
        asyncio.run(forget_deployment(AMQP, prefix))
    print(f"[{label}] load average after the run: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=10_000)
    parser.add_argument("--updates", type=int, default=20)
    parser.add_argument("--stalled", type=int, default=5, help="stalled readers beside as many reading; 0: none")
    parser.add_argument("--churn", type=int, default=10_000, help="streams opened and dropped at once; 0: none")
    parser.add_argument("--before", metavar="REF", help="first the same on the gateway code of this git ref")
    parser.add_argument("--profile", action="store_true", help="py-spy on the gateway during the fan-out")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    if args.before:
        one_run(f"before: {args.before}", args, gateway_code(args.before))
    one_run("this checkout", args, None)


if __name__ == "__main__":
    main()
