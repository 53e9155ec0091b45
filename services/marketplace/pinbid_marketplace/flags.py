"""Associated accounts. Every account signal other services announce is kept (`record_signal`); a hard one that
ties a brand to a creator withdraws the brand's live bids on the creator's open slots at once (suspensions.py's
path), and refuses its later bids (bidding.py's pre-check and its batch). The soft side: when an auction closes
(marketplace hears its own AuctionClosed through the inbox, so the closer keeps its two statements and a
redelivery changes nothing), each bidder's soft signals shared with the creator and its bid patterns are assessed
(domain/trust.py); a finding raises or updates a flag. Operators list flags and clear them (GET /ops/flags,
POST /ops/flags/{id}/clear), each clear announced for the audit log."""

import logging
import uuid
from datetime import datetime
from decimal import Decimal
from typing import Literal

from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import Conflict, NotFound
from pinbid_kit.events.marketplace import MarketplaceOperatorAction
from pinbid_kit.events.trust import HARD_SIGNALS
from pinbid_kit.events.trust import AccountSignal as Signal
from pinbid_kit.outbox import publish
from pydantic import BaseModel, ConfigDict
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, suspensions
from .domain import auction, trust
from .settings import MarketplaceSettings

log = logging.getLogger("pinbid.marketplace.flags")

# One value at a time: two holders of one value recorded at once (two consumers, two replicas) would each miss the
# other's uncommitted row and neither would see the tie. The lock (the transaction's) puts the second after the
# first's commit, and READ COMMITTED's next statement then sees it.
_LOCK_VALUE = text("SELECT pg_advisory_xact_lock(hashtextextended(:kind || ':' || :value_hash, 0))")

# first and last seen widen; a redelivery or a second sighting changes no tie
_KEEP = text("""
    INSERT INTO account_signals (user_id, kind, value_hash, first_seen_at, last_seen_at)
    VALUES (:user_id, :kind, :value_hash, :at, :at)
    ON CONFLICT (user_id, kind, value_hash) DO UPDATE
    SET first_seen_at = least(account_signals.first_seen_at, excluded.first_seen_at),
        last_seen_at = greatest(account_signals.last_seen_at, excluded.last_seen_at)""")

_OTHER_HOLDERS = text("""
    SELECT user_id FROM account_signals WHERE kind = :kind AND value_hash = :value_hash AND user_id <> :user_id""")

_BIDDER_FIGURES = text("""
    WITH closed AS (SELECT id, creator_id, winning_bid_id FROM slots WHERE id = :slot_id),
    own AS (SELECT b.buyer_id, b.id AS bid_id, b.ceiling, b.raises FROM bids b JOIN closed c ON b.slot_id = c.id
            WHERE b.buyer_id <> c.creator_id)
    SELECT o.buyer_id, c.creator_id, o.ceiling, o.raises, (o.bid_id = c.winning_bid_id) IS TRUE AS won,
           (SELECT w.ceiling FROM bids w WHERE w.id = c.winning_bid_id) AS winner_ceiling,
           ARRAY(SELECT DISTINCT a.kind FROM account_signals a
                 JOIN account_signals cr ON cr.kind = a.kind AND cr.value_hash = a.value_hash
                 WHERE a.user_id = o.buyer_id AND cr.user_id = c.creator_id
                   AND a.kind = ANY(CAST(:soft AS text[]))) AS shared_soft,
           (SELECT count(DISTINCT x.slot_id) FROM bids x WHERE x.buyer_id = o.buyer_id) AS slots_bid,
           (SELECT count(DISTINCT x.slot_id) FROM bids x JOIN slots y ON y.id = x.slot_id
            WHERE x.buyer_id = o.buyer_id AND y.creator_id = c.creator_id) AS slots_on_creator,
           (SELECT count(*) FROM bids x JOIN slots y ON y.id = x.slot_id
            WHERE x.buyer_id = o.buyer_id AND y.creator_id = c.creator_id AND y.winning_bid_id = x.id) AS wins,
           (SELECT coalesce(sum(x.raises), 0) FROM bids x JOIN slots y ON y.id = x.slot_id
            WHERE x.buyer_id = o.buyer_id AND y.creator_id = c.creator_id) AS raises_on_creator,
           (SELECT max(f.score) FROM flags f WHERE f.user_id = o.buyer_id AND f.creator_id = c.creator_id
              AND f.status = 'CLEARED') AS cleared_score
    FROM own o CROSS JOIN closed c""")

# one open flag per bidder and creator: a later finding keeps the highest score and adds its new reasons
_RAISE = text("""
    INSERT INTO flags (id, user_id, creator_id, score, reasons, status, created_at, updated_at)
    VALUES (:id, :user_id, :creator_id, :score, CAST(:reasons AS text[]), 'OPEN', :now, :now)
    ON CONFLICT (user_id, creator_id) WHERE status = 'OPEN' DO UPDATE
    SET score = greatest(flags.score, excluded.score),
        reasons = flags.reasons || ARRAY(SELECT r FROM unnest(excluded.reasons) r WHERE r <> ALL(flags.reasons)),
        updated_at = excluded.updated_at""")

