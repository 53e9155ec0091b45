"""Test databases. Each service package is migrated once per test process into a template, and every test
gets a clone of it (CREATE DATABASE ... TEMPLATE: a copy of a few files instead of a migration).

Every name starts with the process's prefix, `pbt_<pid>_`, so that a run tells its own databases from those
of other runs (other engineers, other pytest-xdist workers) and drops what dead runs (interrupted, killed)
left behind. Drops run side by side: each DROP DATABASE waits for a checkpoint, and drops that wait at the
same time share one, where dropping one by one costs a checkpoint each."""

import itertools
import os
import re
from concurrent.futures import ThreadPoolExecutor

import psycopg
from pinbid_kit.migrations import upgrade

PREFIX = "pbt_"
_OWNED = re.compile(rf"^{PREFIX}(\d+)_")
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


def drop_databases(server_url: str, names: list[str]) -> None:
    def drop(name: str) -> None:
        with psycopg.connect(f"{server_url}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    if not names:
        return
    with ThreadPoolExecutor(max_workers=min(DROPS_AT_ONCE, len(names))) as pool:
        list(pool.map(drop, names))


class RunDatabases:
    """The databases of this test process on one server."""

    def __init__(self, server_url: str) -> None:
        self.server_url = server_url
        self.prefix = run_prefix()
        self.templates: dict[str, str] = {}
        self.made: list[str] = []
        self._numbers = itertools.count()

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

    def drop_all(self) -> None:
        drop_databases(self.server_url, self.made)
        self.made.clear()
        self.templates.clear()

    def _template(self, package: str) -> str:
        if package not in self.templates:
            name = f"{self.prefix}template_{package.removeprefix('pinbid_')}"
            self._create(name, "")
            self.made.append(name)
            upgrade(f"{self.server_url}/{name}", package)
            self.templates[package] = name
        return self.templates[package]

    def _create(self, name: str, template: str) -> None:
        with psycopg.connect(f"{self.server_url}/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"{template}')
