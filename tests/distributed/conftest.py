"""The distributed run (`make up`: every service in its own process, on real PostgreSQL and RabbitMQ) started on
free ports, with its own databases and broker names, and removed afterwards."""

import asyncio
import contextlib
import fcntl
import os
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import aio_pika
import psycopg
import pytest
from pinbid_kit.bus.rabbit import forget_deployment, prefixed
from pinbid_launcher import services

SERVICES = [module.name for module in services.installed()]


def free_block(size: int) -> int:
    """The first port of `size` consecutive free ports."""
    for start in range(21000, 30000, 100):
        try:
            for port in range(start, start + size):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
            return start
        except OSError:
            continue
    raise RuntimeError("no free block of ports")


@contextlib.contextmanager
def one_run_at_a_time() -> Iterator[None]:
    """A launched run is a dozen processes: two at once (two pytest-xdist workers) would race for ports and
    starve each other's start on two cores."""
    with open(Path(tempfile.gettempdir()) / "pinbid-distributed-run.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def launcher(command: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pinbid_launcher", command], env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.fixture
def launch(postgres_url, amqp_url, tmp_path):
    """`launch(replicas)` starts a run and yields its gateways, databases, broker prefix and folder."""

    @contextlib.contextmanager
    def started(replicas: int) -> Iterator[dict]:
        with one_run_at_a_time():
            yield from _run(replicas)

    def _run(replicas: int) -> Iterator[dict]:
        base = free_block(30)
        prefix = f"pinbid_run_{uuid.uuid4().hex[:8]}"
        env = {**os.environ, "PINBID_VAR": str(tmp_path), "PINBID_DB_PREFIX": prefix, "PINBID_BASE_PORT": str(base),
               "PINBID_GATEWAY_PORT": str(base + 25), "PINBID_REPLICAS": str(replicas), "PINBID_PG_URL": postgres_url,
               "PINBID_AMQP_URL": amqp_url, "PYTHONUNBUFFERED": "1"}  # pools: the launcher's budget of 30
        up = launcher("up", env)
        try:
            if up.returncode != 0:
                logs = "\n".join(f"--- {p.name}\n{p.read_text()[-2000:]}" for p in (tmp_path / "log").glob("*.log"))
                pytest.fail(f"make up REPLICAS={replicas} failed: {up.stdout}{up.stderr}\n{logs}")
            yield {"gateways": [f"http://127.0.0.1:{base + 25 + n}" for n in range(replicas)],
                   "services": {name: f"http://127.0.0.1:{base + n}" for n, name in enumerate(SERVICES)},
                   "databases": {name: f"{postgres_url}/{prefix}_{name}" for name in SERVICES},
                   "prefix": prefix, "amqp_url": amqp_url, "var": tmp_path}
        finally:
            launcher("down", env)
            asyncio.run(forget_deployment(amqp_url, prefix, SERVICES))
            with psycopg.connect(f"{postgres_url}/postgres", autocommit=True) as conn:
                for name in SERVICES:
                    conn.execute(f'DROP DATABASE IF EXISTS "{prefix}_{name}" WITH (FORCE)')

    return started


async def dead_letters(amqp_url: str, prefix: str) -> dict[str, int]:
    """Depth of each service's dead-letter queue (a service that consumes nothing has none)."""
    connection = await aio_pika.connect(amqp_url)
    async with connection:
        depths = {}
        for name in SERVICES:
            channel = await connection.channel()  # a passive declare of a missing queue closes its channel
            try:
                queue = await channel.declare_queue(f"{prefixed(prefix, name)}.dlq", passive=True)
            except aio_pika.exceptions.ChannelNotFoundEntity:
                continue
            depths[name] = queue.declaration_result.message_count
        return depths
