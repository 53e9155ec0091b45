"""Bids withdrawn as cancellations the auction understands, on one path for two causes:
- a suspended user (identity's UserSuspended): its open bids are withdrawn (the slot re-ranked: a withdrawn leader
  leaves the lead to the runner-up) and its open slots close without sale, told as any closing is;
- a tie between a brand and a creator, once known (flags.py records the hard signal that makes it): the brand's
  live bids on the creator's open slots are withdrawn, standing automatic bids included, and the honest bidders'
  prices recomputed by the auction's own rules.
Two statements in the caller's transaction: lock the slots with their live bids, write them with their events; the
inbox makes a redelivery a no-op (and a second run would find nothing left to withdraw)."""

import uuid
from collections.abc import Callable
from datetime import datetime

from pinbid_kit.events import EventData
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from . import events_out, store, store_write
from .domain import auction, trust
from .domain.states import LIVE, BidStatus
from .models import Bid, Slot
from .rules import bid_state, slot_state, store_bid, store_slot
from .settings import MarketplaceSettings


async def withdraw_everything_of(session: AsyncSession, user_id: uuid.UUID, *, now: datetime,
                                 rules: auction.Rules, settings: MarketplaceSettings) -> tuple[int, int]:
    """A suspended user. Returns (bids withdrawn, slots closed)."""
    conn = await session.connection()
    locked = await store.lock_open_slots_of(conn, user_id)
    return await _withdraw(conn, locked, closing=user_id, bidders=lambda _: frozenset({user_id}), now=now,
                           rules=rules, settings=settings)


async def withdraw_associates(session: AsyncSession, holder_id: uuid.UUID, others: frozenset[uuid.UUID], *,
                              now: datetime, rules: auction.Rules, settings: MarketplaceSettings) -> int:
    """`holder_id` was just seen holding a hard signal that `others` hold too: every live bid of a tied bidder on
    an open slot of a tied creator is withdrawn (domain/trust.py's `tied_bidders`). Every open slot of the users
    involved is locked and written (its version moves), so a batch that read one of them before the tie was
    committed reads it again and meets the tie (bidding.py). Returns how many bids were withdrawn."""
    conn = await session.connection()
    locked = await store.lock_open_slots_of_creators(conn, [holder_id, *others])
    withdrawn, _ = await _withdraw(conn, locked, closing=None,
                                   bidders=lambda slot: trust.tied_bidders(slot.creator_id, holder_id, others),
                                   now=now, rules=rules, settings=settings)
    return withdrawn


async def _withdraw(conn: AsyncConnection, locked: list[store.SlotRows], *, closing: uuid.UUID | None,
                    bidders: Callable[[Slot], frozenset[uuid.UUID]], now: datetime, rules: auction.Rules,
                    settings: MarketplaceSettings) -> tuple[int, int]:
    """The one path: the open slots of `closing` close without sale; on the others, every live bid of `bidders(slot)`
    is withdrawn with `auction.withdraw`. Each changed slot is announced as any change of an auction is (SlotUpdated,
    AuctionClosed when it closed). Returns (bids withdrawn, slots closed)."""
    changed: list[Bid] = []
    events: list[EventData] = []
    withdrawn = closed = 0
    for entry in locked:
        row = entry.slot
        live_rows = [b for b in entry.bids.values() if BidStatus(b.status) in LIVE]
        states = {b.id: bid_state(b) for b in live_rows}
        slot = slot_state(row)
        before = {b.id: (b.status, b.amount) for b in states.values()}
        if row.creator_id == closing:
            auction.close_without_sale(slot, list(states.values()))
            row.closed_at = now
            closed += 1
        else:
            leaving = [s for s in states.values() if s.buyer_id in bidders(row)]
            if not leaving:
                continue
            for own in leaving:
                auction.withdraw(slot, list(states.values()), own, rules=rules)
            withdrawn += len(leaving)
        store_slot(row, slot)
        row.updated_at = now
        for bid_row in live_rows:
            state = states[bid_row.id]
            if (state.status, state.amount) != before[bid_row.id]:
                store_bid(bid_row, state)
                bid_row.updated_at = now
                changed.append(bid_row)
        if row.creator_id == closing:
            events.append(events_out.auction_closed_event(row, None, settings.currency))
        events.append(events_out.slot_updated_event(row, settings.currency))
    if locked:
        await store_write.write(conn, slots=[e.slot for e in locked], bids=changed, events=events)
    return withdrawn, closed
