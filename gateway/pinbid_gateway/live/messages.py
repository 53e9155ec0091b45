"""What the live stream says, and to whom: each bus event becomes the messages the browser reads, in the JSON
forms of the REST API (money in dollars as numbers, times in ISO 8601)."""

import uuid
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from functools import cached_property

from pinbid_kit.api import ApiModel, Money
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import identity as i
from pinbid_kit.events import marketplace as m
from pinbid_kit.events import payments as p
from pinbid_kit.events import social as s

SESSIONS_REVOKED = i.SessionsRevoked.event_type
# every event the stream turns into a message, and the revocations that end streams
PATTERNS = sorted({m.SlotUpdated.event_type, m.BidPlaced.event_type, m.BidOutbid.event_type,
                   m.AuctionClosed.event_type, m.BidApproved.event_type, m.BidRejected.event_type,
                   m.BidOffered.event_type, m.OfferDeclined.event_type,
                   p.PaymentRequested.event_type, p.PaymentCompleted.event_type, p.PaymentExpired.event_type,
                   p.PaymentRefunded.event_type,
                   s.CommentPinned.event_type, i.NotificationCreated.event_type, SESSIONS_REVOKED,
                   *(e.event_type for e in (s.PlacementAccepted, s.PlacementDisputed, s.DisputeAnswered,
                                            s.DisputeDecided, s.RecheckRequested, s.PlacementEnded))})


class SlotMessage(ApiModel):
    id: uuid.UUID
    current_bid: Money | None
    bid_count: int
    bidder_count: int | None  # None from a marketplace that predates it (the screen keeps what it read)
    auction_end: datetime
    status: str


class BidMessage(ApiModel):
    """`amount` is the bid's own amount when the event tells it (else unchanged: null); `currentBid` the slot's
    price after the change (the second price, one for everyone: a leader's own amount may be above it); `slotId`
    is null for the payment steps, whose events do not name the slot, and those carry `paymentStatus` as the REST
    bid's `payment.status` (a refund leaves the bid WON)."""

    id: uuid.UUID
    slot_id: uuid.UUID | None
    status: str
    amount: Money | None
    current_bid: Money | None = None
    slot_title: str | None = None
    payment_status: str | None = None


class PlacementMessage(ApiModel):
    """A placement's trust changed (`change`: ACCEPTED, DISPUTED, ANSWERED, DECIDED, RECHECK_REQUESTED or ENDED):
    its page refetches `GET /instagram/placements/{id}/trust`. Sent to its brand and its creator."""

    id: uuid.UUID
    change: str


class NoticeOut(ApiModel):
    id: uuid.UUID
    title: str
    message: str
    kind: str
    link: str | None
    created_at: datetime
    read: bool = False


class NotificationMessage(ApiModel):
    notification: NoticeOut
    unread_count: int


@dataclass(frozen=True)
class Message:
    """`event` for the slot's watchers and its creator (`slot_id`, `creator_id`) or for one user (`user_id`)."""

    event: str
    data: str  # JSON
    user_id: uuid.UUID | None = None
    slot_id: uuid.UUID | None = None
    creator_id: uuid.UUID | None = None

    @cached_property
    def frame(self) -> bytes:
        """The message as a stream sends it (Server-Sent Events)."""
        return f"event: {self.event}\ndata: {self.data}\n\n".encode()


def dollars(cents: int | None) -> Decimal | None:
    return None if cents is None else Decimal(cents) / 100


def _bid(user_id: uuid.UUID, bid_id: uuid.UUID, slot_id: uuid.UUID | None, status: str, *, amount: int | None = None,
         price: int | None = None, slot_title: str | None = None, payment_status: str | None = None) -> Message:
    data = BidMessage(id=bid_id, slot_id=slot_id, status=status, amount=dollars(amount), current_bid=dollars(price),
                      slot_title=slot_title, payment_status=payment_status)
    return Message("bid", data.model_dump_json(by_alias=True), user_id=user_id)


_PLACEMENT_CHANGES = {s.PlacementAccepted.event_type: (s.PlacementAccepted, "ACCEPTED"),
                      s.PlacementDisputed.event_type: (s.PlacementDisputed, "DISPUTED"),
                      s.DisputeAnswered.event_type: (s.DisputeAnswered, "ANSWERED"),
                      s.DisputeDecided.event_type: (s.DisputeDecided, "DECIDED"),
                      s.RecheckRequested.event_type: (s.RecheckRequested, "RECHECK_REQUESTED"),
                      s.PlacementEnded.event_type: (s.PlacementEnded, "ENDED")}


