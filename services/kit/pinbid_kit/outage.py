"""Work that outlasts its database's outage.

A failover, a restart or a slow checkpoint makes a database refuse connections for seconds or minutes. Work that
fails because of that is not at fault and must not spend a message's deliveries or be dead-lettered: it waits,
probing with a capped, jittered backoff until the database answers *and takes writes* (a failover passes through
a read-only primary), then runs again. Anything else still fails as before.
"""

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import psycopg
from prometheus_client import Gauge
from sqlalchemy import exc as sa_exc

from .errors import Busy

log = logging.getLogger("pinbid.outage")

T = TypeVar("T")

WAITERS = Gauge("pinbid_database_waiters", "Pieces of work waiting for their database to come back", ["database"])
WAIT_SECONDS = Gauge("pinbid_database_wait_seconds", "How long the oldest waiter has waited for its database",
                     ["database"])

# SQLSTATEs that say the database is away, not that the statement is wrong: class 08 (connection exception),
# admin/crash shutdown and cannot-connect-now (57P01-03), too many connections (53300), and a read-only
# transaction (25006), which is what a primary that just became a standby answers.
_AWAY_STATES = ("57P01", "57P02", "57P03", "53300", "25006")
FALSE_ALARMS = 3  # failures in a row that looked like an outage while the database answered at once


def database_away(error: BaseException) -> bool:
    """Whether a failure's causes say the database is unreachable or not taking writes."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if _says_away(current):
            return True
        current = getattr(current, "orig", None) or current.__cause__ or current.__context__
    return False


def _says_away(error: BaseException) -> bool:
    if isinstance(error, Busy | sa_exc.TimeoutError):
        return True  # the pool stayed dry: every connection is stuck on a database that does not answer
    if isinstance(error, sa_exc.DBAPIError) and error.connection_invalidated:
        return True
    state = getattr(error, "sqlstate", None)
    if isinstance(state, str) and (state.startswith("08") or state in _AWAY_STATES):
        return True
    # psycopg raises a bare OperationalError (no SQLSTATE) when it cannot connect or the connection dropped
    return type(error) is psycopg.OperationalError


class DatabaseWait:
    """Runs work again once its database is back, for as long as the outage lasts."""

    def __init__(self, database: str, writable: Callable[[], Awaitable[bool]], *, first_delay: float = 0.1,
                 max_delay: float = 5.0):
        self.database = database
        self.writable = writable
        self.first_delay = first_delay
        self.max_delay = max_delay
        self._since: list[float] = []  # when each current waiter started

    async def outlast(self, work: Callable[[], Awaitable[T]]) -> T:
        """`work()`, run again after each failure that says the database is away. A failure that keeps coming
        while the database answers at the first probe is not an outage: after a few it is raised as it is."""
        false_alarms = 0
        while True:
            try:
                return await work()
            except Exception as error:
                if not database_away(error) or false_alarms >= FALSE_ALARMS:
                    raise
                probes = await self.until_back(error)
                false_alarms = false_alarms + 1 if probes == 1 else 0

    async def until_back(self, error: BaseException | None = None) -> int:
        """Waits until the database answers and takes writes; returns how many probes that took."""
        started = time.monotonic()
        self._since.append(started)
        WAITERS.labels(self.database).inc()
        log.warning("database %s is away (%r): waiting for it", self.database, error)
        delay = self.first_delay
        probes = 0
        try:
            while True:
                await asyncio.sleep(delay * random.uniform(0.5, 1.0))
                WAIT_SECONDS.labels(self.database).set(time.monotonic() - min(self._since))
                probes += 1
                if await self.writable():
                    break
                delay = min(delay * 2, self.max_delay)
        finally:
            self._since.remove(started)
            WAITERS.labels(self.database).dec()
            WAIT_SECONDS.labels(self.database).set(time.monotonic() - min(self._since) if self._since else 0)
        log.info("database %s is back after %.1f s", self.database, time.monotonic() - started)
        return probes
