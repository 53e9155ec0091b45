"""The buyer's side of an auction: place, change and cancel bids, Buy Now, choose the comment to pin.
Every change locks the slot row, so bids on one slot apply one at a time in commit order."""

import uuid
from dataclasses import dataclass
from decimal import Decimal

from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import Conflict, NotFound
from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from . import announcements
from .domain import auction
from .domain.comments import Comment
from .domain.states import LIVE, BidStatus, check_move
from .models import Bid, Slot, User
from .rules import as_api_errors, bid_state, slot_state, store_bid, store_slot
from .settings import MarketplaceSettings

SLOT_NOT_FOUND = "Pin slot not found."
BID_NOT_FOUND = "Bid not found."
# A comment may change until it is pinned, as long as the bid can still end up pinned.
COMMENT_CHANGEABLE = {BidStatus.ACTIVE, BidStatus.OUTBID, BidStatus.PENDING_INFLUENCER_APPROVAL,
                      BidStatus.APPROVED, BidStatus.AWAITING_PAYMENT, BidStatus.WON}


@dataclass(frozen=True)
class Offer:
    amount: Decimal
    auto_bid_enabled: bool = False
    max_auto_bid: Decimal | None = None

    @property
    def ceiling(self) -> Decimal:
        return self.max_auto_bid if self.auto_bid_enabled and self.max_auto_bid is not None else self.amount


class Bidding:
    def __init__(self, db: Database, settings: MarketplaceSettings, rules: auction.Rules, clock: Clock):
        self.db, self.settings, self.rules, self.clock = db, settings, rules, clock

    async def place(self, buyer_id: uuid.UUID, slot_id: uuid.UUID, offer: Offer,
                    comment: Comment | None = None) -> uuid.UUID:
        async with self.db.transaction() as session:
            await self._refuse_early(session, buyer_id, slot_id, offer)
            slot_row = await session.get(Slot, slot_id, with_for_update=True)
            if slot_row is None:
                raise NotFound(SLOT_NOT_FOUND)
            return await self._place_locked(session, slot_row, buyer_id, offer, comment)

    async def change(self, buyer_id: uuid.UUID, bid_id: uuid.UUID, offer: Offer) -> uuid.UUID:
        """PUT /buyer/bids/{id}: a new amount for a live bid (Bid Again); keeps its auto-bid ceiling."""
        async with self.db.transaction() as session:
            found = await session.get(Bid, bid_id)
            if found is None or found.buyer_id != buyer_id:
                raise NotFound(BID_NOT_FOUND)
            slot_row = await session.get(Slot, found.slot_id, with_for_update=True, populate_existing=True)
            assert slot_row is not None
            bid = await session.get(Bid, bid_id, populate_existing=True)
            assert bid is not None
            with as_api_errors():
                if BidStatus(bid.status) not in LIVE:
                    check_move(BidStatus(bid.status), BidStatus.ACTIVE)
            if not offer.auto_bid_enabled and bid.auto_bid_enabled and bid.max_auto_bid is not None:
                offer = Offer(offer.amount, True, max(offer.amount, bid.max_auto_bid))
            return await self._place_locked(session, slot_row, buyer_id, offer, None)

    async def _refuse_early(self, session: AsyncSession, buyer_id: uuid.UUID, slot_id: uuid.UUID,
                            offer: Offer) -> None:
        """Most refusals need no lock: the price only rises and an ended auction stays ended."""
        row = (await session.execute(
            select(Slot.id, Slot.creator_id, Slot.min_bid, Slot.auction_end, Slot.buy_now_price, Slot.current_bid,
                   Slot.status).where(Slot.id == slot_id))).first()
        if row is None:
            raise NotFound(SLOT_NOT_FOUND)
        state = auction.Slot(id=row.id, creator_id=row.creator_id, min_bid=row.min_bid, auction_end=row.auction_end,
                             current_bid=row.current_bid, status=row.status)
        with as_api_errors():
            auction.check_bid(state, buyer_id=buyer_id, amount=offer.amount, ceiling=offer.ceiling, now=self.clock())

    async def _place_locked(self, session: AsyncSession, slot_row: Slot, buyer_id: uuid.UUID, offer: Offer,
                            comment: Comment | None) -> uuid.UUID:
        top_two = (select(Bid.id).where(Bid.slot_id == slot_row.id, Bid.status.in_(LIVE))
                   .order_by(Bid.ceiling.desc(), Bid.seq).limit(2))
        rows = list(await session.scalars(
            select(Bid).where(Bid.slot_id == slot_row.id, Bid.status.in_(LIVE),
                              or_(Bid.id.in_(top_two.scalar_subquery()), Bid.buyer_id == buyer_id))
            .execution_options(populate_existing=True)))
        states = {r.id: bid_state(r) for r in rows}
        slot = slot_state(slot_row)
        with as_api_errors():
            placement = auction.place_bid(slot, list(states.values()), buyer_id=buyer_id, amount=offer.amount,
                                          ceiling=offer.ceiling, now=self.clock(), rules=self.rules,
                                          new_id=uuid.uuid4())
        store_slot(slot_row, slot)
        by_id = {r.id: r for r in rows}
        if placement.created:
            own = Bid(id=placement.bid.id, slot_id=slot_row.id, buyer_id=buyer_id, amount=placement.bid.amount,
                      ceiling=placement.bid.ceiling, seq=placement.bid.seq, status=placement.bid.status.value,
                      created_at=self.clock(), updated_at=self.clock())
            session.add(own)
            by_id[own.id] = own
        for state in placement.changed:
            store_bid(by_id[state.id], state)
            by_id[state.id].updated_at = self.clock()  # the service's clock (decisions: the clock)
        own = by_id[placement.bid.id]
        # The bid's maximum is its ceiling, whichever way it was reached: an auto-bid maximum, or a leader's raise
        # that moved only the ceiling. Showing it as the auto-bid maximum keeps it from silently disappearing.
        own.auto_bid_enabled = offer.auto_bid_enabled or own.ceiling > own.amount
        own.max_auto_bid = own.ceiling if own.auto_bid_enabled else None
        await session.flush()
        currency = self.settings.currency
        # A bid that names no comment keeps the one it has.
        if comment is not None and (own.comment_id, own.comment_username, own.comment_text) != (
                comment.comment_id, comment.username, comment.text):
            own.comment_id, own.comment_username, own.comment_text = comment.comment_id, comment.username, comment.text
            await announcements.comment_changed(session, own)
        if not placement.raised_only:
            await announcements.bid_placed(session, slot_row, own, await session.get(User, buyer_id), currency)
        for lost in placement.outbid:
            await announcements.bid_outbid(session, slot_row, by_id[lost.id], currency)
        await announcements.slot_updated(session, slot_row, currency)
        return own.id

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
