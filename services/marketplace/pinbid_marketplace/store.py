"""The SQL of the hot calls' reads: one statement reads (or locks) a row with everything its rule needs; the one
statement that writes them back is `store_write.py`'s. A placement reads unlocked and writes guarded by the slot's
version, in autocommit; the other calls lock, write and commit.

Written as SQLAlchemy text with array parameters, so each statement has one shape whatever the number of rows:
it is compiled once and psycopg prepares it on the server after a few calls. Reads come back as transient model
objects (never added to a session: no unit of work, no flush), so the rules, the events and the answer use them
as they use loaded rows.

Reading the bids in the statement that locks the slot: a subquery would see the bids as of the statement's start,
before the lock was granted, and miss what the previous holder committed; the VOLATILE functions of migration
0003 take their own snapshot when called, after the lock (docs/decisions/auctions-and-bidding.md).
"""

import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from pinbid_kit.events.trust import HARD_SIGNALS
from sqlalchemy import TextClause, text
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncConnection

from .domain import auction
from .domain.comments import Comment
from .models import Bid, Slot, User

SLOT_COLUMNS = tuple(c.name for c in Slot.__table__.columns)
BID_COLUMNS = tuple(c.name for c in Bid.__table__.columns)
USER_COLUMNS = tuple(c.name for c in User.__table__.columns)


@dataclass
class SlotRows:
    """A slot (locked, or read with its version) with the bids the rule needs (by id) and, when asked for, the acting
    buyer or the bidders."""

    slot: Slot
    bids: dict[uuid.UUID, Bid]
    buyer: User | None = None
    bidders: dict[uuid.UUID, User | None] = field(default_factory=dict)  # by bid id, when asked for
    shared_signal: str | None = None  # a hard signal the buyer shares with the slot's creator (Buy Now's lock)
    tied: dict[uuid.UUID, str] = field(default_factory=dict)  # a placement's buyers tied to the creator: the kind


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


def _hard_kinds() -> str:
    """The hard signal kinds as SQL constants: a statement that reads them keeps one shape."""
    return ", ".join(f"'{kind}'" for kind in sorted(HARD_SIGNALS))


# `tied`: which of the batch's buyers share a hard signal with the slot's creator (buyer -> kind), read in the same
# snapshot as the slot and its version: a tie committed before this read refuses the bid here; one committed after
# it wrote the slot (suspensions.withdraw_associates), so the guarded write finds the version changed and reads again
_READ_FOR_PLACEMENT = text(f"""
    WITH seen AS MATERIALIZED (
        SELECT slots.*, (
            SELECT coalesce(jsonb_object_agg(t.user_id, t.kind), CAST('{{}}' AS jsonb)) FROM (
                SELECT own.user_id, min(own.kind) AS kind FROM account_signals own
                JOIN account_signals creators ON creators.kind = own.kind AND creators.value_hash = own.value_hash
                WHERE own.user_id = ANY(CAST(:buyer_ids AS uuid[])) AND creators.user_id = slots.creator_id
                  AND own.kind IN ({_hard_kinds()})
                GROUP BY own.user_id) t) AS tied
        FROM slots WHERE id = :slot_id)
    SELECT {_select_list("s", SLOT_COLUMNS, "s_")}, {_select_list("b", BID_COLUMNS, "b_")}, s.tied AS tied
    FROM seen s
    LEFT JOIN LATERAL marketplace_placement_bids(s.id, CAST(:buyer_ids AS uuid[]), CAST(:bid_ids AS uuid[])) b
        ON true""")


async def read_for_placement(conn: AsyncConnection, slot_id: uuid.UUID, buyer_ids: list[uuid.UUID],
                             bid_ids: list[uuid.UUID]) -> SlotRows | None:
    """The slot (unlocked, with its version), its two best live bids, the live bids of `buyer_ids` and the bids
    `bid_ids`: what a batch of placements needs, to be written back with `store_write.write(..., seen_version=...)`;
    and which of `buyer_ids` are tied to the slot's creator by a hard signal."""
    rows = (await conn.execute(_READ_FOR_PLACEMENT, {"slot_id": slot_id, "buyer_ids": buyer_ids,
                                                     "bid_ids": bid_ids})).all()
    if not rows:
        return None
    bids = {bid.id: bid for bid in map(bid_of, rows) if bid is not None}
    tied = {uuid.UUID(buyer): kind for buyer, kind in (rows[0].tied or {}).items()}
    return SlotRows(slot=slot_of(rows[0]), bids=bids, tied=tied)


