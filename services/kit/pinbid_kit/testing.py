"""Pytest fixtures for real PostgreSQL and RabbitMQ (registered by the root conftest.py).

A suite that needs a server fails when CI is set and the server is not reachable; locally it skips
with the reason. Every test session works in fresh databases of its own, dropped at the end."""

import asyncio
import contextlib
import contextvars
import os
import socket
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from urllib.parse import urlparse

import httpx
import psycopg
import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from sqlalchemy import event

from .bus import Bus, InProcessBus
from .db import Database
from .migrations import upgrade
from .runtime import Service
from .telemetry import configure_tracing

POSTGRES_URL = os.environ.get("PINBID_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432")
AMQP_URL = os.environ.get("PINBID_TEST_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/")


def _unavailable(what: str, error: Exception) -> None:
    message = f"{what} is not reachable ({error!r}); start it (see README) to run this suite"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


_SPANS = InMemorySpanExporter()


@pytest.fixture
def captured_spans() -> Iterator[InMemorySpanExporter]:
    """The spans finished during the test. Tracing is configured for the whole process the first time
    (recording everything); only connections and clients made after that are instrumented."""
    configure_tracing("pinbid-tests", exporter=_SPANS)
    provider = trace.get_tracer_provider()
    assert isinstance(provider, TracerProvider) and provider.sampler.get_description() != "AlwaysOffSampler", \
        "tracing was configured without an exporter earlier in this process; spans would not be recorded"
    _SPANS.clear()
    yield _SPANS
    _SPANS.clear()


@pytest.fixture(scope="session")
def postgres_url() -> str:
    try:
        with psycopg.connect(f"{POSTGRES_URL}/postgres", connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:
        _unavailable("PostgreSQL", exc)
    return POSTGRES_URL


@pytest.fixture(scope="session")
def amqp_url() -> str:
    parsed = urlparse(AMQP_URL)
    try:
        socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 5672), timeout=3).close()
    except Exception as exc:
        _unavailable("RabbitMQ", exc)
    return AMQP_URL


@pytest.fixture(scope="session")
def new_database(postgres_url: str) -> Iterator[Callable[..., str]]:
    """new_database(package=None) -> url of a fresh database, migrated with `package`'s migrations."""
    created: list[str] = []

    def make(package: str | None = None) -> str:
        name = f"test_{(package or 'db').removeprefix('pinbid_')}_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(f"{postgres_url}/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        created.append(name)
        url = f"{postgres_url}/{name}"
        if package:
            upgrade(url, package)
        return url

    yield make
    with psycopg.connect(f"{postgres_url}/postgres", autocommit=True) as conn:
        for name in created:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.asynccontextmanager
async def running(*services: Service, bus: Bus | None = None) -> AsyncIterator[Bus]:
    """Run services as the launcher does (consumers subscribed, outbox relay and jobs started) on
    `bus` (an in-process bus by default). Yields the bus."""
    bus = bus or InProcessBus(retry_base_seconds=0.01)
    for service in services:
        service.attach(bus, relay_idle_seconds=0.2)
    await bus.start()
    for service in services:
        await service.start_background()
    try:
        yield bus
    finally:
        for service in services:
            await service.stop_background()
        await bus.stop()
        for service in services:
            await service.db.dispose()


def client(app) -> httpx.AsyncClient:
    """An HTTP client for an ASGI app, without a network."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app, raise_app_exceptions=False),
                             base_url="http://test")


async def eventually(check: Callable[[], Awaitable[bool]], *, within: float = 30.0, every: float = 0.05) -> None:
    """Wait until `check()` is true (events are handled asynchronously); fail after `within` seconds."""
    deadline = asyncio.get_running_loop().time() + within
    while True:
        if await check():
            return
        if asyncio.get_running_loop().time() > deadline:
            pytest.fail(f"condition not met within {within}s")
        await asyncio.sleep(every)


_COUNTING: contextvars.ContextVar["Counted | None"] = contextvars.ContextVar("counting", default=None)


@dataclass
class Counted:
    statements: list[str] = field(default_factory=list)
    commits: int = 0  # transactions that commit (a statement in autocommit is not one)


@contextlib.contextmanager
def counting_statements(db: Database) -> Iterator[Counted]:
    """The SQL statements and commits of what runs in this context (SQLAlchemy's cursor events), so that a change
    adding a round trip to a hot call fails its test. Jobs, relays and consumers running in other contexts are not
    counted; neither are the pool's pings."""
    engine = db.engine.sync_engine
    counted = Counted()

    def on_statement(conn, cursor, statement, parameters, context, executemany) -> None:
        if _COUNTING.get() is counted:
            counted.statements.append(statement)

    def on_commit(conn) -> None:
        if _COUNTING.get() is counted:
            counted.commits += 1

    event.listen(engine, "before_cursor_execute", on_statement)
    event.listen(engine, "commit", on_commit)
    token = _COUNTING.set(counted)
    try:
        yield counted
    finally:
        _COUNTING.reset(token)
        event.remove(engine, "before_cursor_execute", on_statement)
        event.remove(engine, "commit", on_commit)
