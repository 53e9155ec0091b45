"""The creator's decision on a winning bid: APPROVED (the buyer is then asked to pay) or REJECTED.
Two statements: lock and read the bid with its slot and buyer, write it with its event."""

import uuid

from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import NotFound

from . import announcements, store
from .domain.states import BidStatus
from .queries import BidView
from .rules import as_api_errors, bid_state, store_bid
from .settings import MarketplaceSettings


class Approvals:
    def __init__(self, db: Database, settings: MarketplaceSettings, clock: Clock):
        self.db, self.settings, self.clock = db, settings, clock

    async def decide(self, creator_id: uuid.UUID, bid_id: uuid.UUID, decision: BidStatus) -> BidView:
        async with self.db.transaction() as session:
            conn = await session.connection()
            locked = await store.lock_bid_of_creator(conn, bid_id, creator_id)
            if locked is None:
                raise NotFound("Bid not found.")
            slot, bid = locked.slot, locked.bids[bid_id]
            state = bid_state(bid)
            with as_api_errors():
                state.move(decision)
            store_bid(bid, state)
            bid.updated_at = self.clock()
            event = announcements.bid_approved_event(slot, bid, self.settings.currency) \
                if decision is BidStatus.APPROVED else announcements.bid_rejected_event(slot, bid)
            await store.write(conn, slots=[], bids=[bid], events=[event])
        return BidView(bid=bid, slot=slot, buyer=locked.buyer)