def _one_bid(row: Row | None) -> SlotRows | None:
    """A row of a bid with its slot and buyer, as SlotRows."""
    if row is None:
        return None
    bid = bid_of(row)
    assert bid is not None
    return SlotRows(slot=slot_of(row), bids={bid.id: bid}, buyer=user_of(row))


# The rule that keeps a batch from overwriting a change it did not read: whoever changes a live bid of a slot
# outside a batch bumps the slot's version (the trigger of migration 0008 bumps it on every update of the row, this
# no-op one included), so the batch that read the slot before finds its version changed, writes nothing and reads
# again. The buyer's calls get their bid only from `lock_bid_of_buyer`, which does it in the statement that locks
# the bid; the other writers of bids write a closed slot's bids (approvals, payments, pins), which no batch writes
# (place_bid refuses a closed slot), or change the slot row itself (the closer, Buy Now).
def _lock_bid_of_buyer_sql(*, with_best: bool) -> TextClause:
    best_columns = f", {_select_list('l', BID_COLUMNS, 'l_')}" if with_best else ""
    best_bids = "\n    LEFT JOIN LATERAL marketplace_best_bids(s.id, 3) l ON true" if with_best else ""
    return text(f"""
    WITH touched AS MATERIALIZED (
        UPDATE slots SET version = version FROM bids
        WHERE bids.id = :bid_id AND bids.buyer_id = :buyer_id AND slots.id = bids.slot_id
        RETURNING slots.*)
    SELECT {_select_list("s", SLOT_COLUMNS, "s_")}, {_select_list("b", BID_COLUMNS, "b_")},
           {_select_list("u", USER_COLUMNS, "u_")}{best_columns}
    FROM touched s JOIN bids b ON b.id = :bid_id LEFT JOIN users u ON u.id = b.buyer_id{best_bids}
    FOR UPDATE OF b""")


_LOCK_BID_OF_BUYER = _lock_bid_of_buyer_sql(with_best=False)
# The same lock, with the slot's three best live bids: what a cancellation needs to say the price after it (the
# third becomes the runner-up when the runner-up goes). The function runs after the slot's lock is granted, with
# its own snapshot (migration 0015), like the placement's read.
_LOCK_BID_OF_BUYER_WITH_BEST = _lock_bid_of_buyer_sql(with_best=True)


async def lock_bid_of_buyer(conn: AsyncConnection, bid_id: uuid.UUID, buyer_id: uuid.UUID, *,
                            with_best: bool = False) -> SlotRows | None:
    """A buyer's bid FOR UPDATE with its slot (locked and marked changed: its version bumped) and the buyer, for a
    call that changes the bid outside a batch (cancel, a new comment). The slot's lock comes first, as in a
    batch's write (slot, then bids). `with_best`: the slot's three best live bids too (in `bids`, beside it)."""
    if not with_best:
        return _one_bid((await conn.execute(_LOCK_BID_OF_BUYER, {"bid_id": bid_id, "buyer_id": buyer_id})).first())
    rows = (await conn.execute(_LOCK_BID_OF_BUYER_WITH_BEST, {"bid_id": bid_id, "buyer_id": buyer_id})).all()
    found = _one_bid(rows[0] if rows else None)
    if found is None:
        return None
    for row in rows:
        values = row._mapping
        if values["l_id"] is not None and values["l_id"] not in found.bids:
            found.bids[values["l_id"]] = Bid(**{c: values["l_" + c] for c in BID_COLUMNS})
    return found


_LOCK_SLOT_FOR_BUYER = text(f"""
    SELECT {_select_list("s", SLOT_COLUMNS, "s_")}, {_select_list("u", USER_COLUMNS, "u_")},
           (SELECT min(own.kind) FROM account_signals own
            JOIN account_signals creators ON creators.kind = own.kind AND creators.value_hash = own.value_hash
            WHERE own.user_id = :buyer_id AND creators.user_id = s.creator_id
              AND own.kind = ANY(CAST(:hard AS text[]))) AS shared_signal
    FROM slots s LEFT JOIN users u ON u.id = :buyer_id
    WHERE s.id = :slot_id
    FOR UPDATE OF s""")


async def lock_slot_for_buyer(conn: AsyncConnection, slot_id: uuid.UUID, buyer_id: uuid.UUID) -> SlotRows | None:
    """A slot FOR UPDATE (no bids) with the acting buyer: what Buy Now needs."""
    row = (await conn.execute(_LOCK_SLOT_FOR_BUYER, {"slot_id": slot_id, "buyer_id": buyer_id,
                                                     "hard": sorted(HARD_SIGNALS)})).first()
    if row is None:
        return None
    return SlotRows(slot=slot_of(row), bids={}, buyer=user_of(row), shared_signal=row.shared_signal)


