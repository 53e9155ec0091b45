"""The broker stops for 30 s under load: do users notice, and how long after it returns is the backlog out?

Starts a RabbitMQ node of its own (so the machine's shared broker is never stopped) and the distributed run on
its own ports, databases and broker names; runs a steady load of profile updates through the gateway (each
writes a `identity.user.updated.v1` event that marketplace, payments and social consume); stops the broker's
application for `--outage` seconds, starts it again, and prints:
- the requests answered during the outage and how many were not 2xx (users keep working: the outbox buffers);
- the events that waited in the outbox, and the time from the broker answering again until the last of them
  was published (outbox drained) and until the last consumer had handled them (delivered);
- the time each service took to report the broker up again (`pinbid_broker_up`).

    uv run python -m benchmarks.broker_outage [--outage 30] [--users 20] [--rate 40]
"""

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx
import psycopg

from .common import percentile, register_buyers

NODE = "pinbid-outage@localhost"
AMQP_PORT, DIST_PORT, BASE_PORT = 5689, 25689, 24100
GATEWAY_PORT = BASE_PORT + 25
PG = os.environ.get("PINBID_PG_URL", "postgresql://postgres@127.0.0.1:5432")
PREFIX = "pinbid_outage"
SERVICES = ("identity", "marketplace", "payments", "social", "content")


def broker_env(folder: Path) -> dict[str, str]:
    return {**os.environ, "RABBITMQ_NODENAME": NODE, "RABBITMQ_NODE_PORT": str(AMQP_PORT),
            "RABBITMQ_DIST_PORT": str(DIST_PORT), "RABBITMQ_MNESIA_BASE": str(folder / "mnesia"),
            "RABBITMQ_LOG_BASE": str(folder / "log"), "RABBITMQ_PID_FILE": str(folder / "pid"),
            "RABBITMQ_CONFIG_FILE": str(folder / "rabbitmq"), "RABBITMQ_ENABLED_PLUGINS_FILE": str(folder / "plugins")}


def start_broker(folder: Path) -> dict[str, str]:
    for sub in ("mnesia", "log"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    (folder / "plugins").write_text("[].\n")
    (folder / "rabbitmq.conf").write_text(f"listeners.tcp.default = 127.0.0.1:{AMQP_PORT}\n")
    if os.geteuid() == 0:  # the server scripts run the node as the rabbitmq user
        for path in [folder, *folder.rglob("*")]:
            shutil.chown(path, "rabbitmq")
    env = broker_env(folder)
    subprocess.run(["rabbitmq-server", "-detached"], env=env, check=True)
    for _ in range(60):  # the CLI cannot reach the node until it has registered
        if subprocess.run(["rabbitmqctl", "-n", NODE, "await_startup"], env=env, capture_output=True).returncode == 0:
            return env
        time.sleep(1)
    raise SystemExit(f"the benchmark's RabbitMQ node did not start; see {folder / 'log'}")


def ctl(env: dict[str, str], *args: str) -> None:
    subprocess.run(["rabbitmqctl", "-n", NODE, *args], env=env, check=True, capture_output=True)


def launcher(command: str, env: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, "-m", "pinbid_launcher", command], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"pinbid_launcher {command} failed:\n{done.stdout}{done.stderr}")


def unsent(before: datetime | None = None) -> int:
    total = 0
    for name in SERVICES:
        with psycopg.connect(f"{PG}/{PREFIX}_{name}") as conn:
            sql = "SELECT count(*) FROM outbox WHERE sent_at IS NULL"
            total += conn.execute(sql + (" AND created_at <= %s" if before else ""),
                                  (before,) if before else ()).fetchone()[0]
    return total


def undelivered(before: datetime) -> int:
    """identity's user.updated events up to `before` that a consumer has not handled yet."""
    with psycopg.connect(f"{PG}/{PREFIX}_identity") as conn:
        ids = [r[0] for r in conn.execute("SELECT id FROM outbox WHERE type = 'identity.user.updated.v1' "
                                          "AND created_at <= %s", (before,))]
    missing = 0
    for name in ("marketplace", "payments", "social"):
        with psycopg.connect(f"{PG}/{PREFIX}_{name}") as conn:
            handled = conn.execute("SELECT count(DISTINCT event_id) FROM inbox WHERE event_id = ANY(%s)",
                                   (ids,)).fetchone()[0]
            missing += len(ids) - handled
    return missing


async def broker_seen_up(ports: list[int]) -> bool:
    async with httpx.AsyncClient(timeout=2) as http:
        for port in ports:
            text = (await http.get(f"http://127.0.0.1:{port}/metrics")).text
            if not any(line.startswith("pinbid_broker_up{") and line.endswith(" 1.0") for line in text.splitlines()):
                return False
    return True


