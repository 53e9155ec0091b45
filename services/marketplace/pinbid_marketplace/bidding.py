"""The buyer's side of an auction: place, change and cancel bids, Buy Now, choose the comment to pin.

A placed or changed bid goes through two stages:
1. `refuse_before_batching`, on an unlocked read (one statement, no lock): refusals true of the slot as read (a
   price falls only when a bid leaves: a cancellation, a suspension), so most refused bids stop here.
2. What passes joins its slot's next batch (`Batches.join_next_batch`, batches.py); the batch runs in
   `Bidding._place_batch`: one statement reads the slot, the bids the rules need and the buyers' ties to the creator,
   `auction.place_bid` checks and applies each bid in arrival order on that fresh read (a tied buyer is refused),
   and one statement writes the slot, the bids and every event, only if the slot's version is still the one read
   (else the batch is read and applied again).
Both run in autocommit: no BEGIN, no COMMIT, no lock held across a round trip. Each answer is built from what was
read and written. Cancel, Buy Now and a new comment lock the slot, write once with their events, and answer from
the rows they wrote."""

import contextlib
import dataclasses
import uuid
from dataclasses import dataclass

from pinbid_kit.clock import Clock
from pinbid_kit.db import Busy, Database
from pinbid_kit.errors import ApiError, Conflict, NotFound
from pinbid_kit.events import EventData
from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncConnection

from . import events_out, store, store_write
from .associates import refuse_associated, shared_hard_signal
from .batches import Batches, Pending
from .domain import auction
from .domain import campaigns as campaign_rules
from .domain.comments import Comment
from .domain.offers import Offer
from .domain.states import LIVE, BidStatus
from .metrics import BID_WRITE_CONFLICTS, BID_WRITE_ROUND_TRIP, SLOT_LOCK_HELD, SLOT_LOCK_PER_BID
from .models import Bid, Slot, User
from .queries import BidView
from .rules import BidTooLow, as_api_errors, bid_state, new_bid, require_live, slot_state, store_bid, store_slot
from .settings import MarketplaceSettings

__all__ = ["BidTooLow", "Bidding", "Offer"]

SLOT_NOT_FOUND = "Pin slot not found."
BID_NOT_FOUND = "Bid not found."
# A comment may change until it is pinned, as long as the bid can still end up pinned.
COMMENT_CHANGEABLE = {BidStatus.ACTIVE, BidStatus.OUTBID, BidStatus.PENDING_INFLUENCER_APPROVAL,
                      BidStatus.APPROVED, BidStatus.AWAITING_PAYMENT, BidStatus.WON}
# another replica or call changing the slot this many times in a row between our read and write: answer 503
MAX_WRITE_ATTEMPTS = 10


@dataclass(frozen=True)
class Placing:
    """One bid waiting for its slot's next batch; `bid_id` when it changes a named bid (PUT /buyer/bids/{id})."""

    buyer_id: uuid.UUID
    offer: Offer
    comment: Comment | None
    buyer: User | None
    bid_id: uuid.UUID | None = None
    campaign_id: uuid.UUID | None = None  # a campaign's new bid (campaign_bidding.py)


_SLOT_AND_BUYER = (select(Slot.id, Slot.creator_id, Slot.min_bid, Slot.auction_end, Slot.current_bid, Slot.status,
                          shared_hard_signal(bindparam("buyer_id"), Slot.creator_id),
                          *[c.label("u_" + c.name) for c in User.__table__.columns])
                   .outerjoin(User, User.id == bindparam("buyer_id")).where(Slot.id == bindparam("slot_id")))
_BID_SLOT_AND_BUYER = (select(Bid.slot_id, Bid.status.label("bid_status"), Bid.auto_bid_enabled, Bid.max_auto_bid,
                              Bid.campaign_id,
                              Slot.creator_id, Slot.min_bid, Slot.auction_end, Slot.current_bid, Slot.status,
                              shared_hard_signal(Bid.buyer_id, Slot.creator_id),
                              *[c.label("u_" + c.name) for c in User.__table__.columns])
                       .join(Slot, Slot.id == Bid.slot_id).outerjoin(User, User.id == Bid.buyer_id)
                       .where(Bid.id == bindparam("bid_id"), Bid.buyer_id == bindparam("buyer_id")))


