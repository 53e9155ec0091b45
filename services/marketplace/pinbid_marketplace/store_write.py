"""The one statement that writes what a hot call changed: every changed slot and bid with all the events (one
outbox insert, one NOTIFY), all or nothing, guarded by the slot's version when a placement read it unlocked
(`store.read_for_placement`). Written as SQLAlchemy text with array parameters, so the statement has one shape
whatever the number of rows (store.py says why)."""

from dataclasses import dataclass

from pinbid_kit.events import EventData
from pinbid_kit.outbox import NOTIFY_CHANNEL, outbox_rows
from sqlalchemy import Column, String, Table, text
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncConnection

from . import SERVICE
from .models import Bid, Slot

# The columns a use case writes. A slot's others are its listing's (written when it is created, and by the event
# handlers that keep the creator's figures fresh). A bid's columns are split in three, and a test checks that
# together they are the model's: the use cases write BID_INSERTED (BID_UPDATED once the bid exists), and the event
# handlers own the payment, the pin, the pinned comment's figures (a new bid's start at 0), the offer's window and a
# campaign's release.
SLOT_WRITTEN = ("id", "current_bid", "bid_count", "bidder_count", "auction_end", "status", "outcome", "winning_bid_id",
                "closed_at", "updated_at")
BID_INSERTED = ("id", "slot_id", "buyer_id", "amount", "ceiling", "auto_bid_enabled", "max_auto_bid", "seq", "status",
                "final_price", "comment_id", "comment_username", "comment_text", "comment_read_at", "approved_text",
                "approved_at", "decided_at", "is_demo", "created_at", "updated_at", "raises", "campaign_id")
# a campaign's bid stays the campaign's (a change by hand that would break its budget is refused: bidding.py)
BID_SET_ONCE = ("id", "slot_id", "buyer_id", "is_demo", "created_at", "campaign_id")
BID_UPDATED = tuple(c for c in BID_INSERTED if c not in BID_SET_ONCE)
BID_OF_HANDLERS = ("pin_deadline_at", "payment_id", "payment_status", "payment_expires_at", "pinned_comment_id",
                   "pinned_text", "pinned_status", "pinned_at", "dispute_outcome", "paid_at", "refunded",
                   "offer_expires_at", "released_at")
BID_COUNTERS = ("likes", "replies", "clicks")
_POSTGRESQL = postgresql.dialect()


def array_element_type(column: Column) -> str:
    """The SQL type an array parameter for `column` is cast to: the model's own type, strings as text (a cast to
    varchar(n) would silently cut a longer value that the column itself refuses)."""
    if isinstance(column.type, String):
        return "text"
    return column.type.compile(dialect=_POSTGRESQL).lower()


def _unnest(prefix: str, table: Table, columns: tuple[str, ...]) -> str:
    arrays = ", ".join(f"CAST(:{prefix}_{c} AS {array_element_type(table.c[c])}[])" for c in columns)
    return f"unnest({arrays}) AS v({', '.join(columns)})"


# All or nothing in one statement: the slots are updated only where their version is still the one read (when
# `seen_version` is given; an UPDATE waits for a concurrent writer's commit and then rechecks its condition on the
# new row), and the bids and events are written only when every slot was. `held` is the time from the slots' row
# locks to the last row written (the commit that releases them follows at once, in the same round trip).
# Sent as one line: psycopg parses a statement's placeholders again on every execution when it is longer than
# psycopg._queries.MAX_CACHED_STATEMENT_LENGTH (4,096 bytes), and this one, indented, was (a test keeps it within).
_WRITE = text(" ".join(f"""
    WITH written_slots AS (
        UPDATE slots SET {", ".join(f"{c} = v.{c}" for c in SLOT_WRITTEN[1:])}
        FROM {_unnest("slot", Slot.__table__, SLOT_WRITTEN)}
        WHERE slots.id = v.id AND (CAST(:seen_version AS bigint) IS NULL OR slots.version = :seen_version)
        RETURNING clock_timestamp() AS at),
    guard AS (SELECT count(*) = :slot_count AS ok FROM written_slots),
    written_bids AS (
        INSERT INTO bids ({", ".join(BID_INSERTED + BID_COUNTERS)})
        SELECT {", ".join(f"v.{c}" for c in BID_INSERTED)}, {", ".join("0" for _ in BID_COUNTERS)}
        FROM {_unnest("bid", Bid.__table__, BID_INSERTED)}
        WHERE (SELECT ok FROM guard)
        ON CONFLICT (id) DO UPDATE SET {", ".join(f"{c} = excluded.{c}" for c in BID_UPDATED)}
        RETURNING clock_timestamp() AS at),
    events AS (
        INSERT INTO outbox (id, type, envelope, headers)
        SELECT * FROM unnest(CAST(:event_id AS uuid[]), CAST(:event_type AS text[]), CAST(:event_envelope AS jsonb[]),
                             CAST(:event_headers AS jsonb[]))
        WHERE (SELECT ok FROM guard)
        RETURNING clock_timestamp() AS at)
    SELECT ok, CASE WHEN ok THEN pg_notify('{NOTIFY_CHANNEL}', '') END AS notified,
           extract(epoch FROM greatest((SELECT max(at) FROM written_bids), (SELECT max(at) FROM events))
                              - (SELECT min(at) FROM written_slots)) AS held
    FROM guard""".split()))


@dataclass(frozen=True)
class Written:
    ok: bool  # False: a slot's version was no longer the one read, and nothing was written
    lock_held_seconds: float


async def write(conn: AsyncConnection, *, slots: list[Slot], bids: list[Bid], events: list[EventData],
                seen_version: int | None = None) -> Written:
    """Write the slots and bids as they are now (a bid not yet stored is inserted) and record `events`. With
    `seen_version` (one slot), nothing is written unless the slot's version is still that one."""
    assert seen_version is None or len(slots) == 1
    params: dict[str, object] = {"seen_version": seen_version, "slot_count": len(slots)}
    for column in SLOT_WRITTEN:
        params[f"slot_{column}"] = [getattr(s, column) for s in slots]
    for column in BID_INSERTED:
        params[f"bid_{column}"] = [getattr(b, column) for b in bids]
    rows = outbox_rows(events, source=SERVICE)
    for key in ("id", "type", "envelope", "headers"):
        params[f"event_{key}"] = [r[key] for r in rows]
    row = (await conn.execute(_WRITE, params)).one()
    return Written(ok=bool(row.ok), lock_held_seconds=float(row.held or 0))
