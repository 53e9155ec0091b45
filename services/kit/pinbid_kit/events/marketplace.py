import uuid
from datetime import datetime
from typing import Literal

from .catalog import EventData, event
from .trust import OperatorAction


class SlotBid(EventData):
    """A buyer's bid on a creator's slot: what the events about one bid carry first."""

    bid_id: uuid.UUID
    slot_id: uuid.UUID
    slot_title: str
    creator_id: uuid.UUID
    buyer_id: uuid.UUID


@event("marketplace.bid.placed.v1")
class BidPlaced(SlotBid):
    """A bid was accepted on a slot. `currentBidCents` is the slot's price after it, one for everyone: what the
    leader would pay if the auction closed now (the second price). `amountCents` is the bid's own visible amount,
    which may be above the price (absent in events written before it was added)."""

    buyer_name: str
    current_bid_cents: int
    amount_cents: int | None = None
    currency: str = "USD"


@event("marketplace.bid.outbid.v1")
class BidOutbid(EventData):
    """A buyer's bid is no longer leading. `currentBidCents` is the slot's price after the change."""

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
    # the campaign the winning bid was placed for (absent for a brand's own bid and in events written before it)
    campaign_id: uuid.UUID | None = None


@event("marketplace.bid.approved.v1")
class BidApproved(SlotBid):
    """The creator approved the winning bid; the buyer is now asked to pay `finalPriceCents`, or, when the bid is a
    campaign's (`campaignId`), payments draws it from that campaign's balance."""

    final_price_cents: int
    currency: str = "USD"
    campaign_id: uuid.UUID | None = None


@event("marketplace.bid.rejected.v1")
class BidRejected(SlotBid):
    """The creator rejected the winning bid; nothing is charged."""



@event("marketplace.bid.offered.v1")
class BidOffered(SlotBid):
    """Second chance: the slot's winner fell through (rejected, or left unpaid) and the creator offered the slot to
    this runner-up at its own last amount, `priceCents`, until `expiresAt`. A campaign's bid (`campaignId`) is
    answered by its campaign at once, within its budget."""

    fallen_bid_id: uuid.UUID
    price_cents: int
    currency: str = "USD"
    expires_at: datetime
    campaign_id: uuid.UUID | None = None


@event("marketplace.bid.offer_accepted.v1")
class OfferAccepted(SlotBid):
    """The runner-up (or its campaign) accepted the second-chance offer: the bid is the slot's winner, approved at
    `priceCents` (a `marketplace.bid.approved.v1` goes with it, which payments acts on)."""

    buyer_name: str
    price_cents: int
    currency: str = "USD"
    campaign_id: uuid.UUID | None = None


@event("marketplace.bid.offer_declined.v1")
class OfferDeclined(SlotBid):
    """The second-chance offer ended without a sale: the brand declined it (DECLINED), its window ran out (LAPSED),
    a suspension or a tie withdrew it (WITHDRAWN), or the campaign could not take the price (OVER_BUDGET). The bid is
    EXPIRED again; the creator may offer the slot to the next runner-up."""

    reason: Literal["DECLINED", "LAPSED", "WITHDRAWN", "OVER_BUDGET"]
    price_cents: int
    currency: str = "USD"


@event("marketplace.slot.created.v1")
class SlotCreated(EventData):
    """A creator listed a post as a pin slot."""

    slot_id: uuid.UUID
    creator_id: uuid.UUID
    post_id: str  # the Instagram media id
    title: str
    category: str
    min_bid_cents: int
    buy_now_price_cents: int | None = None
    currency: str = "USD"
    auction_end: datetime
    duration_days: int


@event("marketplace.slot.updated.v1")
class SlotUpdated(EventData):
    """A slot's price, bid count, end (soft close) or status changed."""

    slot_id: uuid.UUID
    creator_id: uuid.UUID
    post_id: str
    status: Literal["ACTIVE", "CLOSED"]
    current_bid_cents: int | None = None
    bid_count: int  # accepted bid actions, raises included: the order of a slot's events
    # brands in the running (a live bid each; at the close, the bids that stood): the number screens show; None from
    # a producer that predates it
    bidder_count: int | None = None
    auction_end: datetime
    currency: str = "USD"


@event("marketplace.bid.awarded.v1")
class BidAwarded(EventData):
    """A bid is WON: approved and paid. The creator may now pin its comment."""

    bid_id: uuid.UUID
    slot_id: uuid.UUID
    creator_id: uuid.UUID
    buyer_id: uuid.UUID
    buyer_name: str
    business_name: str | None = None
    post_id: str
    comment_id: str | None = None
    comment_text: str | None = None
    final_price_cents: int
    currency: str = "USD"
    duration_days: int


@event("marketplace.bid.comment_changed.v1")
class BidCommentChanged(EventData):
    """The buyer chose or wrote the comment to pin for a bid."""

    bid_id: uuid.UUID
    slot_id: uuid.UUID
    buyer_id: uuid.UUID
    comment_id: str | None = None
    comment_text: str | None = None


@event("marketplace.bid.comment_approved.v1")
class CommentApproved(EventData):
    """The creator approved the exact text of a won bid's comment (the audit trail): what social posts or pins is
    exactly `text`, disclosure included. `commentId` names the brand's own comment when it is one, else social
    posts `text` from the creator's account. Sent again, with a later `approvedAt`, when a changed comment is
    approved anew; a consumer keeps the latest."""

    bid_id: uuid.UUID
    slot_id: uuid.UUID
    creator_id: uuid.UUID
    buyer_id: uuid.UUID
    comment_id: str | None = None
    comment_username: str | None = None
    text: str
    approved_at: datetime


@event("marketplace.operator.acted.v1")
class MarketplaceOperatorAction(OperatorAction):
    """An operator acted in marketplace (cleared a flag, ...): for the audit log."""
