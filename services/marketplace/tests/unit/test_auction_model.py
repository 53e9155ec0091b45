"""The auction rules against a straightforward reference model, on random sequences of bids, raises,
cancels, ties, Buy Now, time passing and closes."""

import copy
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st
from pinbid_marketplace.domain import auction
from pinbid_marketplace.domain.auction import Bid, Rules, Slot
from pinbid_marketplace.domain.errors import RuleBroken, StateConflict
from pinbid_marketplace.domain.states import LIVE, BidStatus, SlotStatus

START = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
BUYERS = [uuid.UUID(int=i + 1) for i in range(5)]
CREATOR = uuid.UUID(int=99)


@dataclass
class RefBid:
    amount: Decimal
    ceiling: Decimal
    order: int
    status: str = "ACTIVE"
    final: Decimal | None = None


@dataclass
class Reference:
    """The rules of ARCHITECTURE.md section 5, written as plainly as possible over every bid."""

    min_bid: Decimal
    buy_now: Decimal | None
    end: datetime
    step: Decimal
    soft_close: timedelta
    increment: Decimal
    bids: dict[uuid.UUID, RefBid] = field(default_factory=dict)
    current: Decimal | None = None
    accepted: int = 0
    closed: bool = False
    sold: bool | None = None

    def live(self) -> dict[uuid.UUID, RefBid]:
        return {buyer: b for buyer, b in self.bids.items() if b.status in ("ACTIVE", "OUTBID")}

    def best(self, exclude: uuid.UUID | None = None) -> uuid.UUID | None:
        found = None
        for buyer, b in self.live().items():
            if buyer == exclude:
                continue
            if found is None:
                found = buyer
                continue
            top = self.bids[found]
            if b.ceiling > top.ceiling or (b.ceiling == top.ceiling and b.order < top.order):
                found = buyer
        return found

    def open(self, now: datetime) -> bool:
        return not self.closed and now < self.end

    def bid(self, buyer: uuid.UUID, amount: Decimal, ceiling: Decimal, now: datetime) -> str:
        if not self.open(now):
            return "409"
        if buyer == CREATOR:
            return "409"
        if ceiling < amount or amount < self.min_bid or (self.current is not None and amount <= self.current):
            return "422"
        self.accepted += 1
        if self.best() == buyer:
            mine = self.bids[buyer]
            if ceiling > mine.ceiling:
                mine.ceiling, mine.order = ceiling, self.accepted
            self.current = self.second_price()
        else:
            self.bids[buyer] = RefBid(amount, ceiling, self.accepted)
            leader = self.best()
            runner = self.best(exclude=leader)
            if runner is not None:
                self.bids[runner].amount = self.bids[runner].ceiling
                lead = self.bids[leader]
                lead.amount = max(lead.amount, min(lead.ceiling, self.bids[runner].ceiling + self.step))
            for other in self.live():
                self.bids[other].status = "ACTIVE" if other == leader else "OUTBID"
            self.current = self.second_price()
        if self.soft_close and self.end - now <= self.soft_close:
            self.end = now + self.soft_close
        return "ok"

    def cancel(self, buyer: uuid.UUID, now: datetime) -> str:
        b = self.bids.get(buyer)
        if b is None or b.status not in ("ACTIVE", "OUTBID") or not self.open(now) or b.status == "ACTIVE":
            return "409"
        b.status = "CANCELLED"
        self.current = self.second_price()
        return "ok"

    def second_price(self) -> Decimal | None:
        """What the leader pays if the auction closes now: the runner-up's maximum (at least the minimum bid, the
        minimum alone) plus the increment, never above the leader's own maximum. It is also the current bid."""
        leader = self.best()
        if leader is None:
            return None
        runner = self.best(exclude=leader)
        second = self.min_bid if runner is None else max(self.min_bid, self.bids[runner].ceiling)
        return min(self.bids[leader].ceiling, second + self.increment)

    def close(self) -> str:
        if self.closed:
            return "409"
        self.closed = True
        leader = self.best()
        if leader is None:
            self.sold = False
            return "ok"
        win = self.bids[leader]
        win.final = self.second_price()
        self.current = win.final
        for buyer in self.live():
            self.bids[buyer].status = "PENDING_INFLUENCER_APPROVAL" if buyer == leader else "EXPIRED"
        self.sold = True
        return "ok"

    def buy_now_(self, buyer: uuid.UUID, now: datetime) -> str:
        if not self.open(now) or self.buy_now is None or self.current is not None:
            return "409"
        self.accepted += 1
        self.bids[buyer] = RefBid(self.buy_now, self.buy_now, self.accepted, "PENDING_INFLUENCER_APPROVAL",
                                  self.buy_now)
        self.current = self.buy_now
        self.closed, self.sold = True, True
        return "ok"


