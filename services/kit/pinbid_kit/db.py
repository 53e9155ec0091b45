"""Async SQLAlchemy on psycopg 3. One `Database` per service; the service layer owns transactions."""

import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import TYPE_CHECKING

from sqlalchemy import event, exc, make_url, text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

from .errors import Busy
from .outage import DatabaseWait

if TYPE_CHECKING:
    from .settings import KitSettings


def async_url(url: str) -> str:
    """Accept postgresql:// or postgresql+psycopg:// and always use the psycopg 3 driver."""
    for prefix in ("postgresql+psycopg://", "postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    raise ValueError(f"not a PostgreSQL URL: {url!r}")


IDLE_BEFORE_PING = 1.0  # seconds


def ping_when_idle(engine: AsyncEngine, idle_before_ping: float = IDLE_BEFORE_PING) -> None:
    """The pool's pre-ping, for connections that sat idle: one checked in less than `idle_before_ping` ago was
    answering then, and a ping before each of a busy service's transactions would be a round trip in every one
    (a hot path checks a connection out several times a second). A connection that fails its ping is replaced
    (the pool retries the checkout); a connection lost since its last use fails its statement, which invalidates
    every connection of the pool older than the failure, as a failed ping would."""
    pool = engine.sync_engine.pool

    def checked_in(dbapi_connection, record) -> None:
        record.info["idle_since"] = time.monotonic()

    def checked_out(dbapi_connection, record, proxy) -> None:
        idle_since = record.info.pop("idle_since", None)
        if idle_since is None or time.monotonic() - idle_since < idle_before_ping:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as error:
            raise exc.DisconnectionError(f"idle connection failed its ping: {type(error).__name__}") from error

    event.listen(pool, "checkin", checked_in)
    event.listen(pool, "checkout", checked_out)


class Database:
    """At most `pool_size + max_overflow` connections; a caller waits `pool_timeout` seconds for one, then
    gets `Busy` (503 with Retry-After) instead of queueing without end."""

    def __init__(self, url: str, *, pool_size: int = 10, max_overflow: int = 20, pool_timeout: float = 5.0,
                 idle_before_ping: float = IDLE_BEFORE_PING):
        self.url = async_url(url)
        self.engine: AsyncEngine = create_async_engine(
            self.url, pool_size=pool_size, max_overflow=max_overflow, pool_timeout=pool_timeout,
            hide_parameters=True,  # parameters hold personal data: never in logs or error messages
        )
        ping_when_idle(self.engine, idle_before_ping)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        # background work (handlers, the relay, jobs) waits through an outage instead of failing
        self.wait = DatabaseWait(make_url(self.url).database or "postgres", self.writable)

    @classmethod
    def from_settings(cls, settings: "KitSettings") -> "Database":
        return cls(settings.database_url, pool_size=settings.db_pool_size, max_overflow=settings.db_max_overflow,
                   pool_timeout=settings.db_pool_timeout)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """A session inside one transaction: committed on success, rolled back on error."""
        with _busy_when_no_connection_comes():
            async with self.sessions() as session, session.begin():
                yield session

    @asynccontextmanager
    async def connection_in_transaction(self) -> AsyncIterator[AsyncConnection]:
        """A Core connection inside one transaction, committed on success, rolled back on error: `transaction`
        without the ORM session, for work made only of statements (the outbox relay's round)."""
        with _busy_when_no_connection_comes():
            async with self.engine.begin() as conn:
                yield conn

    @asynccontextmanager
    async def autocommit(self) -> AsyncIterator[AsyncConnection]:
        """A connection in autocommit: each statement is its own transaction, with no BEGIN or COMMIT round trip.
        For a single read, or for a write that is one statement all or nothing."""
        with _busy_when_no_connection_comes():
            async with self.engine.connect() as conn:
                yield await conn.execution_options(isolation_level="AUTOCOMMIT")

    async def writable(self) -> bool:
        """The database answers and takes writes: not a standby, not read-only (a failover passes through both)."""
        try:
            async with self.engine.connect() as conn:
                return bool(await conn.scalar(text(
                    "SELECT NOT pg_is_in_recovery() AND current_setting('transaction_read_only') = 'off'")))
        except Exception:
            return False

    async def dispose(self) -> None:
        await self.engine.dispose()


@contextmanager
def _busy_when_no_connection_comes() -> Iterator[None]:
    """The pool's timeout (no connection came free in time) as `Busy`."""
    try:
        yield
    except exc.TimeoutError:
        raise Busy() from None
