"""Which failures say the database is away, and how work outlasts an outage."""

import httpx
import psycopg
import pytest
from pinbid_kit.db import Busy
from pinbid_kit.outage import FALSE_ALARMS, WAITERS, DatabaseWait, database_away
from sqlalchemy import exc as sa_exc


def wrapped(error: Exception) -> Exception:
    """As SQLAlchemy raises a driver error: its own exception, caused by the driver's."""
    try:
        try:
            raise error
        except Exception as orig:
            raise sa_exc.OperationalError("SELECT 1", {}, orig) from orig
    except Exception as outer:
        return outer


def caused_by(outer: Exception, cause: Exception) -> Exception:
    outer.__cause__ = cause
    return outer


@pytest.mark.parametrize("error", [
    psycopg.OperationalError("connection failed: Connection refused"),
    wrapped(psycopg.OperationalError("server closed the connection unexpectedly")),
    wrapped(psycopg.errors.AdminShutdown("terminating connection due to administrator command")),
    wrapped(psycopg.errors.CannotConnectNow("the database system is starting up")),
    wrapped(psycopg.errors.TooManyConnections("sorry, too many clients already")),
    wrapped(psycopg.errors.ReadOnlySqlTransaction("cannot execute UPDATE in a read-only transaction")),
    wrapped(psycopg.errors.ConnectionFailure("connection failure")),
    Busy(),
    sa_exc.TimeoutError("QueuePool limit reached"),
    caused_by(RuntimeError("a job step failed"), psycopg.OperationalError("connection refused")),
])
def test_failures_that_say_the_database_is_away(error):
    assert database_away(error)


@pytest.mark.parametrize("error", [
    ValueError("a message this handler cannot take"),
    wrapped(psycopg.errors.UniqueViolation("duplicate key")),
    wrapped(psycopg.errors.QueryCanceled("canceling statement due to statement timeout")),
    caused_by(httpx.ConnectError("Instagram is down"), ConnectionRefusedError(111, "Connection refused")),
    ConnectionRefusedError(111, "Connection refused"),
])
def test_failures_of_the_work_itself(error):
    assert not database_away(error)


class Flaky:
    """Work that fails `times` times with `error`, then answers."""

    def __init__(self, times: int, error: Exception):
        self.left, self.error, self.calls = times, error, 0

    async def __call__(self) -> str:
        self.calls += 1
        if self.left:
            self.left -= 1
            raise self.error
        return "done"


def probes(*answers: bool):
    seen = list(answers)

    async def writable() -> bool:
        return seen.pop(0) if len(seen) > 1 else seen[0]

    return writable


async def test_work_runs_again_once_the_database_takes_writes():
    wait = DatabaseWait("unit_outage", probes(False, False, False, True), first_delay=0.001, max_delay=0.002)
    work = Flaky(2, psycopg.OperationalError("connection refused"))
    assert await wait.outlast(work) == "done"
    assert work.calls == 3
    assert WAITERS.labels("unit_outage")._value.get() == 0


async def test_a_failure_of_the_work_itself_is_raised_at_once():
    wait = DatabaseWait("unit_outage", probes(True), first_delay=0.001)
    work = Flaky(1, ValueError("poison"))
    with pytest.raises(ValueError):
        await wait.outlast(work)
    assert work.calls == 1


async def test_an_outage_that_is_not_one_is_raised_after_a_few_tries():
    """The error looks like an outage but the database answers at the first probe every time."""
    wait = DatabaseWait("unit_outage", probes(True), first_delay=0.001)
    work = Flaky(100, psycopg.OperationalError("connection refused"))
    with pytest.raises(psycopg.OperationalError):
        await wait.outlast(work)
    assert work.calls == FALSE_ALARMS + 1