class Engine:
    """The real domain, holding its bids the way the database does (one row per buyer's latest bid)."""

    def __init__(self, ref: Reference, rules: Rules):
        self.slot = Slot(id=uuid.uuid4(), creator_id=CREATOR, min_bid=ref.min_bid, auction_end=ref.end,
                         buy_now_price=ref.buy_now)
        self.rules = rules
        self.bids: dict[uuid.UUID, Bid] = {}

    def live(self, buyer: uuid.UUID | None = None, *, subset: bool) -> list[Bid]:
        live = [b for b in self.bids.values() if b.status in LIVE]
        if not subset:
            return live
        order = auction.ranked(live)
        chosen = order[:2] + [b for b in order[2:] if b.buyer_id == buyer]
        return chosen

    def run(self, fn) -> str:
        try:
            fn()
            return "ok"
        except RuleBroken:
            return "422"
        except StateConflict:
            return "409"

    def bid(self, buyer, amount, ceiling, now, subset) -> str:
        def act():
            placement = auction.place_bid(self.slot, self.live(buyer, subset=subset), buyer_id=buyer, amount=amount,
                                          ceiling=ceiling, now=now, rules=self.rules, new_id=uuid.uuid4())
            self.bids[buyer] = placement.bid

        return self.run(act)

    def cancel(self, buyer, now, subset) -> str:
        bid = self.bids.get(buyer)
        if bid is None:
            return "409"
        live = [b for b in self.bids.values() if b.status in LIVE]
        if subset:  # the three best and the cancelled bid, as the store reads them
            order = auction.ranked(live)
            live = order[:3] + [b for b in order[3:] if b is bid]
        return self.run(lambda: auction.cancel(self.slot, live, bid, now=now, rules=self.rules))

    def close(self, now) -> str:
        return self.run(lambda: auction.close(self.slot, self.live(subset=False), now=now, rules=self.rules))

    def buy_now(self, buyer, now) -> str:
        def act():
            self.bids[buyer] = auction.buy_now(self.slot, buyer_id=buyer, now=now, new_id=uuid.uuid4())

        return self.run(act)


money = st.integers(min_value=1, max_value=12).map(lambda d: Decimal(d))
cents = st.integers(min_value=0, max_value=300).map(lambda c: Decimal(c) / 100)
# A bid's amount is drawn near the current price (most are accepted, some are too low) and its ceiling a
# little above, so equal ceilings (ties) are common.
bids = st.tuples(st.just("bid"), st.sampled_from(BUYERS * 3 + [CREATOR]), st.integers(min_value=-2, max_value=4),
                 st.booleans(), st.integers(min_value=0, max_value=6).map(Decimal))
actions = st.one_of(
    bids, bids, bids, bids, bids, bids, bids, bids,
    st.tuples(st.just("tie"), st.sampled_from(BUYERS)),
    st.tuples(st.just("tie"), st.sampled_from(BUYERS)),
    st.tuples(st.just("cancel"), st.sampled_from(BUYERS)),
    st.tuples(st.just("buy_now"), st.sampled_from(BUYERS)),
    st.tuples(st.just("tick"), st.integers(min_value=1, max_value=300)),
)


