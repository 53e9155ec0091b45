import uuid
from datetime import datetime
from typing import Literal

from .catalog import EventData, event


@event("marketplace.bid.placed.v1")
class BidPlaced(EventData):
    """A bid was accepted on a slot. `currentBidCents` is the slot's visible price after it."""

    bid_id: uuid.UUID
    slot_id: uuid.UUID
    slot_title: str
    creator_id: uuid.UUID
    buyer_id: uuid.UUID
    buyer_name: str
    current_bid_cents: int
    currency: str = "USD"


@event("marketplace.bid.outbid.v1")
class BidOutbid(EventData):
    """A buyer's bid is no longer leading."""

    bid_id: uuid.UUID
    slot_id: uuid.UUID
    slot_title: str
    buyer_id: uuid.UUID
    current_bid_cents: int
    currency: str = "USD"
    auction_end: datetime


@event("marketplace.auction.closed.v1")
class AuctionClosed(EventData):
    """A slot's auction closed, sold to the leader at the second price, or unsold."""

    slot_id: uuid.UUID
    slot_title: str
    creator_id: uuid.UUID
    outcome: Literal["SOLD", "UNSOLD"]
    winning_bid_id: uuid.UUID | None = None
    winner_id: uuid.UUID | None = None
    final_price_cents: int | None = None
    currency: str = "USD"


@event("marketplace.bid.approved.v1")
class BidApproved(EventData):
    """The creator approved the winning bid; the buyer is now asked to pay `finalPriceCents`."""

    bid_id: uuid.UUID
    slot_id: uuid.UUID
    slot_title: str
    creator_id: uuid.UUID
    buyer_id: uuid.UUID
    final_price_cents: int
    currency: str = "USD"


@event("marketplace.bid.rejected.v1")
class BidRejected(EventData):
    """The creator rejected the winning bid; nothing is charged."""

    bid_id: uuid.UUID
    slot_id: uuid.UUID
    slot_title: str
    creator_id: uuid.UUID
    buyer_id: uuid.UUID
