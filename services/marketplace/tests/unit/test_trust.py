"""The associated-account rules: which shared signal refuses a bid, and how soft signals and bid patterns score."""

import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from pinbid_kit.events.trust import HARD_SIGNALS, SAME_ROLE_SIGNALS, SOFT_SIGNALS
from pinbid_marketplace.domain import auction
from pinbid_marketplace.domain.states import BidStatus
from pinbid_marketplace.domain.trust import (
    FLAG_AT,
    HELD,
    SOFT_REASONS,
    SOFT_WEIGHTS,
    BidderFigures,
    assess,
    refusal,
    tied_bidders,
)

D = Decimal


def test_only_a_hard_signal_refuses_and_the_message_says_which():
    assert refusal("INSTAGRAM_ACCOUNT") == ("This account is tied to the creator of this slot (same Instagram "
                                            "account), so it cannot bid on their slots.")
    assert "same email address" in refusal("EMAIL")
    # held in one role only (a creator's payout account, a brand's card): they cannot tie a brand to a creator
    assert refusal("PAYOUT_ACCOUNT") is None and refusal("CARD") is None
    assert refusal("DEVICE") is None and refusal("ADDRESS") is None and refusal("NAME") is None
    assert refusal(None) is None


def test_every_kind_is_hard_soft_or_of_one_role_and_each_has_its_words():
    assert set(HELD) == HARD_SIGNALS and set(SOFT_WEIGHTS) == set(SOFT_REASONS) == SOFT_SIGNALS
    assert not (HARD_SIGNALS & SOFT_SIGNALS) and not (SAME_ROLE_SIGNALS & (HARD_SIGNALS | SOFT_SIGNALS))


def test_a_shared_name_alone_does_not_flag_but_with_an_address_it_does():
    assert not assess(BidderFigures(shared_soft=frozenset({"NAME"}))).flagged
    both = assess(BidderFigures(shared_soft=frozenset({"NAME", "ADDRESS"})))
    assert both.flagged and both.score == 40 and "cardholder or bank account holder" in both.reasons[1]


def test_a_tie_withdraws_the_other_holders_bids_on_the_holders_slots_and_the_holder_on_theirs():
    creator, brand, bystander, second_brand = (uuid.uuid4() for _ in range(4))
    # the creator is seen holding the value the two brands hold: both brands go from the creator's slots
    assert tied_bidders(creator, creator, [brand, second_brand]) == {brand, second_brand}
    # the brand is seen holding the creator's value: the brand goes from the creator's slots
    assert tied_bidders(creator, brand, [creator]) == {brand}
    # a creator not among the holders keeps every bidder
    assert tied_bidders(bystander, brand, [creator]) == frozenset()
    # the holder itself is never its own associate
    assert tied_bidders(creator, creator, [creator]) == frozenset()


def test_nothing_found_scores_nothing():
    found = assess(BidderFigures(slots_bid=10, slots_bid_on_creator=2, raises_on_creator=1))
    assert (found.score, found.reasons, found.flagged) == (0, (), False)


def test_the_issues_shill_probing_for_the_maximum_is_flagged_by_its_bids_alone():
    shill = BidderFigures(slots_bid=1, slots_bid_on_creator=1, raises_on_creator=3, raises_on_slot=3,
                          lost_ceiling=D("395"), winner_ceiling=D("400"))
    found = assess(shill)
    assert found.flagged and found.score == 50
    assert found.reasons[-1] == "stopped at 395, just under the winner's maximum of 400"


def test_an_address_alone_is_below_the_flag_and_a_device_alone_reaches_it():
    assert assess(BidderFigures(shared_soft=frozenset({"ADDRESS"}))).score == 20 < FLAG_AT
    assert assess(BidderFigures(shared_soft=frozenset({"DEVICE"}))).flagged
    both = assess(BidderFigures(shared_soft=frozenset({"DEVICE", "ADDRESS", "CARD"})))
    assert both.score == 60 and len(both.reasons) == 2  # a hard kind is not scored here: it refuses instead


def test_mostly_one_creator_needs_three_auctions_and_four_in_five():
    assert assess(BidderFigures(slots_bid=5, slots_bid_on_creator=4)).score == 20
    assert assess(BidderFigures(slots_bid=5, slots_bid_on_creator=3)).score == 0
    assert assess(BidderFigures(slots_bid=2, slots_bid_on_creator=2)).score == 0


