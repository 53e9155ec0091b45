"""How many PostgreSQL connections a `make up` run holds under load, against the most the launcher gives it.

Starts the distributed run on its own ports, databases and broker names with the launcher's default pools
(PINBID_DB_CONNECTIONS, docs/operations.md "Connection budget"), runs a steady load of profile updates through
the gateway (each an event that marketplace, payments and social handle), samples `pg_stat_activity` for the
run's databases every 0.2 s, and prints the peak per service and in all, and how the requests were answered.

    uv run python -m benchmarks.connections [--replicas 1] [--seconds 30] [--users 20] [--rate 60] [--pool 10 20]
"""

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

import httpx
import psycopg
from pinbid_kit.bus.rabbit import forget_deployment

from .broker_outage import Load
from .common import percentile, register_buyers

BASE_PORT = 24300
GATEWAY_PORT = BASE_PORT + 25
PG = os.environ.get("PINBID_PG_URL", "postgresql://postgres@127.0.0.1:5432")
AMQP = os.environ.get("PINBID_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/")
PREFIX = f"pinbid_conn_{uuid.uuid4().hex[:6]}"
SERVICES = ("identity", "marketplace", "payments", "social", "content")


def launcher(command: str, env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-m", "pinbid_launcher", command], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"pinbid_launcher {command} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


def held() -> dict[str, int]:
    with psycopg.connect(f"{PG}/postgres") as conn:
        rows = conn.execute("SELECT datname, count(*) FROM pg_stat_activity WHERE datname LIKE %s GROUP BY datname",
                            (f"{PREFIX}_%",)).fetchall()
    return {name.removeprefix(f"{PREFIX}_"): count for name, count in rows}


async def measure(args) -> None:
    peaks: dict[str, int] = {}
    peak_total = 0
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{GATEWAY_PORT}", timeout=30) as http:
        load = Load(http, await register_buyers(http, args.users, "budget"), args.rate)
        running = asyncio.create_task(load.run())
        deadline = time.perf_counter() + args.seconds
        while time.perf_counter() < deadline:
            now = await asyncio.to_thread(held)
            for name, count in now.items():
                peaks[name] = max(peaks.get(name, 0), count)
            peak_total = max(peak_total, sum(now.values()))
            await asyncio.sleep(0.2)
        load.stopping = True
        await running
    statuses = [status for _, status, _ in load.answers]
    latencies = [seconds * 1000 for _, _, seconds in load.answers]
    refused = Counter(status for status in statuses if not 200 <= status < 300)
    print(f"{len(statuses)} requests, {sum(refused.values())} not 2xx {dict(refused)}, "
          f"p50 {percentile(latencies, 50):.0f} ms, p99 {percentile(latencies, 99):.0f} ms")
    print("peak connections by service: " + ", ".join(f"{name} {peaks.get(name, 0)}" for name in SERVICES))
    print(f"peak connections of the run at one moment: {peak_total}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--replicas", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--rate", type=float, default=60.0, help="profile updates per second")
    parser.add_argument("--pool", type=int, nargs=2, metavar=("SIZE", "OVERFLOW"),
                        help="every service's pool instead of the launcher's share (10 20: the pools before)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="pinbid-connections-"))
    exported_pools = [n for n in os.environ if n.endswith(("_DB_POOL_SIZE", "_DB_MAX_OVERFLOW"))]
    env = {**{k: v for k, v in os.environ.items() if k not in exported_pools}, "PINBID_VAR": str(folder),
           "PINBID_DB_PREFIX": PREFIX, "PINBID_BASE_PORT": str(BASE_PORT), "PINBID_GATEWAY_PORT": str(GATEWAY_PORT),
           "PINBID_REPLICAS": str(args.replicas), "PINBID_PG_URL": PG}
    if args.pool:
        for name in SERVICES:
            env[f"{name.upper()}_DB_POOL_SIZE"], env[f"{name.upper()}_DB_MAX_OVERFLOW"] = map(str, args.pool)
    try:
        started = launcher("up", env)
        print(next(line for line in started.splitlines() if line.startswith("database connections")))
        asyncio.run(measure(args))
    finally:
        launcher("down", env)
        asyncio.run(forget_deployment(AMQP, PREFIX, SERVICES))  # the run's names on the shared broker
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            for name in SERVICES:
                conn.execute(f'DROP DATABASE IF EXISTS "{PREFIX}_{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
