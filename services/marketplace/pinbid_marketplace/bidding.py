"""The buyer's side of an auction: place, change and cancel bids, Buy Now, choose the comment to pin.
Changes to one slot apply one at a time: placed and changed bids in batches per slot (see batches.py), each read
unlocked and written only if the slot's version is still the one read; cancel and Buy Now lock the slot row."""

import uuid
from dataclasses import dataclass
from decimal import Decimal

from pinbid_kit.api import Money
from pinbid_kit.clock import Clock
from pinbid_kit.db import Busy, Database
from pinbid_kit.errors import ApiError, Conflict, Invalid, NotFound
from pinbid_kit.events import EventData
from prometheus_client import Counter, Histogram
from pydantic import TypeAdapter
from sqlalchemy import bindparam, select
from sqlalchemy.engine import Row

from . import announcements, store
from .batches import Batches, Pending
from .domain import auction
from .domain.comments import Comment
from .domain.states import LIVE, BidStatus, check_move
from .models import Bid, Slot, User
from .queries import BidView
from .rules import as_api_errors, bid_state, slot_state, store_bid, store_slot
from .settings import MarketplaceSettings

SLOT_NOT_FOUND = "Pin slot not found."
BID_NOT_FOUND = "Bid not found."
# A comment may change until it is pinned, as long as the bid can still end up pinned.
COMMENT_CHANGEABLE = {BidStatus.ACTIVE, BidStatus.OUTBID, BidStatus.PENDING_INFLUENCER_APPROVAL,
                      BidStatus.APPROVED, BidStatus.AWAITING_PAYMENT, BidStatus.WON}
# A batch's bids are written by one statement in autocommit, guarded by the slot's version: the slot's row lock is
# taken and released inside it. The database reports how long it held the lock (from the slot's update to the last
# row written; the commit follows in the same round trip): per batch, and divided among the bids it accepted. The
# round trip, as this process sees it, adds the network and the wait for the event loop (make bench-hot reads all).
_LOCK_BUCKETS = (0.00005, 0.0001, 0.0002, 0.0003, 0.0004, 0.0005, 0.0006, 0.0008, 0.001, 0.0013, 0.0016, 0.002,
                 0.0025, 0.003, 0.004, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.05, 0.1, 0.25, 0.5, 1.0)
SLOT_LOCK_HELD = Histogram("pinbid_marketplace_slot_lock_held_seconds",
                           "Time the slot's row lock is held by a batch's guarded write, as the database measures it",
                           buckets=_LOCK_BUCKETS)
SLOT_LOCK_PER_BID = Histogram("pinbid_marketplace_slot_lock_per_accepted_bid_seconds",
                              "Time the slot's row lock is held, per accepted bid", buckets=_LOCK_BUCKETS)
BID_WRITE_ROUND_TRIP = Histogram("pinbid_marketplace_bid_write_round_trip_seconds",
                                 "Round trip of a batch's guarded write, as this process sees it",
                                 buckets=_LOCK_BUCKETS)
BID_WRITE_CONFLICTS = Counter("pinbid_marketplace_bid_write_conflicts_total",
                              "Batches of bids read again because another writer changed the slot first")
# another replica or call changing the slot this many times in a row between our read and write: answer 503
MAX_WRITE_ATTEMPTS = 10
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


def check_live(status: str) -> None:
    with as_api_errors():
        if BidStatus(status) not in LIVE:
            check_move(BidStatus(status), BidStatus.ACTIVE)


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


@dataclass(frozen=True)
class Placing:
    """One bid waiting for its slot's next batch; `bid_id` when it changes a named bid (PUT /buyer/bids/{id})."""

    buyer_id: uuid.UUID
    offer: Offer
    comment: Comment | None
    buyer: User | None
    bid_id: uuid.UUID | None = None


_SLOT_AND_BUYER = (select(Slot.id, Slot.creator_id, Slot.min_bid, Slot.auction_end, Slot.current_bid, Slot.status,
                          *[c.label("u_" + c.name) for c in User.__table__.columns])
                   .outerjoin(User, User.id == bindparam("buyer_id")).where(Slot.id == bindparam("slot_id")))
_BID_SLOT_AND_BUYER = (select(Bid.slot_id, Bid.status.label("bid_status"), Bid.auto_bid_enabled, Bid.max_auto_bid,
                              Slot.creator_id, Slot.min_bid, Slot.auction_end, Slot.current_bid, Slot.status,
                              *[c.label("u_" + c.name) for c in User.__table__.columns])
                       .join(Slot, Slot.id == Bid.slot_id).outerjoin(User, User.id == Bid.buyer_id)
                       .where(Bid.id == bindparam("bid_id"), Bid.buyer_id == bindparam("buyer_id")))


def _slot_seen(row: Row, slot_id: uuid.UUID) -> auction.Slot:
    return auction.Slot(id=slot_id, creator_id=row.creator_id, min_bid=row.min_bid, auction_end=row.auction_end,
                        current_bid=row.current_bid, status=row.status)


