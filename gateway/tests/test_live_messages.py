"""Each bus event the live stream shows, as the browser reads it: the event name, the JSON (in the REST API's
forms: dollars as numbers, ISO 8601 times, the REST bid statuses) and who it is for."""

import json
import uuid
from datetime import UTC, datetime

import pytest
from pinbid_gateway.live.messages import PATTERNS, messages
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import identity as i
from pinbid_kit.events import marketplace as m
from pinbid_kit.events import payments as p
from pinbid_kit.events import social as s

SLOT, BID, BUYER, CREATOR, PAYMENT = (uuid.uuid4() for _ in range(5))
WHEN = datetime(2026, 11, 23, 12, 30, tzinfo=UTC)


def told(data) -> tuple[str, dict, uuid.UUID | None]:
    [message] = messages(Envelope(type=data.event_type, source="test", data=data.payload()))
    return message.event, json.loads(message.data), message.user_id


def bid(status: str, *, amount=None, current=None, title: str | None = "Sunday reset", slot=True, payment=None):
    return {"id": str(BID), "slotId": str(SLOT) if slot else None, "status": status, "amount": amount,
            "currentBid": current, "slotTitle": title, "paymentStatus": payment}


def test_a_slot_update_goes_to_the_slot_in_the_rest_apis_forms():
    data = m.SlotUpdated(slot_id=SLOT, creator_id=CREATOR, post_id="1", status="ACTIVE", current_bid_cents=1999,
                         bid_count=4, bidder_count=2, auction_end=WHEN)
    [message] = messages(Envelope(type=data.event_type, source="test", data=data.payload()))
    assert (message.event, message.slot_id, message.creator_id, message.user_id) == ("slot", SLOT, CREATOR, None)
    assert json.loads(message.data) == {"id": str(SLOT), "currentBid": 19.99, "bidCount": 4, "bidderCount": 2,
                                        "auctionEnd": "2026-11-23T12:30:00Z", "status": "ACTIVE"}
    # an event from a marketplace that predates the figure: null, and the screen keeps what it read
    older = m.SlotUpdated(slot_id=SLOT, creator_id=CREATOR, post_id="1", status="ACTIVE", current_bid_cents=1999,
                          bid_count=4, auction_end=WHEN)
    assert told(older)[1]["bidderCount"] is None


def test_a_slot_without_bids_has_no_current_bid():
    data = m.SlotUpdated(slot_id=SLOT, creator_id=CREATOR, post_id="1", status="CLOSED", current_bid_cents=None,
                         bid_count=0, auction_end=WHEN)
    assert told(data)[1]["currentBid"] is None


@pytest.mark.parametrize(("data", "expected"), [
    # one price: the leader's own amount (25) above the slot's price (the runner-up's 20)
    (m.BidPlaced(bid_id=BID, slot_id=SLOT, slot_title="Sunday reset", creator_id=CREATOR, buyer_id=BUYER,
                 buyer_name="Quince", current_bid_cents=2000, amount_cents=2500), bid("ACTIVE", amount=25, current=20)),
    # an event written before it carried the bid's own amount leaves the amount shown unchanged
    (m.BidPlaced(bid_id=BID, slot_id=SLOT, slot_title="Sunday reset", creator_id=CREATOR, buyer_id=BUYER,
                 buyer_name="Quince", current_bid_cents=2500), bid("ACTIVE", amount=None, current=25)),
    (m.BidOutbid(bid_id=BID, slot_id=SLOT, slot_title="Sunday reset", buyer_id=BUYER, current_bid_cents=3000,
                 auction_end=WHEN), bid("OUTBID", current=30)),
    (m.AuctionClosed(slot_id=SLOT, slot_title="Sunday reset", creator_id=CREATOR, outcome="SOLD", winning_bid_id=BID,
                     winner_id=BUYER, final_price_cents=3000), bid("PENDING_INFLUENCER_APPROVAL", current=30)),
    (m.BidApproved(bid_id=BID, slot_id=SLOT, slot_title="Sunday reset", creator_id=CREATOR, buyer_id=BUYER,
                   final_price_cents=3000), bid("AWAITING_PAYMENT", current=30)),
    (m.BidRejected(bid_id=BID, slot_id=SLOT, slot_title="Sunday reset", creator_id=CREATOR, buyer_id=BUYER),
     bid("REJECTED")),
    (m.BidOffered(bid_id=BID, slot_id=SLOT, slot_title="Sunday reset", creator_id=CREATOR, buyer_id=BUYER,
                  fallen_bid_id=uuid.uuid4(), price_cents=3000, expires_at=WHEN), bid("OFFERED")),
    (m.OfferDeclined(bid_id=BID, slot_id=SLOT, slot_title="Sunday reset", creator_id=CREATOR, buyer_id=BUYER,
                     reason="LAPSED", price_cents=3000), bid("EXPIRED")),
    (p.PaymentRequested(payment_id=PAYMENT, bid_id=BID, buyer_id=BUYER, creator_id=CREATOR, amount_cents=3150,
                        expires_at=WHEN), bid("AWAITING_PAYMENT", title=None, slot=False, payment="REQUESTED")),
    (p.PaymentCompleted(payment_id=PAYMENT, bid_id=BID, buyer_id=BUYER, creator_id=CREATOR, amount_cents=3000),
     bid("WON", title=None, slot=False, payment="COMPLETED")),
    (p.PaymentExpired(payment_id=PAYMENT, bid_id=BID, buyer_id=BUYER, creator_id=CREATOR),
     bid("EXPIRED", title=None, slot=False, payment="EXPIRED")),
    (p.PaymentRefunded(payment_id=PAYMENT, bid_id=BID, buyer_id=BUYER, creator_id=CREATOR, amount_cents=3000,
                       reason="not pinned"), bid("WON", title=None, slot=False, payment="REFUNDED")),
    (s.CommentPinned(bid_id=BID, slot_id=SLOT, creator_id=CREATOR, buyer_id=BUYER, comment_id="c1",
                     comment_text="Ad", pinned_at=WHEN), bid("PINNED", title=None)),
])
def test_a_change_to_a_brands_bid_goes_to_that_brand_only(data, expected):
    assert told(data) == ("bid", expected, BUYER)


