"""The life of a bid as a state machine: which moves are allowed, and what a refused one says."""

import pytest
from pinbid_marketplace.domain.errors import StateConflict
from pinbid_marketplace.domain.states import LIVE, TRANSITIONS, BidStatus, can_move, check_move

S = BidStatus
ENDS = {S.REJECTED, S.PINNED}


def test_every_status_has_its_moves():
    assert set(TRANSITIONS) == set(BidStatus)
    assert all(targets <= set(BidStatus) for targets in TRANSITIONS.values())


def test_rejected_and_pinned_are_ends():
    assert {status for status, targets in TRANSITIONS.items() if not targets} == ENDS


def test_a_cancelled_bid_only_comes_back_as_a_second_chance_offer():
    # only a campaign's bid its campaign released when outbid is ever offered (domain/second_chance.stood)
    assert TRANSITIONS[S.CANCELLED] == {S.OFFERED}


def test_an_expired_bid_only_comes_back_as_a_second_chance_offer():
    assert TRANSITIONS[S.EXPIRED] == {S.OFFERED}
    assert TRANSITIONS[S.OFFERED] == {S.APPROVED, S.EXPIRED}  # accepted, or declined, lapsed or withdrawn
    assert not can_move(S.OFFERED, S.PENDING_INFLUENCER_APPROVAL)  # the creator offered it: no second decision


def test_a_live_bid_changes_lead_is_cancelled_expires_or_wins():
    for live in LIVE:
        assert TRANSITIONS[live] == {S.ACTIVE, S.OUTBID, S.CANCELLED, S.EXPIRED, S.PENDING_INFLUENCER_APPROVAL}


def test_a_won_bid_goes_through_the_creators_decision_then_payment_then_the_pin():
    path = [S.ACTIVE, S.PENDING_INFLUENCER_APPROVAL, S.APPROVED, S.AWAITING_PAYMENT, S.WON, S.PINNED]
    assert all(can_move(a, b) for a, b in zip(path, path[1:], strict=False))
    assert can_move(S.APPROVED, S.WON)  # payments' completion may overtake its own request on the bus
    assert can_move(S.PENDING_INFLUENCER_APPROVAL, S.REJECTED)


def test_nothing_goes_back_to_live_once_the_auction_decided_it():
    decided = set(BidStatus) - LIVE
    assert not [(a, b) for a in decided for b in LIVE if can_move(a, b)]


def test_a_bid_cannot_skip_the_creator_or_the_payment():
    assert not can_move(S.ACTIVE, S.APPROVED)
    assert not can_move(S.PENDING_INFLUENCER_APPROVAL, S.WON)
    assert not can_move(S.AWAITING_PAYMENT, S.PINNED)
    assert not can_move(S.REJECTED, S.APPROVED)


@pytest.mark.parametrize(("current", "target", "message"), [
    (S.CANCELLED, S.ACTIVE, "This bid is cancelled, so it cannot be active now."),
    (S.PENDING_INFLUENCER_APPROVAL, S.PINNED,
     "This bid is waiting for the creator's approval, so it cannot be pinned now."),
    (S.WON, S.EXPIRED, "This bid is won and paid, so it cannot be expired now."),
])
def test_a_refused_move_is_a_conflict_that_says_where_the_bid_is(current, target, message):
    with pytest.raises(StateConflict) as refused:
        check_move(current, target)
    assert (refused.value.code, refused.value.message) == ("bid_state", message)


def test_an_allowed_move_passes():
    check_move(S.AWAITING_PAYMENT, S.WON)