class Bidding:
    """The buyer's calls (the module's docstring follows a bid through its two stages)."""

    def __init__(self, db: Database, settings: MarketplaceSettings, rules: auction.Rules, clock: Clock):
        self.db, self.settings, self.rules, self.clock = db, settings, rules, clock
        # the hand-off: a Placing joins its slot's next batch, and the batch runs in _place_batch
        self.slot_batches: Batches[Placing] = Batches(run_batch=self._place_batch)

    def refuse_before_batching(self, slot: auction.Slot, buyer_id: uuid.UUID, offer: Offer) -> None:
        """Stage 1, on the unlocked read: the domain's check of a bid, refused on the slot as read (the price
        falls only when a bid leaves, an ended auction stays ended). What passes is checked again by place_bid on
        the batch's read."""
        with as_api_errors():
            auction.check_bid(slot, buyer_id=buyer_id, amount=offer.amount, ceiling=offer.ceiling, now=self.clock())

    async def place(self, buyer_id: uuid.UUID, slot_id: uuid.UUID, offer: Offer,
                    comment: Comment | None = None) -> BidView:
        async with self.db.autocommit() as conn:
            placing = await self._checked(conn, Placing(buyer_id, offer, comment, None), slot_id)
        return await self.slot_batches.join_next_batch(slot_id, placing)

    async def _checked(self, conn: AsyncConnection, placing: Placing, slot_id: uuid.UUID) -> Placing:
        """Stage 1 of a new bid: the slot and the buyer read unlocked, a refusal raised; the Placing with its buyer."""
        row = (await conn.execute(_SLOT_AND_BUYER, {"slot_id": slot_id, "buyer_id": placing.buyer_id})).first()
        if row is None:
            raise NotFound(SLOT_NOT_FOUND)
        refuse_associated(row.shared_signal)
        self.refuse_before_batching(store.slot_seen(row, slot_id), placing.buyer_id, placing.offer)
        return dataclasses.replace(placing, buyer=store.user_of(row))

    async def change(self, buyer_id: uuid.UUID, bid_id: uuid.UUID, offer: Offer) -> BidView:
        """PUT /buyer/bids/{id}: a new amount for a live bid (Bid Again); keeps its auto-bid ceiling."""
        async with self.db.autocommit() as conn:
            row = (await conn.execute(_BID_SLOT_AND_BUYER, {"bid_id": bid_id, "buyer_id": buyer_id})).first()
        if row is None:
            raise NotFound(BID_NOT_FOUND)
        refuse_associated(row.shared_signal)  # first: a tie withdrew its bids, and the tie is the reason
        require_live(row.bid_status)
        with as_api_errors():
            campaign_rules.check_own_bid(True, row.campaign_id, None)
        self.refuse_before_batching(store.slot_seen(row, row.slot_id), buyer_id,
                                    offer.keeping_ceiling_of(row.auto_bid_enabled, row.max_auto_bid))
        return await self.slot_batches.join_next_batch(
            row.slot_id, Placing(buyer_id, offer, None, store.user_of(row), bid_id))

    async def place_within(self, conn: AsyncConnection, buyer_id: uuid.UUID, slot_id: uuid.UUID, offer: Offer,
                           comment: Comment | None, campaign_id: uuid.UUID) -> BidView:
        """A campaign's bid in the caller's transaction (holding the campaign's lock): both stages on `conn`."""
        pending = Pending(await self._checked(conn, Placing(buyer_id, offer, comment, None, campaign_id=campaign_id),
                                              slot_id))
        await self._place_batch(slot_id, [pending], conn=conn)
        return pending.answer.result()

    async def _place_batch(self, slot_id: uuid.UUID, batch: list[Pending[Placing]], conn=None) -> None:
        """Stage 2, the other end of the hand-off: every Placing that joined this slot's batch, applied and written
        together; settles each one's answer (its BidView, or its refusal). On `conn` when given (place_within)."""
        for _ in range(MAX_WRITE_ATTEMPTS):
            answers, written = await self._read_apply_write(slot_id, batch, conn)
            if written is None or written.ok:
                break
            BID_WRITE_CONFLICTS.inc()
        else:
            raise Busy()
        accepted = sum(1 for a in answers if not isinstance(a, Exception))
        if written is not None and accepted:
            SLOT_LOCK_HELD.observe(written.lock_held_seconds)
            for _ in range(accepted):
                SLOT_LOCK_PER_BID.observe(written.lock_held_seconds / accepted)
        for pending, answer in zip(batch, answers, strict=True):
            if pending.answer.done():
                continue
            if isinstance(answer, Exception):
                pending.answer.set_exception(answer)
            else:
                pending.answer.set_result(answer)

    async def _read_apply_write(self, slot_id: uuid.UUID, batch: list[Pending[Placing]], given=None
                                ) -> tuple[list[BidView | Exception], store_write.Written | None]:
        """Read, apply the batch in arrival order, write guarded by the version read, in autocommit (or on the
        connection `given`): the answers, and what the write did (None: every bid was refused, nothing to write)."""
        answers: list[BidView | Exception] = []
        async with contextlib.nullcontext(given) if given is not None else self.db.autocommit() as conn:
            seen = await store.read_for_placement(
                conn, slot_id, list({p.item.buyer_id for p in batch}),
                [p.item.bid_id for p in batch if p.item.bid_id is not None])
            if seen is None:
                raise NotFound(SLOT_NOT_FOUND)
            seen_version = seen.slot.version
            changed: dict[uuid.UUID, Bid] = {}
            events: list[EventData] = []
            for pending in batch:
                try:
                    answers.append(self._apply(seen, pending.item, changed, events))
                except ApiError as refused:
                    answers.append(refused)
            if not changed:
                return answers, None
            with BID_WRITE_ROUND_TRIP.time():
                written = await store_write.write(conn, slots=[seen.slot], bids=list(changed.values()), events=events,
                                            seen_version=seen_version)
        return answers, written

    def _apply(self, seen: store.SlotRows, placing: Placing, changed: dict[uuid.UUID, Bid],
               events: list[EventData]) -> BidView:
        """Apply one bid of the batch to the rows read (in place); returns its answer as of this bid."""
        slot_row, by_id, buyer_id, offer = seen.slot, seen.bids, placing.buyer_id, placing.offer
        refuse_associated(seen.tied.get(buyer_id))  # a tie recorded since the pre-check (its read is this batch's)
        if placing.bid_id is not None:
            named = by_id.get(placing.bid_id)
            if named is None:
                raise NotFound(BID_NOT_FOUND)
            require_live(named.status)
            offer = offer.keeping_ceiling_of(named.auto_bid_enabled, named.max_auto_bid)
        live = [bid_state(b) for b in by_id.values() if BidStatus(b.status) in LIVE]
        own = next((by_id[b.id] for b in live if b.buyer_id == buyer_id), None)
        with as_api_errors():
            campaign_rules.check_own_bid(own is not None, own and own.campaign_id, placing.campaign_id)
        slot = slot_state(slot_row)
        now = self.clock()
        with as_api_errors():  # place_bid checks the bid on this read first: the stage that decides
            placement = auction.place_bid(slot, live, buyer_id=buyer_id, amount=offer.amount, ceiling=offer.ceiling,
                                          now=now, rules=self.rules, new_id=uuid.uuid4())
        store_slot(slot_row, slot)
        slot_row.updated_at = now
        if placement.created:
            by_id[placement.bid.id] = new_bid(placement.bid.id, slot_row.id, buyer_id, now)
            by_id[placement.bid.id].campaign_id = placing.campaign_id
        if not placement.created:
            by_id[placement.bid.id].raises += 1
        for state in placement.changed:
            store_bid(by_id[state.id], state)
            by_id[state.id].updated_at = now  # the service's clock (docs/decisions/auctions-and-bidding.md)
            changed[state.id] = by_id[state.id]
        own = by_id[placement.bid.id]
        # The bid's maximum is its ceiling, whichever way it was reached: an auto-bid maximum, or a leader's raise
        # that moved only the ceiling. Showing it as the auto-bid maximum keeps it from silently disappearing.
        own.auto_bid_enabled = offer.auto_bid_enabled or own.ceiling > own.amount
        own.max_auto_bid = own.ceiling if own.auto_bid_enabled else None
        currency = self.settings.currency
        # A bid that names no comment keeps the one it has.
        comment = placing.comment
        if comment is not None and (own.comment_id, own.comment_username, own.comment_text) != (
                comment.comment_id, comment.username, comment.text):
            store.choose_comment(own, comment)
            events.append(events_out.comment_changed_event(own))
        if not placement.raised_only:
            events.append(events_out.bid_placed_event(slot_row, own, placing.buyer, currency))
        events += [e for lost in placement.outbid for e in events_out.outbid_events(slot_row, by_id[lost.id], currency)]
        events.append(events_out.slot_updated_event(slot_row, currency))
        # later bids of the batch change these rows: the answer keeps them as of this bid
        return BidView(bid=store.copy_bid(own), slot=store.copy_slot(slot_row), buyer=placing.buyer)

    async def cancel(self, buyer_id: uuid.UUID, bid_id: uuid.UUID) -> BidView:
        """The brand's own cancel, two statements: lock the bid, its slot, buyer and the best live bids; write them
        and `slot.updated` (`bidderCount` one fewer, the price lower when the runner-up left), its campaigns' cue."""
        async with self.db.transaction() as session:
            return await self.cancel_within(await session.connection(), buyer_id, bid_id, by_brand=True)

    async def cancel_within(self, conn: AsyncConnection, buyer_id: uuid.UUID, bid_id: uuid.UUID,
                            by_brand: bool = False) -> BidView:
        """The cancellation in the caller's transaction (a campaign cancels its outbid bid holding its own lock)."""
        locked = await store.lock_bid_of_buyer(conn, bid_id, buyer_id, with_best=True)
        if locked is None:
            raise NotFound(BID_NOT_FOUND)
        slot_row, bid = locked.slot, locked.bids[bid_id]
        states = {row.id: bid_state(row) for row in locked.bids.values()}
        slot = slot_state(slot_row)
        now = self.clock()
        with as_api_errors():
            auction.cancel(slot, [s for s in states.values() if s.status in LIVE], states[bid_id], now=now,
                           rules=self.rules)
        store_bid(bid, states[bid_id])
        bid.updated_at = now
        store_slot(slot_row, slot)
        slot_row.updated_at = now
        await store_write.write(conn, slots=[slot_row], bids=[bid],
                                events=events_out.cancel_events(slot_row, bid, self.settings.currency, by_brand))
        return BidView(bid=bid, slot=slot_row, buyer=locked.buyer)

    async def buy_now(self, buyer_id: uuid.UUID, slot_id: uuid.UUID, comment: Comment | None) -> BidView:
        """Two statements: lock the slot with the buyer, write the slot, the won bid and the events."""
        async with self.db.transaction() as session:
            conn = await session.connection()
            locked = await store.lock_slot_for_buyer(conn, slot_id, buyer_id)
            if locked is None:
                raise NotFound(SLOT_NOT_FOUND)
            refuse_associated(locked.shared_signal)
            slot_row = locked.slot
            slot = slot_state(slot_row)
            now = self.clock()
            with as_api_errors():
                won = auction.buy_now(slot, buyer_id=buyer_id, now=now, new_id=uuid.uuid4())
            store_slot(slot_row, slot)
            slot_row.closed_at = slot_row.updated_at = now
            bid = new_bid(won.id, slot_id, buyer_id, now)
            store_bid(bid, won)
            events: list[EventData] = []
            if comment is not None:
                store.choose_comment(bid, comment)
                events.append(events_out.comment_changed_event(bid))
            currency = self.settings.currency
            events += [events_out.auction_closed_event(slot_row, bid, currency),
                       events_out.slot_updated_event(slot_row, currency)]
            await store_write.write(conn, slots=[slot_row], bids=[bid], events=events)
        return BidView(bid=bid, slot=slot_row, buyer=locked.buyer)

    async def submit_comment(self, buyer_id: uuid.UUID, bid_id: uuid.UUID, comment: Comment) -> BidView:
        """Lock the bid with its slot (marked changed) and its buyer; a changed comment is written with its event."""
        async with self.db.transaction() as session:
            conn = await session.connection()
            locked = await store.lock_bid_of_buyer(conn, bid_id, buyer_id)
            if locked is None:
                raise NotFound(BID_NOT_FOUND)
            bid = locked.bids[bid_id]
            if BidStatus(bid.status) not in COMMENT_CHANGEABLE:
                raise Conflict("The comment of this bid can no longer change.", code="bid_state")
            if (bid.comment_id, bid.comment_text, bid.comment_username) != (comment.comment_id, comment.text,
                                                                            comment.username):
                store.choose_comment(bid, comment)
                bid.approved_text = bid.approved_at = None  # a changed comment waits for the creator's approval
                bid.updated_at = self.clock()
                await store_write.write(conn, slots=[], bids=[bid], events=[events_out.comment_changed_event(bid)])
        return BidView(bid=bid, slot=locked.slot, buyer=locked.buyer)

