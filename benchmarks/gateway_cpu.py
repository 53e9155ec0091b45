"""The gateway's own CPU per proxied request: the distributed gateway process in front of a stub service that
answers at once, loaded by this script, its CPU time read from /proc before and after.

    uv run python -m benchmarks.gateway_cpu [--requests 5000] [--concurrency 32] [--profile]

`--profile` also samples the gateway with py-spy while the load runs and prints where its time goes (the
share of samples each function is on the stack for, Pinbid's and the libraries' alike).
"""

import argparse
import asyncio
import collections
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import aiohttp
from pinbid_kit.tokens import TokenSigner, generate_keypair

from .common import free_port, percentile, wait_for

STUB = """
import json, sys, uvicorn
BODY = json.dumps({"slots": [{"id": str(i), "title": "A slot", "currentBid": 52.0} for i in range(20)],
                   "total": 20, "totalPages": 1}).encode()
async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(BODY)).encode())]})
    await send({"type": "http.response.body", "body": BODY})
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", access_log=False)
"""


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


async def load(url: str, token: str, requests: int, concurrency: int) -> list[float]:
    latencies: list[float] = []
    queue = iter(range(requests))
    headers = {"Authorization": f"Bearer {token}"}

    async def worker(session: aiohttp.ClientSession) -> None:
        for _ in queue:
            started = time.perf_counter()
            async with session.get(url, headers=headers) as response:
                await response.read()
                assert response.status == 200, response.status
            latencies.append(time.perf_counter() - started)

    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:
        await asyncio.gather(*(worker(session) for _ in range(concurrency)))
    return latencies


def profile_summary(raw: Path, top: int = 40) -> str:
    """py-spy's raw (collapsed) stacks: the share of samples each function is on the stack for (inclusive)
    and at the top of (self)."""
    inclusive: collections.Counter = collections.Counter()
    own: collections.Counter = collections.Counter()
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = [_frame(f) for f in stack.split(";") if f]
        if not frames:
            continue
        total += int(count)
        own[frames[-1]] += int(count)
        for frame in set(frames):
            inclusive[frame] += int(count)
    lines = [f"{total} samples; inclusive:"]
    lines += [f"{100 * n / total:5.1f}%  {frame}" for frame, n in inclusive.most_common(top)]
    lines += ["self:"] + [f"{100 * n / total:5.1f}%  {frame}" for frame, n in own.most_common(top // 2)]
    return "\n".join(lines)


def _frame(frame: str) -> str:
    name, _, where = frame.partition(" (")
    return f"{name} ({where.split(':')[0].rsplit('/', 2)[-2:][0]}/{where.split(':')[0].rsplit('/', 1)[-1]})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="pinbid-gateway-cpu-"))
    generate_keypair(folder / "jwt.pem", folder / "jwt.pub")
    token = TokenSigner((folder / "jwt.pem").read_bytes(), ttl_seconds=3600).sign(uuid.uuid4(), "BUYER", 1)
    stub_port, gateway_port = free_port(), free_port()
    stub = subprocess.Popen([sys.executable, "-c", STUB, str(stub_port)])
    env = {**os.environ, "GATEWAY_PORT": str(gateway_port), "GATEWAY_MARKETPLACE_URL": f"http://127.0.0.1:{stub_port}",
           "GATEWAY_JWT_PUBLIC_KEY_FILE": str(folder / "jwt.pub"), "GATEWAY_BUS": "inprocess",
           "GATEWAY_WEB_DIST": str(folder), "PINBID_VAR": str(folder)}
    gateway = subprocess.Popen([sys.executable, "-m", "pinbid_launcher", "gateway"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{gateway_port}/api/marketplace/slots?limit=20"
    try:
        wait_for(f"http://127.0.0.1:{gateway_port}/api/health")
        asyncio.run(load(url, token, 500, args.concurrency))  # warm-up
        spy = None
        if args.profile:
            spy = subprocess.Popen(["py-spy", "record", "--pid", str(gateway.pid), "--format", "raw",
                                    "--rate", "500", "--output", str(folder / "profile.txt"), "--nonblocking"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(1)
        before, started = cpu_seconds(gateway.pid), time.perf_counter()
        latencies = asyncio.run(load(url, token, args.requests, args.concurrency))
        cpu, wall = cpu_seconds(gateway.pid) - before, time.perf_counter() - started
        ms = [s * 1000 for s in latencies]
        print(f"gateway: {args.requests} proxied GETs, {args.concurrency} in flight: {args.requests / wall:.0f} req/s, "
              f"p50 {percentile(ms, 50):.1f} ms, p99 {percentile(ms, 99):.1f} ms")
        print(f"gateway CPU per proxied request: {1000 * cpu / args.requests:.3f} ms "
              f"({cpu:.2f} s of CPU for {args.requests} requests)")
        if spy is not None:
            spy.send_signal(2)
            spy.wait(timeout=30)
            print(profile_summary(folder / "profile.txt"))
    finally:
        gateway.terminate()
        stub.terminate()
        gateway.wait(timeout=30)
        stub.wait(timeout=30)


if __name__ == "__main__":
    main()
