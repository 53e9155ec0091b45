"""Closing auctions: at their end (the closer job, safe with several replicas) or early by the creator.
Whatever the number of slots, a run is two statements: lock the slots with their live bids, write them all
with their events."""

import logging
import uuid
from datetime import datetime

from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import NotFound
from pinbid_kit.events import EventData

from . import events_out, store, store_write
from .domain import auction
from .domain.states import LIVE, BidStatus
from .models import Bid, Slot
from .queries import BidView
from .rules import as_api_errors, bid_state, slot_state, store_bid, store_slot
from .settings import MarketplaceSettings

log = logging.getLogger("pinbid.marketplace.closing")


def close_locked(locked: store.SlotRows, *, now: datetime, rules: auction.Rules, currency: str
                 ) -> tuple[list[Bid], list[EventData]]:
    """Close a slot the caller holds FOR UPDATE: changes the rows in place, returns the changed bids and the
    events to record."""
    row = locked.slot
    live_rows = [b for b in locked.bids.values() if BidStatus(b.status) in LIVE]
    states = {b.id: bid_state(b) for b in live_rows}
    slot = slot_state(row)
    with as_api_errors():
        closing = auction.close(slot, list(states.values()), now=now, rules=rules)
    store_slot(row, slot)
    row.closed_at = row.updated_at = now
    for bid_row in live_rows:
        store_bid(bid_row, states[bid_row.id])
        bid_row.updated_at = now
    winner = locked.bids[closing.winner.id] if closing.winner else None
    return live_rows, [events_out.auction_closed_event(row, winner, currency),
                       events_out.slot_updated_event(row, currency)]


class Closer:
    def __init__(self, db: Database, settings: MarketplaceSettings, rules: auction.Rules, clock: Clock):
        self.db, self.settings, self.rules, self.clock = db, settings, rules, clock

    async def run_once(self) -> int:
        """Close every due auction. Rows another replica (or a bid) holds are skipped and taken next round."""
        now = self.clock()
        async with self.db.transaction() as session:
            conn = await session.connection()
            due = await store.lock_due_for_closing(conn, now, self.settings.closer_batch_size)
            if due:
                bids: list[Bid] = []
                events: list[EventData] = []
                for locked in due:
                    changed, announced = close_locked(locked, now=now, rules=self.rules,
                                                      currency=self.settings.currency)
                    bids += changed
                    events += announced
                await store_write.write(conn, slots=[locked.slot for locked in due], bids=bids, events=events)
        if due:
            log.info("closed %d auctions", len(due))
        return len(due)

    async def end_early(self, creator_id: uuid.UUID, slot_id: uuid.UUID) -> tuple[Slot, list[BidView]]:
        """Close now; answers the slot with its whole bid history, newest first."""
        async with self.db.transaction() as session:
            conn = await session.connection()
            locked = await store.lock_for_closing(conn, slot_id)
            if locked is None or locked.slot.creator_id != creator_id:
                raise NotFound("Pin slot not found.")
            changed, events = close_locked(locked, now=self.clock(), rules=self.rules,
                                           currency=self.settings.currency)
            await store_write.write(conn, slots=[locked.slot], bids=changed, events=events)
        history = sorted(sorted(locked.bids.values(), key=lambda b: b.id), key=lambda b: b.created_at, reverse=True)
        return locked.slot, [BidView(bid=b, slot=locked.slot, buyer=locked.bidders.get(b.id)) for b in history]


__all__ = ["Closer", "close_locked"]
