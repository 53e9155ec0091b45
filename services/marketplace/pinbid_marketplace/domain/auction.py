"""The second-price proxy auction of ARCHITECTURE.md section 5.

One price for everyone: the slot's `current_bid` is always what the leader would pay if the auction closed now
(`price`: the second price, the minimum bid while the leader is alone), the price the close charges. A bid's own
`amount` (and its ceiling) stay its own: the leader's amount may be above the price.

Every function takes the slot and the live bids that matter, changes them in place, and returns what
happened so the caller can store it and announce it. A refused action raises before changing anything.

`place_bid` needs only the two best live bids and the bidder's own live bid: every other live bid is
OUTBID already and keeps its amount (the property tests check that a subset gives the same result). `cancel`
needs the three best and the cancelled bid (the third becomes the runner-up when the runner-up goes).
"""

import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal

from .errors import AmountTooLow, RuleBroken, StateConflict
from .money import dollars
from .states import LIVE, BidStatus, SlotStatus, check_move


@dataclass(frozen=True)
class Rules:
    step: Decimal = Decimal("1.00")
    soft_close: timedelta = timedelta(seconds=120)
    second_price_increment: Decimal = Decimal("0.00")


@dataclass
class Slot:
    id: uuid.UUID
    creator_id: uuid.UUID
    min_bid: Decimal
    auction_end: datetime
    buy_now_price: Decimal | None = None
    current_bid: Decimal | None = None
    bid_count: int = 0  # accepted bid actions, raises included: the slot's bid order (ties) and its events' order
    # the brands in the running, one bid each: a live bid while the auction runs, and the bids that stood at its
    # close; a cancelled or withdrawn bid leaves it. The number every screen shows as the slot's bids and bidders.
    bidder_count: int = 0
    status: SlotStatus = SlotStatus.ACTIVE
    outcome: str | None = None  # SOLD or UNSOLD once closed
    winning_bid_id: uuid.UUID | None = None

    def is_open(self, now: datetime) -> bool:
        return self.status == SlotStatus.ACTIVE and now < self.auction_end


@dataclass
class Bid:
    id: uuid.UUID
    buyer_id: uuid.UUID
    amount: Decimal  # the visible amount
    ceiling: Decimal  # maxAutoBid when auto-bidding, else the amount
    seq: int  # when the ceiling was reached, in the slot's bid order: ties go to the earliest
    status: BidStatus = BidStatus.ACTIVE
    final_price: Decimal | None = None

    def move(self, target: BidStatus) -> None:
        check_move(self.status, target)
        self.status = target


@dataclass
class Placement:
    bid: Bid
    created: bool  # a new bid row, not a replaced live bid
    raised_only: bool  # the bidder already led: only the ceiling moved
    leader: Bid
    outbid: list[Bid] = field(default_factory=list)  # bids that lost the lead with this bid
    changed: list[Bid] = field(default_factory=list)  # every bid whose amount or status may have changed
    extended: bool = False  # soft close moved the auction's end


@dataclass
class Closing:
    sold: bool
    winner: Bid | None
    expired: list[Bid]
    price: Decimal | None


def bid_too_low(slot: Slot) -> str:
    if slot.current_bid is None:  # nothing to beat yet: only the minimum counts
        return f"Your bid must be at least the minimum bid ({dollars(slot.min_bid)})."
    return (f"Your bid must be higher than the current bid ({dollars(slot.current_bid)}) and at least the minimum "
            f"bid ({dollars(slot.min_bid)}).")


def ranked(bids: list[Bid]) -> list[Bid]:
    """Live bids, best first: highest ceiling, then whoever reached that ceiling first."""
    return sorted((b for b in bids if b.status in LIVE), key=lambda b: (-b.ceiling, b.seq))


def check_open(slot: Slot, now: datetime) -> None:
    if not slot.is_open(now):
        raise StateConflict("This auction has ended.", code="auction_ended")


def check_not_creator(slot: Slot, buyer_id: uuid.UUID) -> None:
    if buyer_id == slot.creator_id:
        raise StateConflict("You cannot bid on your own pin slot.", code="own_slot")


