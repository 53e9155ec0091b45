"""The creator's decision on a winning bid: APPROVED (the buyer is then asked to pay) or REJECTED, and the approval
of the exact comment text Pinbid will post or pin (the audit trail: `approved_text`, `approved_at`, and the
CommentApproved event social acts on). Approving a bid approves its comment as it is; a comment the buyer submits
or changes afterwards waits for the creator's approval of its own. Two statements: lock and read the bid with its
slot and buyer, write it with its events."""

import uuid

from pinbid_kit import instagram_rules as ig
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import Conflict, NotFound, NotYet
from pinbid_kit.events import EventData

from . import events_out, store, store_write
from .domain import comments
from .domain.states import BidStatus
from .models import Bid, Slot, User
from .queries import BidView
from .rules import as_api_errors, bid_state, store_bid
from .settings import MarketplaceSettings

# after the bid is approved and before the comment is pinned: when a comment can be approved on its own
COMMENT_APPROVABLE = {BidStatus.APPROVED, BidStatus.AWAITING_PAYMENT, BidStatus.WON}


async def _locked(conn, bid_id: uuid.UUID, creator_id: uuid.UUID) -> store.SlotRows:
    locked = await store.lock_bid_of_creator(conn, bid_id, creator_id)
    if locked is None:
        raise NotFound("Bid not found.")
    return locked


def named_comment_read(bid: Bid) -> None:
    """A bid naming one of the brand's comments is approved with the words social read on the post, never with
    what the brand's client claimed nor with nothing: until social has read them, "not yet"."""
    if bid.comment_id is None:
        return
    if bid.comment_read_at is None:
        raise NotYet("The brand's comment is still being read from your Instagram post. Please try again in a "
                     "moment; if your Instagram account is not connected, connect it on Settings first.",
                     code="comment_not_read")
    if not bid.comment_text:
        raise Conflict("The comment the brand chose is not on your post. Ask the brand to choose another one, or "
                       "reject the bid.", code="comment_missing")


class Approvals:
    def __init__(self, db: Database, settings: MarketplaceSettings, clock: Clock):
        self.db, self.settings, self.clock = db, settings, clock

    async def decide(self, creator_id: uuid.UUID, bid_id: uuid.UUID, decision: BidStatus) -> BidView:
        async with self.db.transaction() as session:
            conn = await session.connection()
            locked = await _locked(conn, bid_id, creator_id)
            slot, bid = locked.slot, locked.bids[bid_id]
            state = bid_state(bid)
            with as_api_errors():
                state.move(decision)
            if decision is BidStatus.APPROVED:
                named_comment_read(bid)
            store_bid(bid, state)
            bid.updated_at = bid.decided_at = self.clock()
            events: list[EventData] = []
            if decision is BidStatus.APPROVED:
                events.append(events_out.bid_approved_event(slot, bid, self.settings.currency))
                events += self._approve_comment(slot, bid, locked.buyer)
            else:
                events.append(events_out.bid_rejected_event(slot, bid))
            await store_write.write(conn, slots=[], bids=[bid], events=events)
        return BidView(bid=bid, slot=slot, buyer=locked.buyer)

    async def approve_comment(self, creator_id: uuid.UUID, bid_id: uuid.UUID) -> BidView:
        """POST /influencer/approvals/{id}/comment: the creator approves the comment as it is now."""
        async with self.db.transaction() as session:
            conn = await session.connection()
            locked = await _locked(conn, bid_id, creator_id)
            slot, bid = locked.slot, locked.bids[bid_id]
            if BidStatus(bid.status) not in COMMENT_APPROVABLE:
                raise Conflict("Only the comment of an approved bid that is not pinned yet can be approved.",
                               code="bid_state")
            if not (bid.comment_id or bid.comment_text):
                raise Conflict("The brand has not chosen a comment yet.", code="no_comment")
            named_comment_read(bid)
            events = self._approve_comment(slot, bid, locked.buyer)
            if events:
                await store_write.write(conn, slots=[], bids=[bid], events=events)
        return BidView(bid=bid, slot=slot, buyer=locked.buyer)

    def _approve_comment(self, slot: Slot, bid: Bid, buyer: User | None) -> list[EventData]:
        return approve_comment_as_it_is(slot, bid, buyer, self.clock())


def approve_comment_as_it_is(slot: Slot, bid: Bid, buyer: User | None, now) -> list[EventData]:
    """Approve the bid's comment as it is now (the brand's own comment as read, or a new text with the disclosure
    naming the brand): sets `approved_text` and returns the CommentApproved to record, or nothing when there is no
    comment yet or it is approved already."""
    brand = ig.brand_label(buyer.instagram_handle if buyer else None, buyer.business_name if buyer else None,
                           buyer.name if buyer else None)
    chosen = comments.Comment(comment_id=bid.comment_id, username=bid.comment_username, text=bid.comment_text)
    text = comments.approved_text(chosen, brand)
    if text is None or text == bid.approved_text:
        return []
    bid.approved_text, bid.approved_at, bid.updated_at = text, now, now
    return [events_out.comment_approved_event(slot, bid)]
