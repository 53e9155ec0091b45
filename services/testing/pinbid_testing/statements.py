"""Counting what a call sends to the database, so that a change adding a round trip to a hot call fails its test."""

import contextlib
import contextvars
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from pinbid_kit.db import Database
from sqlalchemy import event

_COUNTING: contextvars.ContextVar["Counted | None"] = contextvars.ContextVar("counting", default=None)
_OUTBOX_INSERT = re.compile(r"\binsert\s+into\s+outbox\b", re.IGNORECASE)
_NOTIFY = re.compile(r"\bnotify\s+pinbid_outbox\b|\bpg_notify\s*\(", re.IGNORECASE)


@dataclass
class Counted:
    statements: list[str] = field(default_factory=list)
    commits: int = 0  # transactions that commit (a statement in autocommit is not one)

    def outbox_writes(self) -> tuple[int, int]:
        """(statements inserting into the outbox, statements waking its relay): a use case writes what it causes
        once, (1, 1) (issue 32)."""
        return (sum(1 for s in self.statements if _OUTBOX_INSERT.search(s)),
                sum(1 for s in self.statements if _NOTIFY.search(s)))


@contextlib.contextmanager
def counting_statements(db: Database) -> Iterator[Counted]:
    """The SQL statements and commits of what runs in this context (SQLAlchemy's cursor events). Jobs, relays
    and consumers running in other contexts are not counted; neither are the pool's pings."""
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