def check_bid(slot: Slot, *, buyer_id: uuid.UUID, amount: Decimal, ceiling: Decimal, now: datetime) -> None:
    """Whether a bid may be accepted. Only reads the slot, so the application can also run it on an unlocked read
    to refuse early; `place_bid` runs it on the slot it changes."""
    check_open(slot, now)
    check_not_creator(slot, buyer_id)
    if ceiling < amount:
        raise RuleBroken("The maximum auto-bid must be at least your bid amount.", "maxAutoBid")
    if amount < slot.min_bid or (slot.current_bid is not None and amount <= slot.current_bid):
        raise AmountTooLow(bid_too_low(slot), slot.current_bid)


def place_bid(slot: Slot, live: list[Bid], *, buyer_id: uuid.UUID, amount: Decimal, ceiling: Decimal,
              now: datetime, rules: Rules, new_id: uuid.UUID) -> Placement:
    check_bid(slot, buyer_id=buyer_id, amount=amount, ceiling=ceiling, now=now)

    order = ranked(live)
    leader_before = order[0] if order else None
    own = next((b for b in order if b.buyer_id == buyer_id), None)
    slot.bid_count += 1
    seq = slot.bid_count

    if own is not None and own is leader_before:
        # No bidding against yourself: the leader only raises the ceiling; the price stays.
        if ceiling > own.ceiling:
            own.ceiling, own.seq = ceiling, seq
        placement = Placement(bid=own, created=False, raised_only=True, leader=own, changed=[own])
        # The price is the runner-up's: a raise leaves it, unless the leader's own ceiling held it down (only
        # possible with a second-price increment), where the close would now charge more, and so shows more.
        slot.current_bid = price(slot, order, rules)
    else:
        created = own is None
        if own is None:
            own = Bid(id=new_id, buyer_id=buyer_id, amount=amount, ceiling=ceiling, seq=seq)
            order.append(own)
            slot.bidder_count += 1
        else:
            own.move(BidStatus.ACTIVE)
            own.amount, own.ceiling, own.seq = amount, ceiling, seq
        leader = resolve(order, rules.step)
        slot.current_bid = price(slot, order, rules)
        outbid = [leader_before] if leader_before is not None and leader_before is not leader else []
        placement = Placement(bid=own, created=created, raised_only=False, leader=leader, outbid=outbid,
                              changed=list(order))
    if rules.soft_close and slot.auction_end - now <= rules.soft_close:
        slot.auction_end = now + rules.soft_close
        placement.extended = True
    return placement


def resolve(live: list[Bid], step: Decimal) -> Bid:
    """Set every live bid's amount and status after a change; returns the leader."""
    order = ranked(live)
    leader = order[0]
    if len(order) > 1:
        runner_up = order[1]
        runner_up.amount = runner_up.ceiling
        leader.amount = max(leader.amount, min(leader.ceiling, runner_up.ceiling + step))
    leader.move(BidStatus.ACTIVE)
    for other in order[1:]:
        other.move(BidStatus.OUTBID)
    return leader


def second_price(slot: Slot, winner: Bid, runner_up: Bid | None, rules: Rules) -> Decimal:
    """What the leader pays: `max(minBid, runner-up ceiling)` plus the increment, never above its own ceiling; the
    minimum bid (plus the increment, within the ceiling) while it is alone."""
    base = max(slot.min_bid, runner_up.ceiling) if runner_up is not None else slot.min_bid
    return min(winner.ceiling, base + rules.second_price_increment)


def price(slot: Slot, live: list[Bid], rules: Rules) -> Decimal | None:
    """The slot's `current_bid`: the price the leader would pay if the auction closed now (None with no live
    bid). `live` must hold at least the two best live bids."""
    order = ranked(live)
    if not order:
        return None
    return second_price(slot, order[0], order[1] if len(order) > 1 else None, rules)