_LOCK_BID_OF_CREATOR = text(f"""
    SELECT {_select_list("s", SLOT_COLUMNS, "s_")}, {_select_list("b", BID_COLUMNS, "b_")},
           {_select_list("u", USER_COLUMNS, "u_")}
    FROM bids b JOIN slots s ON s.id = b.slot_id LEFT JOIN users u ON u.id = b.buyer_id
    WHERE b.id = :bid_id AND s.creator_id = :creator_id
    FOR UPDATE OF b""")


async def lock_bid_of_creator(conn: AsyncConnection, bid_id: uuid.UUID, creator_id: uuid.UUID) -> SlotRows | None:
    """A bid on one of the creator's slots FOR UPDATE, with its slot and its buyer."""
    return _one_bid((await conn.execute(_LOCK_BID_OF_CREATOR, {"bid_id": bid_id, "creator_id": creator_id})).first())


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


# a suspended user's open slots (as creator) and the open slots it bids on, each with all its live bids
_LOCK_OF_SUSPENDED = _lock_slots_for_closing(
    "status = 'ACTIVE' AND (creator_id = :user_id OR id IN (SELECT slot_id FROM bids WHERE buyer_id = :user_id "
    "AND status IN ('ACTIVE', 'OUTBID')))", skip_locked=False, every_bid=False)


# the open slots of the users a hard signal ties (suspensions.withdraw_associates), each with all its live bids
_LOCK_OF_CREATORS = _lock_slots_for_closing("status = 'ACTIVE' AND creator_id = ANY(CAST(:creator_ids AS uuid[]))",
                                            skip_locked=False, every_bid=False)


def _by_slot(rows: list[Row], *, with_bidders: bool = False) -> list[SlotRows]:
    locked: dict[uuid.UUID, SlotRows] = {}
    for row in rows:
        slot_id = row._mapping["s_id"]
        entry = locked.get(slot_id)
        if entry is None:
            entry = locked[slot_id] = SlotRows(slot=slot_of(row), bids={})
        bid = bid_of(row)
        if bid is not None:
            entry.bids[bid.id] = bid
            if with_bidders:
                entry.bidders[bid.id] = user_of(row)
    return list(locked.values())


async def lock_due_for_closing(conn: AsyncConnection, now: datetime, limit: int) -> list[SlotRows]:
    """Up to `limit` due ACTIVE slots FOR UPDATE SKIP LOCKED, each with all its live bids."""
    return _by_slot((await conn.execute(_LOCK_DUE, {"now": now, "limit": limit})).all())


async def lock_open_slots_of(conn: AsyncConnection, user_id: uuid.UUID) -> list[SlotRows]:
    """Every open slot of `user_id` and every open slot it has a live bid on, FOR UPDATE, with all their live
    bids (waits for a batch or the closer that holds one)."""
    return _by_slot((await conn.execute(_LOCK_OF_SUSPENDED, {"user_id": user_id, "limit": 100_000})).all())


async def lock_open_slots_of_creators(conn: AsyncConnection, creator_ids: list[uuid.UUID]) -> list[SlotRows]:
    """Every open slot the users created, FOR UPDATE, with all their live bids (read after the lock: a bid a batch
    committed while this waited is among them)."""
    return _by_slot((await conn.execute(_LOCK_OF_CREATORS, {"creator_ids": creator_ids, "limit": 100_000})).all())


async def lock_for_closing(conn: AsyncConnection, slot_id: uuid.UUID) -> SlotRows | None:
    """One slot FOR UPDATE with every bid it ever had and their bidders."""
    found = _by_slot((await conn.execute(_LOCK_ONE, {"slot_id": slot_id, "limit": 1})).all(), with_bidders=True)
    return found[0] if found else None


def slot_seen(row: Row, slot_id: uuid.UUID) -> auction.Slot:
    """A slot as a placement's unlocked read saw it (bidding.py, stage 1), as the rules take it."""
    return auction.Slot(id=slot_id, creator_id=row.creator_id, min_bid=row.min_bid, auction_end=row.auction_end,
                        current_bid=row.current_bid, status=row.status)


def choose_comment(bid: Bid, comment: Comment) -> None:
    """The comment the brand chose; a named one's text and author are what its client claimed until social has
    read them on the post (`comment_read_at`)."""
    bid.comment_id, bid.comment_username, bid.comment_text = comment.comment_id, comment.username, comment.text
    bid.comment_read_at = None
