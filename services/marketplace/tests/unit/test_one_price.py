"""One price for everyone (ARCHITECTURE.md section 5): the current bid is what the leader would pay if the auction
closed now, and the close charges exactly that; a bid's own amount and maximum stay its own."""

import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal as D

import pytest
from pinbid_marketplace.domain import auction
from pinbid_marketplace.domain.auction import Bid, Rules, Slot
from pinbid_marketplace.domain.errors import AmountTooLow
from pinbid_marketplace.domain.states import LIVE, BidStatus

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
A, B, C = (uuid.UUID(int=i) for i in (1, 2, 3))


class Auction:
    def __init__(self, min_bid: str, rules: Rules = Rules()):
        self.slot = Slot(id=uuid.uuid4(), creator_id=uuid.UUID(int=99), min_bid=D(min_bid),
                         auction_end=NOW + timedelta(days=1))
        self.rules = rules
        self.bids: dict[uuid.UUID, Bid] = {}

    def live(self) -> list[Bid]:
        return [b for b in self.bids.values() if b.status in LIVE]

    def bid(self, buyer: uuid.UUID, amount: str, maximum: str | None = None) -> auction.Placement:
        placement = auction.place_bid(self.slot, self.live(), buyer_id=buyer, amount=D(amount),
                                      ceiling=D(maximum or amount), now=NOW, rules=self.rules, new_id=uuid.uuid4())
        self.bids[buyer] = placement.bid
        return placement

    def cancel(self, buyer: uuid.UUID) -> None:
        auction.cancel(self.slot, self.live(), self.bids[buyer], now=NOW, rules=self.rules)

    def close(self) -> auction.Closing:
        return auction.close(self.slot, self.live(), now=self.slot.auction_end, rules=self.rules)


def test_a_single_bid_shows_the_minimum_and_sells_at_the_minimum():
    auction_ = Auction("20.00")
    auction_.bid(A, "25.00")
    assert auction_.slot.current_bid == D("20.00")
    assert (auction_.bids[A].amount, auction_.bids[A].ceiling) == (D("25.00"), D("25.00"))  # its own, unchanged
    closing = auction_.close()
    assert (closing.price, closing.winner.final_price, auction_.slot.current_bid) == (D("20.00"),) * 3


def test_the_runner_ups_maximum_is_the_price_shown_and_charged():
    auction_ = Auction("10.00")
    auction_.bid(A, "12.50")
    assert auction_.slot.current_bid == D("10.00")
    auction_.bid(B, "14.00", maximum="25.00")
    # B leads; its visible amount is its own 14.00 (one step over A's 12.50 is 13.50), the price is A's maximum
    assert (auction_.bids[B].status, auction_.bids[B].amount, auction_.bids[B].ceiling) == (
        BidStatus.ACTIVE, D("14.00"), D("25.00"))
    assert (auction_.bids[A].status, auction_.bids[A].amount) == (BidStatus.OUTBID, D("12.50"))
    assert auction_.slot.current_bid == D("12.50")
    closing = auction_.close()
    assert closing.winner is auction_.bids[B] and closing.price == D("12.50") == auction_.slot.current_bid


def test_an_automatic_leader_answers_a_higher_bid_and_the_price_is_the_losers_maximum():
    auction_ = Auction("10.00")
    auction_.bid(A, "12.00", maximum="40.00")
    auction_.bid(B, "30.00")
    # A's visible amount rises one step over B; the price is B's 30.00, what A would pay
    assert (auction_.bids[A].amount, auction_.slot.current_bid) == (D("31.00"), D("30.00"))
    assert auction_.close().price == D("30.00")


def test_the_next_bid_must_beat_the_price_not_the_leaders_amount():
    auction_ = Auction("20.00")
    auction_.bid(A, "25.00")
    with pytest.raises(AmountTooLow) as refused:
        auction_.bid(B, "20.00")
    assert refused.value.current_bid == D("20.00")
    assert "higher than the current bid ($20.00)" in refused.value.message
    placement = auction_.bid(B, "20.01")  # accepted, and outbid at once by A's 25.00
    assert placement.bid.status is BidStatus.OUTBID and auction_.slot.current_bid == D("20.01")


def test_the_price_never_goes_above_the_leaders_maximum_with_an_increment():
    auction_ = Auction("10.00", Rules(second_price_increment=D("0.50")))
    auction_.bid(A, "20.00")
    assert auction_.slot.current_bid == D("10.50")
    auction_.bid(B, "19.80")
    assert auction_.slot.current_bid == D("20.00")  # 19.80 + 0.50 held down by A's own 20.00
    auction_.bid(A, "30.00")  # the leader raises its maximum: the close would now charge 20.30, so it shows
    assert auction_.slot.current_bid == D("20.30") == auction_.close().price


def test_a_raise_of_the_leader_leaves_the_price():
    auction_ = Auction("10.00")
    auction_.bid(A, "15.00")
    auction_.bid(B, "12.00")
    assert auction_.slot.current_bid == D("12.00")
    placement = auction_.bid(A, "50.00")
    assert placement.raised_only and auction_.slot.current_bid == D("12.00")
    assert (auction_.bids[A].amount, auction_.bids[A].ceiling) == (D("15.00"), D("50.00"))


def test_cancelling_the_runner_up_lowers_the_price_to_the_next_maximum():
    auction_ = Auction("10.00")
    auction_.bid(A, "11.00", maximum="60.00")
    auction_.bid(B, "20.00")
    auction_.bid(C, "40.00")
    assert auction_.slot.current_bid == D("40.00")
    auction_.cancel(C)
    assert auction_.slot.current_bid == D("20.00")
    auction_.cancel(B)
    assert auction_.slot.current_bid == D("10.00")  # the leader alone pays the minimum
    assert auction_.bids[A].amount == D("41.00")  # its own amount stays where the bidding took it
    assert auction_.close().price == D("10.00")


def test_cancelling_a_bid_below_the_runner_up_leaves_the_price():
    auction_ = Auction("10.00")
    auction_.bid(A, "11.00", maximum="60.00")
    auction_.bid(B, "20.00")
    auction_.bid(C, "40.00")
    auction_.cancel(B)
    assert auction_.slot.current_bid == D("40.00")