_LIST = text("""
    SELECT f.id, f.user_id, coalesce(u.business_name, u.name) AS user_name, f.creator_id,
           c.name AS creator_name, f.score, f.reasons, f.created_at, f.status, f.cleared_at, f.clear_reason
    FROM flags f LEFT JOIN users u ON u.id = f.user_id LEFT JOIN users c ON c.id = f.creator_id
    WHERE (CAST(:status AS text) IS NULL OR f.status = :status) AND (CAST(:id AS uuid) IS NULL OR f.id = :id)
    ORDER BY f.score DESC, f.created_at DESC, f.id
    LIMIT 500""")

_CLEAR = text("""
    UPDATE flags SET status = 'CLEARED', cleared_at = :now, cleared_by = :operator_id, clear_reason = :reason,
                     updated_at = :now
    WHERE id = :id AND status = 'OPEN'
    RETURNING id""")


class FlagView(BaseModel):
    """A flag as operators read it (schemas.FlagOut is this view in the API's shape)."""

    model_config = ConfigDict(frozen=True)

    id: uuid.UUID
    user_id: uuid.UUID
    user_name: str | None
    creator_id: uuid.UUID
    creator_name: str | None
    score: int
    reasons: list[str]
    created_at: datetime
    status: Literal["OPEN", "CLEARED"]
    cleared_at: datetime | None
    clear_reason: str | None


async def record_signal(session: AsyncSession, signal: Signal, *, now: datetime, rules: auction.Rules,
                        settings: MarketplaceSettings) -> int:
    """Keep a signal; when it is hard and someone else holds it too, the tie is known from now: withdraw the tied
    bidders' live bids on the tied creators' open slots (their standing automatic bids stop with them) and tell
    everyone as any change of price is told. Returns how many bids were withdrawn. Safe to run again: a second
    sighting finds nothing live left to withdraw."""
    hard = signal.kind in HARD_SIGNALS
    params = {"user_id": signal.user_id, "kind": signal.kind, "value_hash": signal.value_hash}
    if hard:
        await session.execute(_LOCK_VALUE, params)
    await session.execute(_KEEP, {**params, "at": signal.observed_at})
    if not hard:
        return 0
    others = frozenset((await session.execute(_OTHER_HOLDERS, params)).scalars())
    if not others:
        return 0
    withdrawn = await suspensions.withdraw_associates(session, signal.user_id, others, now=now, rules=rules,
                                                      settings=settings)
    if withdrawn:
        log.info("user %s tied by %s to %d other account(s): %d live bid(s) withdrawn", signal.user_id, signal.kind,
                 len(others), withdrawn)
    return withdrawn


async def review_closed_slot(session: AsyncSession, slot_id: uuid.UUID, now: datetime) -> int:
    """Assess every bidder of a closed slot against its creator; returns how many flags were raised or updated.
    A cleared flag holds back a new one unless the new score is higher than the cleared one."""
    rows = (await session.execute(_BIDDER_FIGURES, {"slot_id": slot_id,
                                                    "soft": sorted(trust.SOFT_WEIGHTS)})).all()
    raised = 0
    for row in rows:
        found = trust.assess(trust.BidderFigures(
            shared_soft=frozenset(row.shared_soft), slots_bid=row.slots_bid, slots_bid_on_creator=row.slots_on_creator,
            wins_on_creator=row.wins, raises_on_creator=int(row.raises_on_creator),
            lost_ceiling=None if row.won else Decimal(row.ceiling), raises_on_slot=row.raises,
            winner_ceiling=row.winner_ceiling))
        if not found.flagged or (row.cleared_score is not None and found.score <= row.cleared_score):
            continue
        await session.execute(_RAISE, {"id": uuid.uuid4(), "user_id": row.buyer_id, "creator_id": row.creator_id,
                                       "score": found.score, "reasons": list(found.reasons), "now": now})
        raised += 1
    return raised


class Flags:
    """The operator's side: list and clear."""

    def __init__(self, db: Database, clock: Clock):
        self.db, self.clock = db, clock

    async def list(self, status: str | None) -> list[FlagView]:
        async with self.db.autocommit() as conn:
            rows = (await conn.execute(_LIST, {"status": status, "id": None})).all()
        return [FlagView(**row._mapping) for row in rows]

    async def clear(self, operator_id: uuid.UUID, flag_id: uuid.UUID, reason: str) -> FlagView:
        """Once only: two operators clearing at once, one wins and the other gets 409 already_cleared."""
        now = self.clock()
        async with self.db.transaction() as session:
            cleared = (await session.execute(_CLEAR, {"id": flag_id, "now": now, "operator_id": operator_id,
                                                      "reason": reason})).first()
            if cleared is None:
                exists = (await session.execute(_LIST, {"status": None, "id": flag_id})).first()
                if exists is None:
                    raise NotFound("Flag not found.")
                raise Conflict("This flag was already cleared.", code="already_cleared")
            await publish(session, MarketplaceOperatorAction(
                action_id=uuid.uuid4(), operator_id=operator_id, action="flag.clear", object_type="flag",
                object_id=str(flag_id), reason=reason, acted_at=now), source=SERVICE)
            row = (await session.execute(_LIST, {"status": None, "id": flag_id})).one()
        return FlagView(**row._mapping)