def test_raising_without_ever_winning_counts_only_without_a_win():
    assert assess(BidderFigures(raises_on_creator=3)).score == 20
    assert assess(BidderFigures(raises_on_creator=9, wins_on_creator=1)).score == 0


def test_just_under_means_within_two_percent_below_after_raising():
    def gap(lost, raises=1):
        return assess(BidderFigures(lost_ceiling=D(lost), winner_ceiling=D("400"), raises_on_slot=raises)).score
    assert gap("392") == 30 and gap("391.99") == 0 and gap("400") == 30  # a tie lost on time
    assert gap("395", raises=0) == 0  # one honest maximum is no probe
    assert assess(BidderFigures(lost_ceiling=D("395"), winner_ceiling=None, raises_on_slot=2)).score == 0


def test_the_score_stops_at_100():
    every = BidderFigures(shared_soft=frozenset({"DEVICE", "ADDRESS"}), slots_bid=4, slots_bid_on_creator=4,
                          raises_on_creator=5, raises_on_slot=2, lost_ceiling=D("399"), winner_ceiling=D("400"))
    assert assess(every).score == 100 and len(assess(every).reasons) == 5


def _bid(ceiling, seq, status=BidStatus.OUTBID):
    return auction.Bid(id=uuid.uuid4(), buyer_id=uuid.uuid4(), amount=D(ceiling), ceiling=D(ceiling), seq=seq,
                       status=status)


def _slot():
    return auction.Slot(id=uuid.uuid4(), creator_id=uuid.uuid4(), min_bid=D("10"),
                        auction_end=datetime.now(UTC) + timedelta(days=1), current_bid=D("201"))


def test_withdrawing_the_leader_gives_the_lead_to_the_runner_up_at_one_step_over_the_next():
    leader, runner, third = _bid("300", 3, BidStatus.ACTIVE), _bid("200", 2), _bid("80", 1)
    slot = _slot()
    after = auction.withdraw(slot, [leader, runner, third], leader, rules=auction.Rules())
    assert after is runner and (runner.status, runner.amount) == (BidStatus.ACTIVE, D("81"))
    assert leader.status is BidStatus.CANCELLED and third.status is BidStatus.OUTBID
    assert slot.current_bid == D("80")  # one price: what the new leader would pay, the next maximum


def test_withdrawing_the_last_bid_leaves_no_price_and_a_lone_leader_pays_the_minimum():
    alone = _bid("30", 1, BidStatus.ACTIVE)
    slot = _slot()
    assert auction.withdraw(slot, [alone], alone, rules=auction.Rules()) is None and slot.current_bid is None
    leader, runner = _bid("300", 2, BidStatus.ACTIVE), _bid("200", 1)
    slot = _slot()
    assert auction.withdraw(slot, [leader, runner], runner, rules=auction.Rules()) is leader
    assert leader.amount == D("10") and slot.current_bid == D("10")


def test_closing_without_sale_expires_every_live_bid():
    slot, bids = _slot(), [_bid("300", 2, BidStatus.ACTIVE), _bid("200", 1)]
    auction.close_without_sale(slot, bids)
    assert (slot.outcome, slot.winning_bid_id) == ("UNSOLD", None)
    assert {b.status for b in bids} == {BidStatus.EXPIRED}


def test_a_withdrawn_bid_leaves_the_bidder_count_and_a_second_withdrawal_changes_nothing():
    """Issue 31: "3 bids", "2 bidders" were still shown after a suspension withdrew bids."""
    leader, runner, third = _bid("300", 3, BidStatus.ACTIVE), _bid("200", 2), _bid("80", 1)
    slot = _slot()
    slot.bid_count, slot.bidder_count = 5, 3  # five bid actions (raises among them) by three brands
    auction.withdraw(slot, [leader, runner, third], leader, rules=auction.Rules())
    assert (slot.bid_count, slot.bidder_count) == (5, 2)  # the order stays; the number shown drops
    auction.withdraw(slot, [leader, runner, third], leader, rules=auction.Rules())  # already withdrawn
    assert slot.bidder_count == 2
    auction.close_without_sale(slot, [runner, third])  # the bids that stood at the close stay counted
    assert slot.bidder_count == 2
