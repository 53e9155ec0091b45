"""Closing auctions: at their end (the closer job, safe with several replicas) or early by the creator."""

import logging
import uuid

from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import NotFound
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from . import announcements
from .domain import auction
from .models import LIVE_SQL, Bid, Slot
from .rules import as_api_errors, bid_state, slot_state, store_bid, store_slot
from .settings import MarketplaceSettings

log = logging.getLogger("pinbid.marketplace.closing")


async def close_locked(session: AsyncSession, row: Slot, *, clock: Clock, rules: auction.Rules,
                       currency: str) -> auction.Closing:
    """Close a slot whose row the caller holds FOR UPDATE."""
    live_rows = list(await session.scalars(
        select(Bid).where(Bid.slot_id == row.id, Bid.status.in_(["ACTIVE", "OUTBID"]))))
    states = {b.id: bid_state(b) for b in live_rows}
    slot = slot_state(row)
    with as_api_errors():
        closing = auction.close(slot, list(states.values()), now=clock(), rules=rules)
    store_slot(row, slot)
    row.closed_at = clock()
    for bid_row in live_rows:
        store_bid(bid_row, states[bid_row.id])
    winner = next((b for b in live_rows if closing.winner and b.id == closing.winner.id), None)
    await announcements.auction_closed(session, row, winner, currency)
    await announcements.slot_updated(session, row, currency)
    return closing


class Closer:
    def __init__(self, db: Database, settings: MarketplaceSettings, rules: auction.Rules, clock: Clock):
        self.db, self.settings, self.rules, self.clock = db, settings, rules, clock

    async def run_once(self) -> int:
        """Close every due auction. Rows another replica (or a bid) holds are skipped and taken next round."""
        async with self.db.transaction() as session:
            due = list(await session.scalars(
                select(Slot).where(Slot.status == "ACTIVE", Slot.auction_end <= self.clock())
                .order_by(Slot.auction_end).limit(self.settings.closer_batch_size)
                .with_for_update(skip_locked=True)))
            for row in due:
                await close_locked(session, row, clock=self.clock, rules=self.rules, currency=self.settings.currency)
        if due:
            log.info("closed %d auctions", len(due))
        return len(due)

    async def end_early(self, creator_id: uuid.UUID, slot_id: uuid.UUID) -> Slot:
        async with self.db.transaction() as session:
            row = await session.get(Slot, slot_id, with_for_update=True)
            if row is None or row.creator_id != creator_id:
                raise NotFound("Pin slot not found.")
            await close_locked(session, row, clock=self.clock, rules=self.rules, currency=self.settings.currency)
            return row


__all__ = ["Closer", "close_locked", "LIVE_SQL"]