@settings(max_examples=300, deadline=None)
@given(
    min_bid=money, buy_now=st.none() | money.map(lambda d: d + 50), step=st.sampled_from([Decimal("1.00"),
                                                                                         Decimal("0.50")]),
    soft_close=st.sampled_from([0, 120]), increment=st.sampled_from([Decimal(0), Decimal("0.25")]),
    ops=st.lists(actions, min_size=3, max_size=40), subset=st.booleans(), extra_cents=cents,
)
def test_the_domain_matches_the_reference(min_bid, buy_now, step, soft_close, increment, ops, subset, extra_cents):
    ref = Reference(min_bid=min_bid, buy_now=buy_now, end=START + timedelta(hours=2), step=step,
                    soft_close=timedelta(seconds=soft_close), increment=increment)
    engine = Engine(ref, Rules(step=step, soft_close=timedelta(seconds=soft_close), second_price_increment=increment))
    now = START
    for op in [*ops, ("close",), ("bid", BUYERS[0], 1000, False, Decimal(0))]:
        if op[0] == "tick":
            now += timedelta(seconds=op[1])
            continue
        before = snapshot(engine)
        if op[0] == "bid":
            _, buyer, delta, auto, extra = op
            amount = (ref.current if ref.current is not None else ref.min_bid) + delta + extra_cents
            ceiling = amount + extra if auto else amount
            expected, got = ref.bid(buyer, amount, ceiling, now), engine.bid(buyer, amount, ceiling, now, subset)
        elif op[0] == "tie":
            # the smallest acceptable amount, with a ceiling equal to the leader's
            leader = ref.best()
            if leader is None:
                continue
            amount = ref.current + Decimal("0.01")
            ceiling = max(amount, ref.bids[leader].ceiling)
            expected, got = ref.bid(op[1], amount, ceiling, now), engine.bid(op[1], amount, ceiling, now, subset)
        elif op[0] == "cancel":
            expected, got = ref.cancel(op[1], now), engine.cancel(op[1], now, subset)
        elif op[0] == "buy_now":
            expected, got = ref.buy_now_(op[1], now), engine.buy_now(op[1], now)
        else:
            expected, got = ref.close(), engine.close(now)
        assert got == expected, (op, got, expected)
        if got != "ok":
            assert snapshot(engine) == before, "a refused action changed the state"
        compare(ref, engine)
        check_invariants(engine)


def snapshot(engine: Engine):
    s = engine.slot
    return (s.current_bid, s.bid_count, s.bidder_count, s.status, s.auction_end, s.outcome,
            {k: (b.amount, b.ceiling, b.seq, b.status, b.final_price) for k, b in engine.bids.items()})


def compare(ref: Reference, engine: Engine) -> None:
    slot = engine.slot
    assert slot.current_bid == ref.current
    assert slot.auction_end == ref.end
    assert (slot.status is SlotStatus.CLOSED) == ref.closed
    if ref.closed:
        assert slot.outcome == ("SOLD" if ref.sold else "UNSOLD")
    assert set(engine.bids) == set(ref.bids)
    # the number shown as bids and bidders: brands whose bid was not cancelled (live, or standing at the close)
    assert slot.bidder_count == sum(1 for b in ref.bids.values() if b.status != "CANCELLED")
    for buyer, mine in engine.bids.items():
        theirs = ref.bids[buyer]
        assert (mine.amount, mine.ceiling, mine.status.value, mine.final_price) == (
            theirs.amount, theirs.ceiling, theirs.status, theirs.final), buyer


def check_invariants(engine: Engine) -> None:
    live = [b for b in engine.bids.values() if b.status in LIVE]
    leaders = [b for b in live if b.status is BidStatus.ACTIVE]
    if engine.slot.status is SlotStatus.ACTIVE and live:
        assert len(leaders) == 1
        leader = leaders[0]
        current = engine.slot.current_bid
        assert current is not None and current <= leader.ceiling
        assert all(b.ceiling <= leader.ceiling for b in live)
        if engine.rules.second_price_increment == 0:
            # the leader's own amount is never below the one price (it may be above it: it is its own)
            assert current <= leader.amount
        # one price: closing now charges exactly the current bid
        slot, bids = copy.deepcopy((engine.slot, live))
        closing = auction.close(slot, bids, now=slot.auction_end, rules=engine.rules)
        assert closing.price == current == slot.current_bid
    for b in engine.bids.values():
        assert b.amount <= b.ceiling
        if b.final_price is not None:
            assert engine.slot.min_bid <= b.final_price <= b.ceiling


@given(current=money, ops=st.lists(st.tuples(st.sampled_from(BUYERS), money, money), max_size=30))
@settings(max_examples=200, deadline=None)
def test_the_current_bid_never_goes_down(current, ops):
    slot = Slot(id=uuid.uuid4(), creator_id=CREATOR, min_bid=current, auction_end=START + timedelta(days=1))
    bids: dict[uuid.UUID, Bid] = {}
    seen = Decimal(0)
    for buyer, amount, extra in ops:
        try:
            placement = auction.place_bid(slot, [b for b in bids.values() if b.status in LIVE], buyer_id=buyer,
                                          amount=amount, ceiling=amount + extra, now=START, rules=Rules(),
                                          new_id=uuid.uuid4())
        except RuleBroken:
            continue
        bids[buyer] = placement.bid
        assert slot.current_bid is not None and slot.current_bid >= seen
        seen = slot.current_bid
