"""The buyer's side of an auction: place, change and cancel bids, Buy Now, choose the comment to pin.
Every change locks the slot row, so bids on one slot apply one at a time in commit order."""

import time
import uuid
from dataclasses import dataclass
from decimal import Decimal

from pinbid_kit.api import Money
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import Conflict, Invalid, NotFound
from prometheus_client import Histogram
from pydantic import TypeAdapter
from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncConnection

from . import announcements, store
from .domain import auction
from .domain.comments import Comment
from .domain.states import LIVE, BidStatus, check_move
from .models import Bid, Slot
from .queries import BidView
from .rules import as_api_errors, bid_state, slot_state, store_bid, store_slot
from .settings import MarketplaceSettings

SLOT_NOT_FOUND = "Pin slot not found."
BID_NOT_FOUND = "Bid not found."
# A comment may change until it is pinned, as long as the bid can still end up pinned.
COMMENT_CHANGEABLE = {BidStatus.ACTIVE, BidStatus.OUTBID, BidStatus.PENDING_INFLUENCER_APPROVAL,
                      BidStatus.APPROVED, BidStatus.AWAITING_PAYMENT, BidStatus.WON}
# From the answer of the statement that locks the slot to the end of the commit: the slot's capacity for
# accepted bids is the inverse of this time (make bench-hot reads it).
SLOT_LOCK_HELD = Histogram(
    "pinbid_marketplace_slot_lock_held_seconds", "Time a slot's row lock is held per accepted bid",
    buckets=(0.0002, 0.0003, 0.0004, 0.0005, 0.0006, 0.0008, 0.001, 0.0013, 0.0016, 0.002, 0.0025, 0.003, 0.004,
             0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.05, 0.1, 0.25, 0.5, 1.0))
_MONEY = TypeAdapter(Money)


class BidTooLow(Invalid):
    """A bid at or below the current bid (or under the minimum): the 422 also says what the current bid is, so a
    client can offer more without reading the slot again."""

    code = "bid_too_low"

    def __init__(self, detail: str, current_bid: Decimal | None):
        super().__init__(detail, field="amount")
        self.current_bid = current_bid

    def body(self) -> dict:
        return {**super().body(), "currentBid": _MONEY.dump_python(self.current_bid, mode="json")
                if self.current_bid is not None else None}


def check_bid(slot: auction.Slot, buyer_id: uuid.UUID, offer: "Offer", now) -> None:
    """The domain's check, with a too-low refusal that carries the current bid."""
    try:
        with as_api_errors():
            auction.check_bid(slot, buyer_id=buyer_id, amount=offer.amount, ceiling=offer.ceiling, now=now)
    except Invalid as exc:
        if exc.detail == auction.bid_too_low(slot):
            raise BidTooLow(exc.detail, slot.current_bid) from None
        raise


@dataclass(frozen=True)
class Offer:
    amount: Decimal
    auto_bid_enabled: bool = False
    max_auto_bid: Decimal | None = None

    @property
    def ceiling(self) -> Decimal:
        return self.max_auto_bid if self.auto_bid_enabled and self.max_auto_bid is not None else self.amount

    def keeping_ceiling_of(self, auto_bid_enabled: bool, max_auto_bid: Decimal | None) -> "Offer":
        """Bid Again without a maximum keeps the bid's auto-bid maximum when it is higher."""
        if not self.auto_bid_enabled and auto_bid_enabled and max_auto_bid is not None:
            return Offer(self.amount, True, max(self.amount, max_auto_bid))
        return self


_SLOT_FOR_REFUSAL = select(Slot.id, Slot.creator_id, Slot.min_bid, Slot.auction_end, Slot.current_bid,
                           Slot.status).where(Slot.id == bindparam("slot_id"))
_BID_FOR_CHANGE = (select(Bid.slot_id, Bid.status.label("bid_status"), Bid.auto_bid_enabled, Bid.max_auto_bid,
                          Slot.creator_id, Slot.min_bid, Slot.auction_end, Slot.current_bid, Slot.status)
                   .join(Slot, Slot.id == Bid.slot_id)
                   .where(Bid.id == bindparam("bid_id"), Bid.buyer_id == bindparam("buyer_id")))