def test_an_auction_closed_unsold_tells_nobody():
    data = m.AuctionClosed(slot_id=SLOT, slot_title="Sunday reset", creator_id=CREATOR, outcome="UNSOLD")
    assert messages(Envelope(type=data.event_type, source="test", data=data.payload())) == []


def test_a_notification_goes_to_its_user_with_the_unread_count():
    notice = uuid.uuid4()
    data = i.NotificationCreated(notification_id=notice, user_id=BUYER, kind="bid.outbid", title="Outbid",
                                 message="You were outbid.", link="/app/buyer/bids", created_at=WHEN, unread_count=7)
    assert told(data) == ("notification", {"unreadCount": 7, "notification": {
        "id": str(notice), "title": "Outbid", "message": "You were outbid.", "kind": "bid.outbid",
        "link": "/app/buyer/bids", "createdAt": "2026-11-23T12:30:00Z", "read": False}}, BUYER)


def test_events_the_stream_does_not_show_make_no_message_and_are_not_subscribed():
    assert m.SlotCreated.event_type not in PATTERNS
    assert messages(Envelope(type=m.SlotCreated.event_type, source="test", data={})) == []


@pytest.mark.parametrize("data,change", [
    (s.PlacementAccepted(bid_id=BID, slot_id=SLOT, creator_id=CREATOR, buyer_id=BUYER, accepted_at=WHEN,
                         by="SILENCE"), "ACCEPTED"),
    (s.PlacementDisputed(dispute_id=PAYMENT, bid_id=BID, slot_id=SLOT, creator_id=CREATOR, buyer_id=BUYER,
                         reason="gone", reporter="BRAND", reported_at=WHEN), "DISPUTED"),
    (s.DisputeAnswered(dispute_id=PAYMENT, bid_id=BID, creator_id=CREATOR, buyer_id=BUYER, answered_at=WHEN),
     "ANSWERED"),
    (s.DisputeDecided(dispute_id=PAYMENT, bid_id=BID, slot_id=SLOT, creator_id=CREATOR, buyer_id=BUYER,
                      outcome="CONTINUE", reason="ok", operator_id=PAYMENT, decided_at=WHEN), "DECIDED"),
    (s.RecheckRequested(bid_id=BID, slot_id=SLOT, creator_id=CREATOR, buyer_id=BUYER, requested_at=WHEN,
                        answer_by=WHEN), "RECHECK_REQUESTED"),
    (s.PlacementEnded(bid_id=BID, slot_id=SLOT, creator_id=CREATOR, buyer_id=BUYER, method="MANUAL", reason="x",
                      ended_at=WHEN), "ENDED"),
])
def test_a_placements_trust_change_tells_its_brand_and_its_creator_to_refetch(data, change):
    assert data.event_type in PATTERNS
    sent = messages(Envelope(type=data.event_type, source="test", data=data.payload()))
    assert sorted(m.user_id for m in sent) == sorted([BUYER, CREATOR])
    assert all(m.event == "placement" and json.loads(m.data) == {"id": str(BID), "change": change} for m in sent)
