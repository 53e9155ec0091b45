"""The creator's decision on a winning bid: APPROVED (the buyer is then asked to pay) or REJECTED."""

import uuid

from pinbid_kit.db import Database
from pinbid_kit.errors import NotFound

from . import announcements
from .domain.states import BidStatus
from .models import Bid, Slot
from .rules import as_api_errors, bid_state, store_bid
from .settings import MarketplaceSettings


class Approvals:
    def __init__(self, db: Database, settings: MarketplaceSettings):
        self.db, self.settings = db, settings

    async def decide(self, creator_id: uuid.UUID, bid_id: uuid.UUID, decision: BidStatus) -> uuid.UUID:
        async with self.db.transaction() as session:
            bid = await session.get(Bid, bid_id, with_for_update=True)
            slot = await session.get(Slot, bid.slot_id) if bid is not None else None
            if bid is None or slot is None or slot.creator_id != creator_id:
                raise NotFound("Bid not found.")
            state = bid_state(bid)
            with as_api_errors():
                state.move(decision)
            store_bid(bid, state)
            if decision is BidStatus.APPROVED:
                await announcements.bid_approved(session, slot, bid, self.settings.currency)
            else:
                await announcements.bid_rejected(session, slot, bid)
            return bid.id
