"""Test databases. Each service package is migrated once per test process into a template, and a test gets
a clone of it (CREATE DATABASE ... TEMPLATE: a copy of a few files instead of a migration), or, more often, the
database of an earlier test of the same package, emptied and renamed (recycling.py: a few milliseconds, where a
clone and its drop cost PostgreSQL a quarter of a second of CPU).

Every name starts with the process's prefix, `pbt_<pid>_`, so that a run tells its own databases from those
of other runs (other engineers, other pytest-xdist workers) and drops what dead runs (interrupted, killed)
left behind. A test's databases are recycled (or dropped, without a package or when they no longer look like a
clone) in the background as soon as the test ends, while the next tests run. With `spares`, the next test does not
wait for that: it takes a database emptied while an earlier test ran."""

import contextlib
import itertools
import os
import re
import uuid
from collections import Counter, deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor, wait

import psycopg
from pinbid_kit.migrations import upgrade
from sqlalchemy import make_url

from . import recycling
from .servers import POSTGRES_URL

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


@contextlib.contextmanager
def scratch_database(package: str | None = None, *, prefix: str = "bench",
                    server_url: str = POSTGRES_URL) -> Iterator[str]:
    """The url of a database of its own for a script (a benchmark): new, migrated with `package`'s migrations when
    one is given (else empty), and dropped when the block ends, however it ends."""
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(f"{server_url}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        if package:
            upgrade(f"{server_url}/{name}", package)
        yield f"{server_url}/{name}"
    finally:
        drop_database(server_url, name)


def drop_databases(server_url: str, names: list[str]) -> None:
    if not names:
        return
    with ThreadPoolExecutor(max_workers=min(DROPS_AT_ONCE, len(names))) as pool:
        list(pool.map(lambda name: drop_database(server_url, name), names))


class RunDatabases:
    """The databases of this test process on one server."""

    def __init__(self, server_url: str, *, spares: int = 0) -> None:
        """`spares`: databases of a package cloned beyond what the tests hold at once, so that a test takes one
        emptied while an earlier test ran instead of waiting for the emptying of the last test's (the next test's
        set-up starts the moment the last one's teardown ends: it waited for the whole emptying, a tenth to half a
        second on a loaded machine, at every test)."""
        self.server_url = server_url
        self.spares = spares
        self._spares_made: Counter[str] = Counter()  # package -> spares cloned so far
        # the process's prefix, then this instance's number: a test of this class beside the run's own instance
        # (one process) makes its own templates and clones, never the run's names
        self.prefix = f"{run_prefix()}{next(_INSTANCES)}_"
        self.templates: dict[str, str] = {}
        self.made: dict[str, str | None] = {}  # by the test running now: name -> its package (None: empty)
        self.shared: dict[str, str] = {}  # url -> package, of the databases a module's tests share (new_shared)
        self._fingerprints: dict[str, str] = {}  # package -> its template's (recycling.FINGERPRINT)
        self._numbers = itertools.count()
        self._worker = ThreadPoolExecutor(max_workers=DROPS_AT_ONCE, thread_name_prefix="test-databases")
        self._drops: list[Future] = []
        self._recycled: dict[str, deque[Future[str | None]]] = {}  # package -> names being emptied, or ready

    def existing(self) -> list[str]:
        with psycopg.connect(f"{self.server_url}/postgres", autocommit=True) as conn:
            rows = conn.execute("SELECT datname FROM pg_database WHERE datname LIKE %s", (f"{PREFIX}%",)).fetchall()
        return [row[0] for row in rows]

    def drop_leftovers_of_dead_runs(self) -> None:
        drop_databases(self.server_url, leftovers_of_dead_runs(self.existing()))

    def new(self, package: str | None = None) -> str:
        """The url of a database no other test has the name of: `package`'s migrated schema and no rows (an
        earlier test's database emptied, else a clone of the template), or empty without a package."""
        name = self._take_recycled(package) if package else None
        if name is None:
            name = self._name(package)
            self._create(name, f' TEMPLATE "{self._template(package)}"' if package else "")
        self.made[name] = package
        return f"{self.server_url}/{name}"

    def copy(self, url: str, package: str | None = None) -> str:
        """A new database holding what the database at `url` holds (no session may be open on it), released
        like the others when the test ends (recycled for `package` if it can be emptied into its template's
        likeness)."""
        if package:
            self._template(package)  # what a recycled database is compared with
        name = self._name(package)
        self._create(name, f' TEMPLATE "{url.rsplit("/", 1)[1]}"')
        self.made[name] = package
        return f"{self.server_url}/{name}"

    def release_made_in_background(self) -> None:
        """The databases of the test that just ended are emptied for the next tests (or dropped), while those
        tests run."""
        for name, package in self.made.items():
            self._release(name, package)
        self.made.clear()

    def new_shared(self, package: str) -> str:
        """`new`'s database for the tests of a module that share it (a module-scoped fixture): not released when
        a test ends, but by `release_shared`."""
        url = self.new(package)
        self.shared[url] = self.made.pop(url.rsplit("/", 1)[1])
        return url

    def release_shared(self, url: str) -> None:
        """A `new_shared` database, emptied for the next tests (or dropped) in the background."""
        self._release(url.rsplit("/", 1)[1], self.shared.pop(url))

    def _release(self, name: str, package: str | None) -> None:
        if package is None:
            self._drops.append(self._worker.submit(drop_database, self.server_url, name))
        else:
            self._recycled.setdefault(package, deque()).append(self._worker.submit(self._recycle, name, package))

    def drop_all(self) -> None:
        """At the end of the run: what is left, the recycled databases, the templates."""
        self.release_made_in_background()
        for url in list(self.shared):
            self.release_shared(url)
        for queue in self._recycled.values():
            for name in (future.result() for future in queue):
                if name:
                    self._drops.append(self._worker.submit(drop_database, self.server_url, name))
        self._recycled.clear()
        self._drops += [self._worker.submit(drop_database, self.server_url, name)
                        for name in self.templates.values()]
        self.templates.clear()
        done = wait(self._drops).done
        self._drops.clear()
        self._worker.shutdown()
        for drop in done:
            drop.result()  # a failed drop fails the run's teardown, not silently leaves a database

    def _name(self, package: str | None) -> str:
        return f"{self.prefix}{(package or 'db').removeprefix('pinbid_')}_{next(self._numbers)}"

    def _take_recycled(self, package: str) -> str | None:
        """The package's database released longest ago, emptied; None for a clone. An emptying still in flight is
        waited for (cheaper than a clone) once the package has its spares."""
        queue = self._recycled.get(package)
        while queue:
            if not queue[0].done() and self._spares_made[package] < self.spares:
                self._spares_made[package] += 1
                return None
            name = queue.popleft().result()
            if name:
                return name
        return None

    def _recycle(self, name: str, package: str) -> str | None:
        """`name` emptied under a new name (whoever still holds the old one cannot reach the next test's
        rows), or dropped when it no longer looks like a fresh clone: the new name, or None."""
        renamed = self._name(package)
        try:
            with psycopg.connect(f"{self.server_url}/postgres", autocommit=True) as admin:
                admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
                admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
                admin.execute(f'ALTER DATABASE "{name}" RENAME TO "{renamed}"')  # waits for the sessions to end
                admin.execute(f'ALTER DATABASE "{renamed}" ALLOW_CONNECTIONS true')
        except psycopg.Error:  # a session that would not end: the database goes, whatever its name now
            drop_databases(self.server_url, [name, renamed])
            return None
        try:
            with psycopg.connect(f"{self.server_url}/{renamed}", autocommit=True) as conn:
                if recycling.fingerprint(conn) == self._fingerprints[package]:
                    recycling.empty(conn)
                    return renamed
        except psycopg.Error:
            pass  # a schema without alembic_version, say: not a clone any more
        drop_database(self.server_url, renamed)
        return None

    def _template(self, package: str) -> str:
        if package not in self.templates:
            name = f"{self.prefix}template_{package.removeprefix('pinbid_')}"
            self._create(name, "")
            try:
                upgrade(f"{self.server_url}/{name}", package)
                with psycopg.connect(f"{self.server_url}/{name}", autocommit=True) as conn:
                    self._fingerprints[package] = recycling.fingerprint(conn)
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