class Load:
    """`rate` profile updates a second, spread over `users` accounts; records each answer's time and status."""

    def __init__(self, http: httpx.AsyncClient, users: list[tuple[dict, str]], rate: float):
        self.http, self.users, self.rate = http, users, rate
        self.answers: list[tuple[float, int, float]] = []  # (when, status, seconds)
        self.stopping = False

    async def run(self) -> None:
        tasks, n = set(), 0
        while not self.stopping:
            headers, email = self.users[n % len(self.users)]
            task = asyncio.create_task(self.one(headers, email, n))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            n += 1
            await asyncio.sleep(1 / self.rate)
        await asyncio.gather(*tasks)

    async def one(self, headers: dict, email: str, n: int) -> None:
        started = time.perf_counter()
        try:
            status = (await self.http.put("/api/auth/profile", headers=headers,
                                          json={"name": f"Outage User {n}", "email": email})).status_code
        except httpx.HTTPError:
            status = 0
        self.answers.append((started, status, time.perf_counter() - started))


async def until(what: str, check, within: float = 180.0, every: float = 0.1) -> float:
    """Seconds until the async `check()` is true."""
    start = time.perf_counter()
    while not await check():
        if time.perf_counter() - start > within:
            raise SystemExit(f"gave up waiting for: {what}")
        await asyncio.sleep(every)
    return time.perf_counter() - start


async def measure(args, broker: dict[str, str]) -> None:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{GATEWAY_PORT}", timeout=30) as http:
        load = Load(http, await register_buyers(http, args.users, "outage"), args.rate)
        running = asyncio.create_task(load.run())
        await asyncio.sleep(args.warmup)
        print(f"stopping the broker for {args.outage:.0f} s with {args.rate:.0f} requests/s running")
        down_at = time.perf_counter()
        await asyncio.to_thread(ctl, broker, "stop_app")
        await asyncio.sleep(args.outage)
        waiting = await asyncio.to_thread(unsent)
        await asyncio.to_thread(ctl, broker, "start_app")
        back_at = time.perf_counter()
        back_wall = datetime.now(UTC)
        service_ports = [BASE_PORT + i for i in range(len(SERVICES))]
        # each figure from the moment the broker answered again
        await until("pinbid_broker_up 1 everywhere", lambda: broker_seen_up(service_ports))
        seen_up = time.perf_counter() - back_at
        await until("the backlog published", lambda: _is_zero(unsent, back_wall))
        drained = time.perf_counter() - back_at
        await until("the backlog handled", lambda: _is_zero(undelivered, back_wall))
        delivered = time.perf_counter() - back_at
        await asyncio.sleep(args.after)
        load.stopping = True
        await running
    during = [(status, seconds) for when, status, seconds in load.answers if down_at <= when <= back_at]
    failed = sum(1 for status, _ in during if not 200 <= status < 300)
    latencies = [seconds * 1000 for _, seconds in during]
    print(f"during the outage: {len(during)} requests, {failed} not 2xx, p50 {percentile(latencies, 50):.0f} ms, "
          f"p99 {percentile(latencies, 99):.0f} ms")
    print(f"events waiting in the outboxes when the broker returned: {waiting}")
    print(f"broker back → every service reports pinbid_broker_up 1: {seen_up:.1f} s")
    print(f"broker back → outbox backlog published: {drained:.1f} s")
    print(f"broker back → every consumer has handled the backlog: {delivered:.1f} s")


async def _is_zero(count, *args) -> bool:
    return await asyncio.to_thread(count, *args) == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--outage", type=float, default=30.0)
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--rate", type=float, default=40.0, help="profile updates per second")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--after", type=float, default=3.0)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="pinbid-outage-"))
    folder.chmod(0o755)
    env = {**os.environ, "PINBID_VAR": str(folder / "var"), "PINBID_DB_PREFIX": PREFIX,
           "PINBID_BASE_PORT": str(BASE_PORT), "PINBID_GATEWAY_PORT": str(GATEWAY_PORT),
           "PINBID_AMQP_URL": f"amqp://guest:guest@127.0.0.1:{AMQP_PORT}/",
           # small pools: the machine's PostgreSQL (max_connections 100) is shared with other work
           **{f"{name.upper()}_DB_POOL_SIZE": "5" for name in SERVICES},
           **{f"{name.upper()}_DB_MAX_OVERFLOW": "5" for name in SERVICES}}
    broker = start_broker(folder / "broker")
    try:
        launcher("up", env)
        asyncio.run(measure(args, broker))
    finally:
        launcher("down", env)
        subprocess.run(["rabbitmqctl", "-n", NODE, "stop"], env=broker, capture_output=True)
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            for name in SERVICES:
                conn.execute(f'DROP DATABASE IF EXISTS "{PREFIX}_{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