class Bidding:
    """An accepted bid is one transaction of three statements: the unlocked check (refusals stop there), the
    statement that locks the slot and reads the bids the rules need, and the one that writes the slot, the bids
    and every event. The answer is built from what the transaction holds."""

    def __init__(self, db: Database, settings: MarketplaceSettings, rules: auction.Rules, clock: Clock):
        self.db, self.settings, self.rules, self.clock = db, settings, rules, clock

    async def place(self, buyer_id: uuid.UUID, slot_id: uuid.UUID, offer: Offer,
                    comment: Comment | None = None) -> BidView:
        async with self.db.transaction() as session:
            conn = await session.connection()
            await self._refuse_early(conn, buyer_id, slot_id, offer)
            locked = await store.lock_for_placement(conn, slot_id, buyer_id)
            held_since = time.perf_counter()
            if locked is None:
                raise NotFound(SLOT_NOT_FOUND)
            placed = await self._place_locked(conn, locked, buyer_id, offer, comment)
        SLOT_LOCK_HELD.observe(time.perf_counter() - held_since)
        return placed

    async def change(self, buyer_id: uuid.UUID, bid_id: uuid.UUID, offer: Offer) -> BidView:
        """PUT /buyer/bids/{id}: a new amount for a live bid (Bid Again); keeps its auto-bid ceiling."""
        async with self.db.transaction() as session:
            conn = await session.connection()
            found = (await conn.execute(_BID_FOR_CHANGE, {"bid_id": bid_id, "buyer_id": buyer_id})).first()
            if found is None:
                raise NotFound(BID_NOT_FOUND)
            check_live(found.bid_status)
            early = auction.Slot(id=found.slot_id, creator_id=found.creator_id, min_bid=found.min_bid,
                                 auction_end=found.auction_end, current_bid=found.current_bid, status=found.status)
            check_bid(early, buyer_id, offer.keeping_ceiling_of(found.auto_bid_enabled, found.max_auto_bid),
                      self.clock())
            locked = await store.lock_for_placement(conn, found.slot_id, buyer_id, bid_id)
            held_since = time.perf_counter()
            assert locked is not None and bid_id in locked.bids
            bid = locked.bids[bid_id]
            check_live(bid.status)
            offer = offer.keeping_ceiling_of(bid.auto_bid_enabled, bid.max_auto_bid)
            placed = await self._place_locked(conn, locked, buyer_id, offer, None)
        SLOT_LOCK_HELD.observe(time.perf_counter() - held_since)
        return placed

    async def _refuse_early(self, conn: AsyncConnection, buyer_id: uuid.UUID, slot_id: uuid.UUID,
                            offer: Offer) -> None:
        """Most refusals need no lock: the price only rises and an ended auction stays ended."""
        row = (await conn.execute(_SLOT_FOR_REFUSAL, {"slot_id": slot_id})).first()
        if row is None:
            raise NotFound(SLOT_NOT_FOUND)
        state = auction.Slot(id=row.id, creator_id=row.creator_id, min_bid=row.min_bid, auction_end=row.auction_end,
                             current_bid=row.current_bid, status=row.status)
        check_bid(state, buyer_id, offer, self.clock())

    async def _place_locked(self, conn: AsyncConnection, locked: store.Locked, buyer_id: uuid.UUID, offer: Offer,
                            comment: Comment | None) -> BidView:
        slot_row, by_id = locked.slot, locked.bids
        live = [bid_state(b) for b in by_id.values() if BidStatus(b.status) in LIVE]
        slot = slot_state(slot_row)
        now = self.clock()
        check_bid(slot, buyer_id, offer, now)  # again under the lock
        with as_api_errors():
            placement = auction.place_bid(slot, live, buyer_id=buyer_id, amount=offer.amount, ceiling=offer.ceiling,
                                          now=now, rules=self.rules, new_id=uuid.uuid4())
        store_slot(slot_row, slot)
        slot_row.updated_at = now
        if placement.created:
            by_id[placement.bid.id] = Bid(
                id=placement.bid.id, slot_id=slot_row.id, buyer_id=buyer_id, auto_bid_enabled=False,
                max_auto_bid=None, final_price=None, comment_id=None, comment_username=None, comment_text=None,
                likes=0, replies=0, clicks=0, is_demo=False, created_at=now)
        for state in placement.changed:
            store_bid(by_id[state.id], state)
            by_id[state.id].updated_at = now  # the service's clock (decisions: the clock)
        own = by_id[placement.bid.id]
        # The bid's maximum is its ceiling, whichever way it was reached: an auto-bid maximum, or a leader's raise
        # that moved only the ceiling. Showing it as the auto-bid maximum keeps it from silently disappearing.
        own.auto_bid_enabled = offer.auto_bid_enabled or own.ceiling > own.amount
        own.max_auto_bid = own.ceiling if own.auto_bid_enabled else None
        currency = self.settings.currency
        events = []
        # A bid that names no comment keeps the one it has.
        if comment is not None and (own.comment_id, own.comment_username, own.comment_text) != (
                comment.comment_id, comment.username, comment.text):
            own.comment_id, own.comment_username, own.comment_text = comment.comment_id, comment.username, comment.text
            events.append(announcements.comment_changed_event(own))
        if not placement.raised_only:
            events.append(announcements.bid_placed_event(slot_row, own, locked.buyer, currency))
        events += [announcements.bid_outbid_event(slot_row, by_id[lost.id], currency) for lost in placement.outbid]
        events.append(announcements.slot_updated_event(slot_row, currency))
        await store.write(conn, slots=[slot_row], bids=[by_id[s.id] for s in placement.changed], events=events)
        return BidView(bid=own, slot=slot_row, buyer=locked.buyer)

    async def cancel(self, buyer_id: uuid.UUID, bid_id: uuid.UUID) -> uuid.UUID:
        async with self.db.transaction() as session:
            found = await session.get(Bid, bid_id)
            if found is None or found.buyer_id != buyer_id:
                raise NotFound(BID_NOT_FOUND)
            slot_row = await session.get(Slot, found.slot_id, with_for_update=True, populate_existing=True)
            bid = await session.get(Bid, bid_id, populate_existing=True)
            assert slot_row is not None and bid is not None
            state = bid_state(bid)
            with as_api_errors():
                auction.cancel(slot_state(slot_row), state, now=self.clock())
            store_bid(bid, state)
            return bid.id

    async def buy_now(self, buyer_id: uuid.UUID, slot_id: uuid.UUID, comment: Comment | None) -> uuid.UUID:
        async with self.db.transaction() as session:
            slot_row = await session.get(Slot, slot_id, with_for_update=True)
            if slot_row is None:
                raise NotFound(SLOT_NOT_FOUND)
            slot = slot_state(slot_row)
            now = self.clock()
            with as_api_errors():
                won = auction.buy_now(slot, buyer_id=buyer_id, now=now, new_id=uuid.uuid4())
            store_slot(slot_row, slot)
            slot_row.closed_at = now
            bid = Bid(id=won.id, slot_id=slot_id, buyer_id=buyer_id, amount=won.amount, ceiling=won.ceiling,
                      seq=won.seq, status=won.status.value, final_price=won.final_price, created_at=now, updated_at=now)
            if comment is not None:
                bid.comment_id, bid.comment_username, bid.comment_text = comment.comment_id, comment.username, \
                    comment.text
            session.add(bid)
            await session.flush()
            currency = self.settings.currency
            if comment is not None:
                await announcements.comment_changed(session, bid)
            await announcements.auction_closed(session, slot_row, bid, currency)
            await announcements.slot_updated(session, slot_row, currency)
            return bid.id

    async def submit_comment(self, buyer_id: uuid.UUID, bid_id: uuid.UUID, comment: Comment) -> uuid.UUID:
        async with self.db.transaction() as session:
            bid = await session.get(Bid, bid_id, with_for_update=True)
            if bid is None or bid.buyer_id != buyer_id:
                raise NotFound(BID_NOT_FOUND)
            if BidStatus(bid.status) not in COMMENT_CHANGEABLE:
                raise Conflict("The comment of this bid can no longer change.", code="bid_state")
            if (bid.comment_id, bid.comment_text, bid.comment_username) != (comment.comment_id, comment.text,
                                                                            comment.username):
                bid.comment_id, bid.comment_username, bid.comment_text = comment.comment_id, comment.username, \
                    comment.text
                await announcements.comment_changed(session, bid)
            return bid.id


def check_live(status: str) -> None:
    with as_api_errors():
        if BidStatus(status) not in LIVE:
            check_move(BidStatus(status), BidStatus.ACTIVE)
