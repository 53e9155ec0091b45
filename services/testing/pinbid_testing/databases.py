"""Test databases. Each service package is migrated once per test process into a template, and every test
gets a clone of it (CREATE DATABASE ... TEMPLATE: a copy of a few files instead of a migration).

Every name starts with the process's prefix, `pbt_<pid>_`, so that a run tells its own databases from those
of other runs (other engineers, other pytest-xdist workers) and drops what dead runs (interrupted, killed)
left behind. A test's databases are dropped in the background as soon as the test ends, while the next tests
run, a few side by side: each DROP DATABASE waits for a checkpoint, and drops that wait at the same time share
one, where dropping one by one at the end of the run cost a checkpoint each."""

import contextlib
import itertools
import os
import re
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor, wait

import psycopg
from pinbid_kit.migrations import upgrade
from sqlalchemy import make_url

PREFIX = "pbt_"
_OWNED = re.compile(rf"^{PREFIX}(\d+)_")
_INSTANCES = itertools.count()
DROPS_AT_ONCE = 8  # PostgreSQL is shared (max_connections 100): a few connections are enough to share checkpoints


def run_prefix(pid: int | None = None) -> str:
    return f"{PREFIX}{pid or os.getpid()}_"


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process, still running
    return True


def leftovers_of_dead_runs(names: list[str]) -> list[str]:
    """The test databases among `names` whose process is gone."""
    dead = []
    for name in names:
        owner = _OWNED.match(name)
        if owner and not process_alive(int(owner.group(1))):
            dead.append(name)
    return dead


def drop_database(server_url: str, name: str) -> None:
    with psycopg.connect(f"{server_url}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def drop_databases(server_url: str, names: list[str]) -> None:
    if not names:
        return
    with ThreadPoolExecutor(max_workers=min(DROPS_AT_ONCE, len(names))) as pool:
        list(pool.map(lambda name: drop_database(server_url, name), names))


class RunDatabases:
    """The databases of this test process on one server."""

    def __init__(self, server_url: str) -> None:
        self.server_url = server_url
        # the process's prefix, then this instance's number: a test of this class beside the run's own instance
        # (one process) makes its own templates and clones, never the run's names
        self.prefix = f"{run_prefix()}{next(_INSTANCES)}_"
        self.templates: dict[str, str] = {}
        self.made: list[str] = []  # by the test running now, templates aside
        self._numbers = itertools.count()
        self._dropper = ThreadPoolExecutor(max_workers=DROPS_AT_ONCE, thread_name_prefix="drop-test-database")
        self._drops: list[Future] = []

    def existing(self) -> list[str]:
        with psycopg.connect(f"{self.server_url}/postgres", autocommit=True) as conn:
            rows = conn.execute("SELECT datname FROM pg_database WHERE datname LIKE %s", (f"{PREFIX}%",)).fetchall()
        return [row[0] for row in rows]

    def drop_leftovers_of_dead_runs(self) -> None:
        drop_databases(self.server_url, leftovers_of_dead_runs(self.existing()))

    def new(self, package: str | None = None) -> str:
        """The url of a fresh database: a clone of `package`'s migrated template, or empty without a package."""
        label = (package or "db").removeprefix("pinbid_")
        name = f"{self.prefix}{label}_{next(self._numbers)}"
        template = f' TEMPLATE "{self._template(package)}"' if package else ""
        self._create(name, template)
        self.made.append(name)
        return f"{self.server_url}/{name}"

    def drop_made_in_background(self) -> None:
        """The databases of the test that just ended go, while the next tests run."""
        self._drops += [self._dropper.submit(drop_database, self.server_url, name) for name in self.made]
        self.made.clear()

    def drop_all(self) -> None:
        """At the end of the run: what is left, the templates, and the background drops finished."""
        self.drop_made_in_background()
        self._drops += [self._dropper.submit(drop_database, self.server_url, name)
                        for name in self.templates.values()]
        self.templates.clear()
        done = wait(self._drops).done
        self._drops.clear()
        self._dropper.shutdown()
        for drop in done:
            drop.result()  # a failed drop fails the run's teardown, not silently leaves a database

    def _template(self, package: str) -> str:
        if package not in self.templates:
            name = f"{self.prefix}template_{package.removeprefix('pinbid_')}"
            self._create(name, "")
            try:
                upgrade(f"{self.server_url}/{name}", package)
            except BaseException:
                drop_database(self.server_url, name)
                raise
            self.templates[package] = name
        return self.templates[package]

    def _create(self, name: str, template: str) -> None:
        with psycopg.connect(f"{self.server_url}/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"{template}')


@contextlib.contextmanager
def refusing_connections(database_url: str) -> Iterator[None]:
    """The database refuses new connections and its open sessions are terminated, as during a failover; it
    takes connections again when the block ends."""
    url = make_url(database_url)
    admin = url.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{url.database}" ALLOW_CONNECTIONS false')
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (url.database,))
        try:
            yield
        finally:
            conn.execute(f'ALTER DATABASE "{url.database}" ALLOW_CONNECTIONS true')