class Bidding:
    """A bid is first checked on an unlocked read (refusals stop there: one statement, no lock). What passes
    joins its slot's next batch: one statement reads the slot and the bids the rules need, the batch's bids apply
    in arrival order with the domain's rules, and one statement writes the slot, the bids and every event, only
    if the slot's version is still the one read (else the batch is read and applied again). Both run in
    autocommit: no BEGIN, no COMMIT, no lock held across a round trip. Each answer is built from what was read."""

    def __init__(self, db: Database, settings: MarketplaceSettings, rules: auction.Rules, clock: Clock):
        self.db, self.settings, self.rules, self.clock = db, settings, rules, clock
        self.batches: Batches[Placing] = Batches(self._run_batch)

    async def place(self, buyer_id: uuid.UUID, slot_id: uuid.UUID, offer: Offer,
                    comment: Comment | None = None) -> BidView:
        async with self.db.autocommit() as conn:
            row = (await conn.execute(_SLOT_AND_BUYER, {"slot_id": slot_id, "buyer_id": buyer_id})).first()
        if row is None:
            raise NotFound(SLOT_NOT_FOUND)
        # most refusals need no lock: the price only rises and an ended auction stays ended
        check_bid(_slot_seen(row, slot_id), buyer_id, offer, self.clock())
        return await self.batches.submit(slot_id, Placing(buyer_id, offer, comment, store.user_of(row)))

    async def change(self, buyer_id: uuid.UUID, bid_id: uuid.UUID, offer: Offer) -> BidView:
        """PUT /buyer/bids/{id}: a new amount for a live bid (Bid Again); keeps its auto-bid ceiling."""
        async with self.db.autocommit() as conn:
            row = (await conn.execute(_BID_SLOT_AND_BUYER, {"bid_id": bid_id, "buyer_id": buyer_id})).first()
        if row is None:
            raise NotFound(BID_NOT_FOUND)
        check_live(row.bid_status)
        check_bid(_slot_seen(row, row.slot_id), buyer_id,
                  offer.keeping_ceiling_of(row.auto_bid_enabled, row.max_auto_bid), self.clock())
        return await self.batches.submit(row.slot_id, Placing(buyer_id, offer, None, store.user_of(row), bid_id))

    async def _run_batch(self, slot_id: uuid.UUID, batch: list[Pending[Placing]]) -> None:
        for _ in range(MAX_WRITE_ATTEMPTS):
            answers, written = await self._try_batch(slot_id, batch)
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

    async def _try_batch(self, slot_id: uuid.UUID, batch: list[Pending[Placing]]
                         ) -> tuple[list[BidView | Exception], store.Written | None]:
        """Read, apply the batch in arrival order, write guarded by the version read, in autocommit: the answers,
        and what the write did (None: every bid was refused, nothing to write)."""
        answers: list[BidView | Exception] = []
        async with self.db.autocommit() as conn:
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
                    answers.append(self._place(seen, pending.item, changed, events))
                except ApiError as refused:
                    answers.append(refused)
            if not changed:
                return answers, None
            with BID_WRITE_ROUND_TRIP.time():
                written = await store.write(conn, slots=[seen.slot], bids=list(changed.values()), events=events,
                                            seen_version=seen_version)
        return answers, written

    def _place(self, locked: store.SlotRows, placing: Placing, changed: dict[uuid.UUID, Bid],
               events: list[EventData]) -> BidView:
        """Apply one bid to the locked slot's rows (in place); returns its answer as of this bid."""
        slot_row, by_id, buyer_id, offer = locked.slot, locked.bids, placing.buyer_id, placing.offer
        if placing.bid_id is not None:
            named = by_id.get(placing.bid_id)
            if named is None:
                raise NotFound(BID_NOT_FOUND)
            check_live(named.status)
            offer = offer.keeping_ceiling_of(named.auto_bid_enabled, named.max_auto_bid)
        live = [bid_state(b) for b in by_id.values() if BidStatus(b.status) in LIVE]
        slot = slot_state(slot_row)
        now = self.clock()
        check_bid(slot, buyer_id, offer, now)  # again, on the batch's fresh read
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
            own.comment_id, own.comment_username, own.comment_text = comment.comment_id, comment.username, comment.text
            events.append(announcements.comment_changed_event(own))
        if not placement.raised_only:
            events.append(announcements.bid_placed_event(slot_row, own, placing.buyer, currency))
        events += [announcements.bid_outbid_event(slot_row, by_id[lost.id], currency) for lost in placement.outbid]
        events.append(announcements.slot_updated_event(slot_row, currency))
        # later bids of the batch change these rows: the answer keeps them as of this bid
        return BidView(bid=store.copy_bid(own), slot=store.copy_slot(slot_row), buyer=placing.buyer)

    async def cancel(self, buyer_id: uuid.UUID, bid_id: uuid.UUID) -> uuid.UUID:
        async with self.db.transaction() as session:
            found = await session.get(Bid, bid_id)
            if found is None or found.buyer_id != buyer_id:
                raise NotFound(BID_NOT_FOUND)
            await store.touch_slot(await session.connection(), found.slot_id)
            slot_row = await session.get(Slot, found.slot_id, populate_existing=True)
            bid = await session.get(Bid, bid_id, with_for_update=True, populate_existing=True)
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
            found = await session.get(Bid, bid_id)
            if found is None or found.buyer_id != buyer_id:
                raise NotFound(BID_NOT_FOUND)
            await store.touch_slot(await session.connection(), found.slot_id)
            bid = await session.get(Bid, bid_id, with_for_update=True, populate_existing=True)
            assert bid is not None
            if BidStatus(bid.status) not in COMMENT_CHANGEABLE:
                raise Conflict("The comment of this bid can no longer change.", code="bid_state")
            if (bid.comment_id, bid.comment_text, bid.comment_username) != (comment.comment_id, comment.text,
                                                                            comment.username):
                bid.comment_id, bid.comment_username, bid.comment_text = comment.comment_id, comment.username, \
                    comment.text
                bid.approved_text = bid.approved_at = None  # a changed comment waits for the creator's approval
                await announcements.comment_changed(session, bid)
            return bid.id