def close(slot: Slot, live: list[Bid], *, now: datetime, rules: Rules) -> Closing:
    """Close at the end or early by the creator. `live` must hold every live bid of the slot."""
    if slot.status is not SlotStatus.ACTIVE:
        raise StateConflict("This auction has already ended.", code="auction_ended")
    slot.status = SlotStatus.CLOSED
    order = ranked(live)
    if not order:
        slot.outcome = "UNSOLD"
        return Closing(sold=False, winner=None, expired=[], price=None)
    winner = order[0]
    charged = second_price(slot, winner, order[1] if len(order) > 1 else None, rules)
    winner.move(BidStatus.PENDING_INFLUENCER_APPROVAL)
    winner.final_price = charged
    for other in order[1:]:
        other.move(BidStatus.EXPIRED)
    # the price shown until now is the price charged (it already was: this keeps a row written by an older rule
    # from ending on another figure)
    slot.current_bid = charged
    slot.outcome, slot.winning_bid_id = "SOLD", winner.id
    return Closing(sold=True, winner=winner, expired=order[1:], price=charged)


def buy_now(slot: Slot, *, buyer_id: uuid.UUID, now: datetime, new_id: uuid.UUID) -> Bid:
    check_open(slot, now)
    check_not_creator(slot, buyer_id)
    if slot.buy_now_price is None:
        raise StateConflict("This pin slot has no Buy Now price.", code="no_buy_now")
    if slot.current_bid is not None:
        raise StateConflict("Buy Now is only available before the first bid.", code="has_bids")
    at = slot.buy_now_price
    slot.bid_count += 1
    slot.bidder_count += 1
    bid = Bid(id=new_id, buyer_id=buyer_id, amount=at, ceiling=at, seq=slot.bid_count,
              status=BidStatus.PENDING_INFLUENCER_APPROVAL, final_price=at)
    slot.current_bid = at
    slot.status, slot.outcome, slot.winning_bid_id = SlotStatus.CLOSED, "SOLD", bid.id
    return bid


def cancel(slot: Slot, live: list[Bid], bid: Bid, *, now: datetime, rules: Rules) -> None:
    """A buyer may cancel a live bid before the end, and only when it is not leading (spec FAQ). The price is
    the runner-up's: cancelling the runner-up lowers it to the next one's (the minimum bid when none is left).
    `live` must hold the three best live bids; amounts and statuses of the others do not change."""
    if bid.status not in LIVE:
        check_move(bid.status, BidStatus.CANCELLED)
    check_open(slot, now)
    if bid.status is BidStatus.ACTIVE:
        raise StateConflict("You cannot cancel the highest bid.", code="leading_bid")
    bid.move(BidStatus.CANCELLED)
    slot.bidder_count -= 1
    slot.current_bid = price(slot, [b for b in live if b.id != bid.id], rules)


def withdraw(slot: Slot, live: list[Bid], bid: Bid, *, rules: Rules) -> Bid | None:
    """An operator's suspension withdraws a live bid, leading or not (a cancellation the auction understands): the
    rest are ranked again and the leader's amount is what it needs against the next one (the minimum bid when it
    is alone); the price is the second price of what is left. `live` must hold every live bid of the slot.
    Returns the leader afterwards, if any."""
    if bid.status not in LIVE:
        return ranked(live)[0] if ranked(live) else None
    bid.move(BidStatus.CANCELLED)
    slot.bidder_count -= 1
    order = ranked(live)
    if not order:
        slot.current_bid = None
        return None
    leader = order[0]
    if len(order) > 1:
        order[1].amount = order[1].ceiling
        leader.amount = min(leader.ceiling, max(slot.min_bid, order[1].ceiling + rules.step))
    else:
        leader.amount = min(leader.ceiling, slot.min_bid)
    leader.move(BidStatus.ACTIVE)
    for other in order[1:]:
        other.move(BidStatus.OUTBID)
    slot.current_bid = price(slot, order, rules)
    return leader


def close_without_sale(slot: Slot, live: list[Bid]) -> None:
    """An operator's suspension of the creator closes the open slot unsold: every live bid expires."""
    if slot.status is not SlotStatus.ACTIVE:
        raise StateConflict("This auction has already ended.", code="auction_ended")
    slot.status, slot.outcome, slot.winning_bid_id = SlotStatus.CLOSED, "UNSOLD", None
    for bid in ranked(live):
        bid.move(BidStatus.EXPIRED)
