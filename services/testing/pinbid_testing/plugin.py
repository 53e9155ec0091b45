"""The fixtures every suite can ask for (registered by the root conftest.py): the test servers, fresh
databases, captured spans, a movable clock and a key pair for tokens."""

import gc
import itertools
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from pinbid_kit.telemetry import configure_tracing
from pinbid_kit.tokens import TokenSigner, generate_keypair

from .clock import MovableClock
from .databases import RunDatabases
from .servers import reachable_postgres, reachable_rabbitmq

_SPANS = InMemorySpanExporter()


@pytest.fixture(scope="session")
def postgres_url() -> str:
    return reachable_postgres()


@pytest.fixture(scope="session")
def amqp_url() -> str:
    return reachable_rabbitmq()


@pytest.fixture(scope="session")
def run_databases(postgres_url: str) -> Iterator[RunDatabases]:
    """This test process's databases, one spare per package (a test never waits for the last one's to be emptied).
    What dead runs left behind is dropped first; the templates at the end."""
    databases = RunDatabases(postgres_url, spares=1)
    databases.drop_leftovers_of_dead_runs()
    yield databases
    databases.drop_all()


@pytest.fixture
def new_database(run_databases: RunDatabases) -> Iterator[Callable[..., str]]:
    """new_database(package=None) -> url of a database no other test had the name of: `package`'s migrated
    schema and no rows (recycling.py), or empty without a package. Emptied for the next test (or dropped) in the
    background once the test is over."""
    yield run_databases.new
    run_databases.release_made_in_background()


@pytest.fixture
def clock() -> MovableClock:
    return MovableClock()


class JwtKeys(NamedTuple):
    signer: TokenSigner  # signs tokens as identity does (a day long)
    public_key: Path  # what a service under test verifies them with (`jwt_public_key_file`)


@pytest.fixture(scope="session")
def jwt_keys(tmp_path_factory: pytest.TempPathFactory) -> JwtKeys:
    """One EdDSA key pair for the run's tests."""
    folder = tmp_path_factory.mktemp("keys")
    generate_keypair(folder / "jwt.pem", folder / "jwt.pub")
    return JwtKeys(TokenSigner((folder / "jwt.pem").read_bytes(), ttl_seconds=24 * 3600), folder / "jwt.pub")


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


def pytest_configure(config: pytest.Config) -> None:
    # A test process holds a million objects by its end (apps, engines, metadata); with the default thresholds
    # the collector walked them 15 times a worker, an eighth of the worker's CPU. Rarer young collections make
    # the full ones rarer too; cycles are still collected, later (measured in docs/benchmarks.md, session 11).
    gc.set_threshold(10_000, 20, 20)
    # Every connection of the run (this process's and the services' it starts) commits without waiting for the
    # WAL to reach the disk: what a crash of the server would lose is of no interest to a test, and the waits were
    # a share of every suite's time (docs/decisions/testing.md). libpq reads the variable at each connect.
    os.environ.setdefault("PGOPTIONS", "-c synchronous_commit=off")
    config.addinivalue_line("markers", "slow: a file that takes tens of seconds (processes, a seeded world): "
                                       "it is run first, so that pytest-xdist's workers end together")


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session):
    """Collecting imports every service's stack: objects that live to the end of the run and no garbage to speak
    of. The collector is held off while they are made, then leaves them out of its walks."""
    gc.disable()
    try:
        return (yield)
    finally:
        gc.freeze()
        gc.enable()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow files first (with `--dist loadfile --no-loadscope-reorder`, a worker takes the next file in this order
    when it is almost done). Files that launch a distributed run take turns with the other slow files: those runs
    wait for each other (tests/distributed/conftest.py), and two workers should not both be waiting. Files that
    capture spans last: tracing, once on, stays on in the process (`captured_spans`), and every later test would
    make and keep a span for each of its statements and requests."""
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::")[0], []).append(item)
    slow = [group for group in files.values() if group[0].get_closest_marker("slow")]
    launching = [group for group in slow if "launch" in group[0].fixturenames]
    others = [group for group in slow if "launch" not in group[0].fixturenames]
    turns = [group for pair in itertools.zip_longest(launching, others) for group in pair if group is not None]
    rest = [group for group in files.values() if not group[0].get_closest_marker("slow")]
    tracing = [group for group in rest if any("captured_spans" in item.fixturenames for item in group)]
    rest = [group for group in rest if group not in tracing]
    items[:] = [item for group in turns + rest + tracing for item in group]
