"""Shared bits of the benchmark scripts: start the embedded product on a private port and folder,
and summarise latencies."""

import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def register_buyers(http: httpx.AsyncClient, count: int, label: str) -> list[tuple[dict[str, str], str]]:
    """`count` brands signed up through the gateway: each one's Authorization header and email."""
    users = []
    for _ in range(count):
        email = f"{label}-{uuid.uuid4().hex[:8]}@example.com"
        response = await http.post("/api/auth/register", json={"name": f"{label.title()} User", "email": email,
                                                                "password": f"{label}-pass-1", "role": "BUYER"})
        response.raise_for_status()
        users.append(({"Authorization": f"Bearer {response.json()['token']}"}, email))
    return users


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def summary(label: str, seconds: list[float]) -> str:
    ms = [s * 1000 for s in seconds]
    return (f"{label}: n={len(ms)} p50={percentile(ms, 50):.1f} ms p99={percentile(ms, 99):.1f} ms "
            f"mean={statistics.fmean(ms):.1f} ms max={max(ms):.1f} ms")


def wait_for(url: str, timeout: float = 120) -> float:
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url, timeout=1).status_code == 200:
                return time.perf_counter() - start
        time.sleep(0.05)
    raise SystemExit(f"{url} did not answer within {timeout}s")


@contextlib.contextmanager
def embedded(var: Path | None = None, *, seed: bool = False, demo_bidding: bool = True) -> Iterator[str]:
    """The embedded product on a free port with its own var/ folder; yields the base URL."""
    folder = var or Path(tempfile.mkdtemp(prefix="pinbid-bench-"))
    port = free_port()
    args = [sys.executable, "-m", "pinbid_launcher", "embedded", "--port", str(port)] + ([] if seed else ["--no-seed"])
    args += [] if demo_bidding else ["--no-demo-bidding"]
    log = open(folder / "bench.log", "ab") if folder.exists() else subprocess.DEVNULL
    process = subprocess.Popen(args, env={**os.environ, "PINBID_VAR": str(folder)}, stdout=log,
                               stderr=subprocess.STDOUT)
    try:
        wait_for(f"http://127.0.0.1:{port}/api/health")
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=30)
