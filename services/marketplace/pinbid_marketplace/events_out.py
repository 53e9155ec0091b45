"""The integration events marketplace publishes, built from its rows (money as integer cents). Each function only
builds its event: the use case collects what it causes and writes it once (store_write.write's one statement, or
`outbox.publish_all` in its transaction)."""

from pinbid_kit.events import EventData
from pinbid_kit.events import campaigns as ce
from pinbid_kit.events import marketplace as m

from .domain.money import to_cents
from .models import Bid, Slot, User


def slot_created(slot: Slot, currency: str) -> m.SlotCreated:
    return m.SlotCreated(
        slot_id=slot.id, creator_id=slot.creator_id, post_id=slot.post_id, title=slot.title, category=slot.category,
        min_bid_cents=to_cents(slot.min_bid),
        buy_now_price_cents=to_cents(slot.buy_now_price) if slot.buy_now_price is not None else None,
        currency=currency, auction_end=slot.auction_end, duration_days=slot.duration_days)


def slot_updated_event(slot: Slot, currency: str) -> m.SlotUpdated:
    return m.SlotUpdated(
        slot_id=slot.id, creator_id=slot.creator_id, post_id=slot.post_id, status=slot.status,
        current_bid_cents=to_cents(slot.current_bid) if slot.current_bid is not None else None,
        bid_count=slot.bid_count, bidder_count=slot.bidder_count, auction_end=slot.auction_end, currency=currency)


def bid_placed_event(slot: Slot, bid: Bid, buyer: User | None, currency: str) -> m.BidPlaced:
    assert slot.current_bid is not None
    return m.BidPlaced(
        bid_id=bid.id, slot_id=slot.id, slot_title=slot.title, creator_id=slot.creator_id, buyer_id=bid.buyer_id,
        buyer_name=display_name(buyer), current_bid_cents=to_cents(slot.current_bid),
        amount_cents=to_cents(bid.amount), currency=currency)


def bid_outbid_event(slot: Slot, bid: Bid, currency: str) -> m.BidOutbid:
    assert slot.current_bid is not None
    return m.BidOutbid(
        bid_id=bid.id, slot_id=slot.id, slot_title=slot.title, buyer_id=bid.buyer_id,
        current_bid_cents=to_cents(slot.current_bid), currency=currency, auction_end=slot.auction_end)


def cancel_events(slot: Slot, bid: Bid, currency: str, by_brand: bool) -> list[EventData]:
    """A cancelled bid: its slot's `slot.updated`, and when the brand cancelled its own bid (not a campaign's), the
    cue for its campaigns that skipped the slot for it (campaign_bidding.after_own_bid_cancelled)."""
    events: list[EventData] = [slot_updated_event(slot, currency)]
    if by_brand and bid.campaign_id is None:
        events.append(ce.OwnBidCancelled(buyer_id=bid.buyer_id, bid_id=bid.id, slot_id=bid.slot_id))
    return events


def outbid_events(slot: Slot, bid: Bid, currency: str) -> list[EventData]:
    """A bid that lost the lead: its `bid.outbid`, and when it is a campaign's, the campaign's own cue to release it."""
    events: list[EventData] = [bid_outbid_event(slot, bid, currency)]
    if bid.campaign_id is not None:
        events.append(ce.CampaignBidOutbid(campaign_id=bid.campaign_id, bid_id=bid.id, slot_id=bid.slot_id))
    return events


def auction_closed_event(slot: Slot, winner: Bid | None, currency: str) -> m.AuctionClosed:
    sold = winner is not None and winner.final_price is not None
    return m.AuctionClosed(
        slot_id=slot.id, slot_title=slot.title, creator_id=slot.creator_id, outcome="SOLD" if sold else "UNSOLD",
        winning_bid_id=winner.id if sold else None, winner_id=winner.buyer_id if sold else None,
        final_price_cents=to_cents(winner.final_price) if sold else None, currency=currency,
        campaign_id=winner.campaign_id if sold else None)


def bid_approved_event(slot: Slot, bid: Bid, currency: str) -> m.BidApproved:
    assert bid.final_price is not None
    return m.BidApproved(
        bid_id=bid.id, slot_id=slot.id, slot_title=slot.title, creator_id=slot.creator_id, buyer_id=bid.buyer_id,
        final_price_cents=to_cents(bid.final_price), currency=currency, campaign_id=bid.campaign_id)


def bid_rejected_event(slot: Slot, bid: Bid) -> m.BidRejected:
    return m.BidRejected(bid_id=bid.id, slot_id=slot.id, slot_title=slot.title, creator_id=slot.creator_id,
                         buyer_id=bid.buyer_id)


def bid_awarded(slot: Slot, bid: Bid, buyer: User | None, currency: str) -> m.BidAwarded:
    assert bid.final_price is not None
    return m.BidAwarded(
        bid_id=bid.id, slot_id=slot.id, creator_id=slot.creator_id, buyer_id=bid.buyer_id,
        buyer_name=display_name(buyer), business_name=buyer.business_name if buyer else None, post_id=slot.post_id,
        comment_id=bid.comment_id, comment_text=bid.comment_text, final_price_cents=to_cents(bid.final_price),
        currency=currency, duration_days=slot.duration_days)


def comment_approved_event(slot: Slot, bid: Bid) -> m.CommentApproved:
    assert bid.approved_text is not None and bid.approved_at is not None
    return m.CommentApproved(bid_id=bid.id, slot_id=slot.id, creator_id=slot.creator_id, buyer_id=bid.buyer_id,
                             comment_id=bid.comment_id, comment_username=bid.comment_username,
                             text=bid.approved_text, approved_at=bid.approved_at)


def comment_changed_event(bid: Bid) -> m.BidCommentChanged:
    return m.BidCommentChanged(bid_id=bid.id, slot_id=bid.slot_id, buyer_id=bid.buyer_id, comment_id=bid.comment_id,
                               comment_text=bid.comment_text)



def bid_offered_event(slot: Slot, bid: Bid, fallen_bid_id, currency: str) -> m.BidOffered:
    assert bid.offer_expires_at is not None
    return m.BidOffered(bid_id=bid.id, slot_id=slot.id, slot_title=slot.title, creator_id=slot.creator_id,
                        buyer_id=bid.buyer_id, fallen_bid_id=fallen_bid_id, price_cents=to_cents(bid.ceiling),
                        currency=currency, expires_at=bid.offer_expires_at, campaign_id=bid.campaign_id)


def offer_accepted_event(slot: Slot, bid: Bid, buyer: User | None, currency: str) -> m.OfferAccepted:
    assert bid.final_price is not None
    return m.OfferAccepted(bid_id=bid.id, slot_id=slot.id, slot_title=slot.title, creator_id=slot.creator_id,
                           buyer_id=bid.buyer_id, buyer_name=display_name(buyer),
                           price_cents=to_cents(bid.final_price), currency=currency, campaign_id=bid.campaign_id)


def offer_declined_event(slot: Slot, bid: Bid, reason: str, currency: str) -> m.OfferDeclined:
    return m.OfferDeclined(bid_id=bid.id, slot_id=slot.id, slot_title=slot.title, creator_id=slot.creator_id,
                           buyer_id=bid.buyer_id, reason=reason, price_cents=to_cents(bid.ceiling),
                           currency=currency)


def display_name(user: User | None) -> str:
    if user is None:
        return "A brand"
    return user.business_name or user.name
