"""A suspended user (identity's UserSuspended): its open bids are withdrawn (the slot re-ranked: a withdrawn leader
leaves the lead to the runner-up) and its open slots close without sale, told as any closing is. Two statements
in the handler's transaction: lock the slots with their live bids, write them with their events; the inbox makes a
redelivery a no-op (and a second run would find nothing open)."""

import uuid
from datetime import datetime

from pinbid_kit.events import EventData
from sqlalchemy.ext.asyncio import AsyncSession

from . import events_out, store
from .domain import auction
from .domain.states import LIVE, BidStatus
from .models import Bid
from .rules import bid_state, slot_state, store_bid, store_slot
from .settings import MarketplaceSettings


async def withdraw_everything_of(session: AsyncSession, user_id: uuid.UUID, *, now: datetime,
                                 rules: auction.Rules, settings: MarketplaceSettings) -> tuple[int, int]:
    """Returns (bids withdrawn, slots closed)."""
    conn = await session.connection()
    locked = await store.lock_open_slots_of(conn, user_id)
    changed: list[Bid] = []
    events: list[EventData] = []
    withdrawn = closed = 0
    for entry in locked:
        row = entry.slot
        live_rows = [b for b in entry.bids.values() if BidStatus(b.status) in LIVE]
        states = {b.id: bid_state(b) for b in live_rows}
        slot = slot_state(row)
        before = {b.id: (b.status, b.amount) for b in states.values()}
        if row.creator_id == user_id:
            auction.close_without_sale(slot, list(states.values()))
            row.closed_at = now
            closed += 1
        else:
            own = next(s for s in states.values() if s.buyer_id == user_id)
            auction.withdraw(slot, list(states.values()), own, rules=rules)
            withdrawn += 1
        store_slot(row, slot)
        row.updated_at = now
        for bid_row in live_rows:
            state = states[bid_row.id]
            if (state.status, state.amount) != before[bid_row.id]:
                store_bid(bid_row, state)
                bid_row.updated_at = now
                changed.append(bid_row)
        if row.creator_id == user_id:
            events.append(events_out.auction_closed_event(row, None, settings.currency))
        events.append(events_out.slot_updated_event(row, settings.currency))
    if locked:
        await store.write(conn, slots=[e.slot for e in locked], bids=changed, events=events)
    return withdrawn, closed
