"""The SQL of the hot calls: one statement locks a row and reads everything its rule needs, one statement writes
every changed slot and bid with all the events (one outbox insert, one NOTIFY), then the commit.

Written as SQLAlchemy text with array parameters, so each statement has one shape whatever the number of rows:
it is compiled once and psycopg prepares it on the server after a few calls. Reads come back as transient model
objects (never added to a session: no unit of work, no flush), so the rules, the events and the answer use them
as they use loaded rows.

Reading the bids in the statement that locks the slot: a subquery would see the bids as of the statement's start,
before the lock was granted, and miss what the previous holder committed; the VOLATILE functions of migration
0003 take their own snapshot when called, after the lock (see decisions.md, "Lean hot path").
"""

import uuid
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime

from pinbid_kit.db import Busy, Database
from pinbid_kit.events import EventData
from pinbid_kit.outbox import NOTIFY_CHANNEL, outbox_rows
from sqlalchemy import TextClause, exc, text
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncConnection

from .announcements import NAME
from .models import Bid, Slot, User

SLOT_COLUMNS = tuple(c.name for c in Slot.__table__.columns)
BID_COLUMNS = tuple(c.name for c in Bid.__table__.columns)
USER_COLUMNS = tuple(c.name for c in User.__table__.columns)


@dataclass
class Locked:
    """A locked slot with the bids the rule needs (by id) and, when asked for, the acting buyer or the bidders."""

    slot: Slot
    bids: dict[uuid.UUID, Bid]
    buyer: User | None = None
    bidders: dict[uuid.UUID, User | None] = field(default_factory=dict)  # by bid id, when asked for


def _select_list(alias: str, columns: Iterable[str], prefix: str) -> str:
    return ", ".join(f"{alias}.{c} AS {prefix}{c}" for c in columns)


def slot_of(row: Row) -> Slot:
    values = row._mapping
    return Slot(**{c: values["s_" + c] for c in SLOT_COLUMNS})


def bid_of(row: Row) -> Bid | None:
    values = row._mapping
    if values["b_id"] is None:
        return None
    return Bid(**{c: values["b_" + c] for c in BID_COLUMNS})


def user_of(row: Row) -> User | None:
    values = row._mapping
    if values["u_id"] is None:
        return None
    return User(**{c: values["u_" + c] for c in USER_COLUMNS})


def copy_slot(slot: Slot) -> Slot:
    return Slot(**{c: getattr(slot, c) for c in SLOT_COLUMNS})


def copy_bid(bid: Bid) -> Bid:
    return Bid(**{c: getattr(bid, c) for c in BID_COLUMNS})


_LOCK_FOR_PLACEMENT = text(f"""
    WITH locked AS MATERIALIZED (SELECT * FROM slots WHERE id = :slot_id FOR UPDATE)
    SELECT {_select_list("s", SLOT_COLUMNS, "s_")}, {_select_list("b", BID_COLUMNS, "b_")}
    FROM locked s
    LEFT JOIN LATERAL marketplace_placement_bids(s.id, CAST(:buyer_ids AS uuid[]), CAST(:bid_ids AS uuid[])) b
        ON true""")


async def lock_for_placement(conn: AsyncConnection, slot_id: uuid.UUID, buyer_ids: list[uuid.UUID],
                             bid_ids: list[uuid.UUID]) -> Locked | None:
    """The slot FOR UPDATE, its two best live bids, the live bids of `buyer_ids` and the bids `bid_ids`."""
    rows = (await conn.execute(_LOCK_FOR_PLACEMENT, {"slot_id": slot_id, "buyer_ids": buyer_ids,
                                                     "bid_ids": bid_ids})).all()
    if not rows:
        return None
    bids = {bid.id: bid for bid in map(bid_of, rows) if bid is not None}
    return Locked(slot=slot_of(rows[0]), bids=bids)


@asynccontextmanager
async def reading(db: Database) -> AsyncIterator[AsyncConnection]:
    """A connection in autocommit for a single read: no BEGIN or COMMIT round trip, no lock."""
    try:
        async with db.engine.connect() as conn:
            yield await conn.execution_options(isolation_level="AUTOCOMMIT")
    except exc.TimeoutError:  # the pool's: no connection came free in time
        raise Busy() from None


_LOCK_BID_OF_CREATOR = text(f"""
    SELECT {_select_list("s", SLOT_COLUMNS, "s_")}, {_select_list("b", BID_COLUMNS, "b_")},
           {_select_list("u", USER_COLUMNS, "u_")}
    FROM bids b JOIN slots s ON s.id = b.slot_id LEFT JOIN users u ON u.id = b.buyer_id
    WHERE b.id = :bid_id AND s.creator_id = :creator_id
    FOR UPDATE OF b""")


async def lock_bid_of_creator(conn: AsyncConnection, bid_id: uuid.UUID, creator_id: uuid.UUID) -> Locked | None:
    """A bid on one of the creator's slots FOR UPDATE, with its slot and its buyer."""
    row = (await conn.execute(_LOCK_BID_OF_CREATOR, {"bid_id": bid_id, "creator_id": creator_id})).first()
    if row is None:
        return None
    bid = bid_of(row)
    assert bid is not None
    return Locked(slot=slot_of(row), bids={bid.id: bid}, buyer=user_of(row))