def _placement(envelope: Envelope) -> list[Message]:
    kind, change = _PLACEMENT_CHANGES[envelope.type]
    e = kind.model_validate(envelope.data)
    data = PlacementMessage(id=e.bid_id, change=change).model_dump_json(by_alias=True)
    return [Message("placement", data, user_id=e.buyer_id), Message("placement", data, user_id=e.creator_id)]


# A payment's event as the brand's bid shows it: (its model, the bid's status, the payment's). PaymentRequested is
# what makes the bid AWAITING_PAYMENT in marketplace: the approval's message makes the page read the bid again,
# which can come back APPROVED (no Pay Now) while payments is still asking for the payment.
_PAYMENT_CHANGES = {p.PaymentRequested.event_type: (p.PaymentRequested, "AWAITING_PAYMENT", "REQUESTED"),
                    p.PaymentCompleted.event_type: (p.PaymentCompleted, "WON", "COMPLETED"),
                    p.PaymentExpired.event_type: (p.PaymentExpired, "EXPIRED", "EXPIRED"),
                    p.PaymentRefunded.event_type: (p.PaymentRefunded, "WON", "REFUNDED")}


def _payment(envelope: Envelope) -> list[Message]:
    kind, bid_status, payment_status = _PAYMENT_CHANGES[envelope.type]
    e = kind.model_validate(envelope.data)
    return [_bid(e.buyer_id, e.bid_id, None, bid_status, payment_status=payment_status)]


def messages(envelope: Envelope) -> list[Message]:
    """The messages an event makes (none for an event the stream does not show)."""
    data = envelope.data
    if envelope.type in _PLACEMENT_CHANGES:
        return _placement(envelope)
    if envelope.type in _PAYMENT_CHANGES:
        return _payment(envelope)
    match envelope.type:
        case m.SlotUpdated.event_type:
            e = m.SlotUpdated.model_validate(data)
            slot = SlotMessage(id=e.slot_id, current_bid=dollars(e.current_bid_cents), bid_count=e.bid_count,
                               bidder_count=e.bidder_count, auction_end=e.auction_end, status=e.status)
            return [Message("slot", slot.model_dump_json(by_alias=True), slot_id=e.slot_id, creator_id=e.creator_id)]
        case m.BidPlaced.event_type:
            e = m.BidPlaced.model_validate(data)
            # the bid's own amount (an older event, without it, leaves the amount shown unchanged); the price is
            # the slot's, one for everyone, and may be below the leader's own amount
            return [_bid(e.buyer_id, e.bid_id, e.slot_id, "ACTIVE", amount=e.amount_cents,
                         price=e.current_bid_cents, slot_title=e.slot_title)]
        case m.BidOutbid.event_type:
            e = m.BidOutbid.model_validate(data)
            return [_bid(e.buyer_id, e.bid_id, e.slot_id, "OUTBID", price=e.current_bid_cents, slot_title=e.slot_title)]
        case m.AuctionClosed.event_type:
            e = m.AuctionClosed.model_validate(data)
            if e.winner_id is None or e.winning_bid_id is None:
                return []
            return [_bid(e.winner_id, e.winning_bid_id, e.slot_id, "PENDING_INFLUENCER_APPROVAL",
                         price=e.final_price_cents, slot_title=e.slot_title)]
        case m.BidApproved.event_type:
            e = m.BidApproved.model_validate(data)
            return [_bid(e.buyer_id, e.bid_id, e.slot_id, "AWAITING_PAYMENT", price=e.final_price_cents,
                         slot_title=e.slot_title)]
        case m.BidRejected.event_type:
            e = m.BidRejected.model_validate(data)
            return [_bid(e.buyer_id, e.bid_id, e.slot_id, "REJECTED", slot_title=e.slot_title)]
        case m.BidOffered.event_type:  # a second-chance offer (its acceptance is told by its BidApproved)
            e = m.BidOffered.model_validate(data)
            return [_bid(e.buyer_id, e.bid_id, e.slot_id, "OFFERED", slot_title=e.slot_title)]
        case m.OfferDeclined.event_type:
            e = m.OfferDeclined.model_validate(data)
            return [_bid(e.buyer_id, e.bid_id, e.slot_id, "EXPIRED", slot_title=e.slot_title)]
        case s.CommentPinned.event_type:
            e = s.CommentPinned.model_validate(data)
            return [_bid(e.buyer_id, e.bid_id, e.slot_id, "PINNED")]
        case i.NotificationCreated.event_type:
            e = i.NotificationCreated.model_validate(data)
            notice = NotificationMessage(unread_count=e.unread_count, notification=NoticeOut(
                id=e.notification_id, title=e.title, message=e.message, kind=e.kind, link=e.link,
                created_at=e.created_at))
            return [Message("notification", notice.model_dump_json(by_alias=True), user_id=e.user_id)]
    return []
