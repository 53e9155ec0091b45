"""Time as the services see it: injectable, so tests move it instead of sleeping.

A replay of the past (the demo world, seeding history "as of" September) runs inside `as_of(moment)`: `utcnow()`
answers that moment, the events written meanwhile carry it in a header (`AS_OF_HEADER`), and their consumers
handle them as of that moment too, so what a replayed step causes elsewhere (a payment request, a notice, a
release) is dated when the step happened, not when the replay ran. Outside a replay nothing changes."""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime

Clock = Callable[[], datetime]
AS_OF_HEADER = "x-pinbid-as-of"

_as_of: ContextVar[datetime | None] = ContextVar("as_of", default=None)


def utcnow() -> datetime:
    return _as_of.get() or datetime.now(UTC)


def replayed() -> datetime | None:
    """The past moment being replayed, or None (the usual case: time is now)."""
    return _as_of.get()


@contextmanager
def as_of(moment: datetime | None) -> Iterator[None]:
    """Runs the block as of `moment` (None: as of now, for callers that replay only sometimes)."""
    if moment is not None and moment.tzinfo is None:
        raise ValueError("a replayed moment needs its time zone")
    token = _as_of.set(moment)
    try:
        yield
    finally:
        _as_of.reset(token)


def as_of_header() -> dict[str, str]:
    """The header that carries the replayed moment to an event's consumers (empty outside a replay)."""
    moment = _as_of.get()
    return {AS_OF_HEADER: moment.isoformat()} if moment is not None else {}


def moment_of(headers: dict[str, str]) -> datetime | None:
    """The replayed moment an event's headers carry, if any (an unreadable one is ignored: time is now)."""
    raw = headers.get(AS_OF_HEADER)
    if not raw:
        return None
    try:
        moment = datetime.fromisoformat(raw)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None