def _lock_slots_for_closing(where: str, *, skip_locked: bool, every_bid: bool) -> TextClause:
    bidders = f", {_select_list('u', USER_COLUMNS, 'u_')}" if every_bid else ""
    return text(f"""
        WITH locked AS MATERIALIZED (
            SELECT * FROM slots WHERE {where} ORDER BY auction_end LIMIT :limit
            FOR UPDATE{" SKIP LOCKED" if skip_locked else ""})
        SELECT {_select_list("s", SLOT_COLUMNS, "s_")}, {_select_list("b", BID_COLUMNS, "b_")}{bidders}
        FROM locked s LEFT JOIN LATERAL marketplace_slot_bids(s.id, {"true" if every_bid else "false"}) b ON true
        {"LEFT JOIN users u ON u.id = b.buyer_id" if every_bid else ""}""")


# the closer's batch: rows a bid or another replica holds are skipped and taken next round
_LOCK_DUE = _lock_slots_for_closing("status = 'ACTIVE' AND auction_end <= :now", skip_locked=True, every_bid=False)
# the creator ends an auction and sees its whole history: every bid with its bidder
_LOCK_ONE = _lock_slots_for_closing("id = :slot_id", skip_locked=False, every_bid=True)


def _by_slot(rows: list[Row], *, with_bidders: bool = False) -> list[Locked]:
    locked: dict[uuid.UUID, Locked] = {}
    for row in rows:
        slot_id = row._mapping["s_id"]
        entry = locked.get(slot_id)
        if entry is None:
            entry = locked[slot_id] = Locked(slot=slot_of(row), bids={})
        bid = bid_of(row)
        if bid is not None:
            entry.bids[bid.id] = bid
            if with_bidders:
                entry.bidders[bid.id] = user_of(row)
    return list(locked.values())


async def lock_due_for_closing(conn: AsyncConnection, now: datetime, limit: int) -> list[Locked]:
    """Up to `limit` due ACTIVE slots FOR UPDATE SKIP LOCKED, each with all its live bids."""
    return _by_slot((await conn.execute(_LOCK_DUE, {"now": now, "limit": limit})).all())


async def lock_for_closing(conn: AsyncConnection, slot_id: uuid.UUID) -> Locked | None:
    """One slot FOR UPDATE with every bid it ever had and their bidders."""
    found = _by_slot((await conn.execute(_LOCK_ONE, {"slot_id": slot_id, "limit": 1})).all(), with_bidders=True)
    return found[0] if found else None


# the columns a use case may change; everything else of a bid (payment, pin) belongs to the event handlers
SLOT_WRITTEN = ("id", "current_bid", "bid_count", "auction_end", "status", "outcome", "winning_bid_id", "closed_at",
                "updated_at")
BID_INSERTED = ("id", "slot_id", "buyer_id", "amount", "ceiling", "auto_bid_enabled", "max_auto_bid", "seq", "status",
                "final_price", "comment_id", "comment_username", "comment_text", "is_demo", "created_at",
                "updated_at")
BID_UPDATED = ("amount", "ceiling", "auto_bid_enabled", "max_auto_bid", "seq", "status", "final_price", "comment_id",
               "comment_username", "comment_text", "updated_at")
_SQL_TYPE = {"id": "uuid", "slot_id": "uuid", "buyer_id": "uuid", "winning_bid_id": "uuid", "current_bid": "numeric",
             "amount": "numeric", "ceiling": "numeric", "max_auto_bid": "numeric", "final_price": "numeric",
             "bid_count": "integer", "seq": "integer", "auction_end": "timestamptz", "closed_at": "timestamptz",
             "created_at": "timestamptz", "updated_at": "timestamptz", "auto_bid_enabled": "boolean",
             "is_demo": "boolean", "status": "text", "outcome": "text", "comment_id": "text",
             "comment_username": "text", "comment_text": "text"}


def _unnest(prefix: str, columns: tuple[str, ...]) -> str:
    arrays = ", ".join(f"CAST(:{prefix}_{c} AS {_SQL_TYPE[c]}[])" for c in columns)
    return f"unnest({arrays}) AS v({', '.join(columns)})"


_WRITE = text(f"""
    WITH written_slots AS (
        UPDATE slots SET {", ".join(f"{c} = v.{c}" for c in SLOT_WRITTEN[1:])}
        FROM {_unnest("slot", SLOT_WRITTEN)} WHERE slots.id = v.id),
    written_bids AS (
        INSERT INTO bids ({", ".join(BID_INSERTED)}, likes, replies, clicks)
        SELECT {", ".join(f"v.{c}" for c in BID_INSERTED)}, 0, 0, 0 FROM {_unnest("bid", BID_INSERTED)}
        ON CONFLICT (id) DO UPDATE SET {", ".join(f"{c} = excluded.{c}" for c in BID_UPDATED)}),
    events AS (
        INSERT INTO outbox (id, type, envelope, headers)
        SELECT * FROM unnest(CAST(:event_id AS uuid[]), CAST(:event_type AS text[]), CAST(:event_envelope AS jsonb[]),
                             CAST(:event_headers AS jsonb[])))
    SELECT pg_notify('{NOTIFY_CHANNEL}', '')""")


async def write(conn: AsyncConnection, *, slots: list[Slot], bids: list[Bid], events: list[EventData]) -> None:
    """Write the slots and bids as they are now (a bid not yet stored is inserted) and record `events`."""
    params: dict[str, list] = {}
    for column in SLOT_WRITTEN:
        params[f"slot_{column}"] = [getattr(s, column) for s in slots]
    for column in BID_INSERTED:
        params[f"bid_{column}"] = [getattr(b, column) for b in bids]
    rows = outbox_rows(events, source=NAME)
    for key in ("id", "type", "envelope", "headers"):
        params[f"event_{key}"] = [r[key] for r in rows]
    await conn.execute(_WRITE, params)
