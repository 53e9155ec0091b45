"""The second-chance offer's rules: who the slot goes to, when it can be offered, answered, and taken by a campaign."""

import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from pinbid_marketplace.domain import second_chance as sc
from pinbid_marketplace.domain.errors import StateConflict
from pinbid_marketplace.domain.states import BidStatus as S
from pinbid_marketplace.domain.states import can_move

NOW = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)


def standing(ceiling: str, seq: int, status: S = S.EXPIRED, **facts) -> sc.Standing:
    return sc.Standing(id=uuid.uuid4(), buyer_id=uuid.uuid4(), status=status, ceiling=Decimal(ceiling), seq=seq,
                       **facts)


def fallen_winner(**facts) -> sc.Standing:
    return standing("300", 9, **{"status": S.REJECTED, "final_price": Decimal("200"), **facts})


def test_the_runner_up_is_the_best_ceiling_then_the_earliest():
    winner = fallen_winner()
    early, late, low = standing("200", 2), standing("200", 5), standing("150", 1)
    assert sc.runner_up(winner, [winner, late, low, early]) == early
    assert sc.offer_price(early) == Decimal("200")  # its own last amount: its maximum


@pytest.mark.parametrize("facts", [{"suspended": True}, {"tied": True}, {"offered_before": True},
                                   {"status": S.CANCELLED}, {"status": S.OFFERED},
                                   {"final_price": Decimal("100")}, {"payment_status": "EXPIRED"}])
def test_a_bid_that_did_not_stand_or_cannot_take_it_is_passed_over(facts):
    winner = fallen_winner()
    barred, next_one = standing("250", 1, **facts), standing("100", 2)
    assert sc.runner_up(winner, [winner, barred, next_one]) == next_one


def test_a_campaigns_bid_its_campaign_released_when_outbid_stands_and_ranks_by_its_ceiling():
    winner = fallen_winner()
    released = standing("250", 3, status=S.CANCELLED, released=True)
    lost = standing("200", 1)
    assert sc.stood(released) and sc.runner_up(winner, [winner, lost, released]) == released
    assert sc.check_can_offer(winner, winner.id, [winner, lost, released]) == released
    assert can_move(S.CANCELLED, S.OFFERED)  # the offer's step from a released bid
    higher = standing("260", 5)
    assert sc.runner_up(winner, [winner, released, higher]) == higher  # no precedence over a better bid


@pytest.mark.parametrize("facts", [{"released": False}, {"offered_before": True}, {"suspended": True},
                                   {"tied": True}])
def test_a_bid_cancelled_by_its_brand_or_a_released_one_that_cannot_take_it_is_passed_over(facts):
    winner = fallen_winner()
    barred = standing("250", 1, **{"status": S.CANCELLED, "released": True, **facts})
    next_one = standing("100", 2)
    assert sc.runner_up(winner, [winner, barred, next_one]) == next_one


def test_only_a_lost_or_released_bid_stood_at_the_close():
    assert sc.stood(standing("1", 1)) and sc.stood(standing("1", 1, status=S.CANCELLED, released=True))
    for status in set(S) - {S.EXPIRED}:
        assert not sc.stood(standing("1", 1, status=status))  # not released: a brand's cancel among them
    assert not sc.stood(standing("1", 1, final_price=Decimal(1)))
    assert not sc.stood(standing("1", 1, status=S.CANCELLED, released=True, payment_status="EXPIRED"))


def test_the_fallen_winners_own_brand_is_never_its_runner_up():
    winner = fallen_winner()
    same_brand = sc.Standing(id=uuid.uuid4(), buyer_id=winner.buyer_id, status=S.EXPIRED, ceiling=Decimal("250"),
                             seq=1)
    assert sc.runner_up(winner, [winner, same_brand]) is None


def test_a_rejected_winner_or_one_left_unpaid_falls_through_and_nothing_else():
    assert sc.fell_through(fallen_winner())
    assert sc.fell_through(fallen_winner(status=S.EXPIRED, payment_status="EXPIRED"))
    for status in (S.PENDING_INFLUENCER_APPROVAL, S.APPROVED, S.AWAITING_PAYMENT, S.WON, S.PINNED):
        assert not sc.fell_through(fallen_winner(status=status))
    assert not sc.fell_through(fallen_winner(status=S.EXPIRED))  # expired at the close: a loser, not a winner


@pytest.mark.parametrize(("winner", "winning_id", "others", "code"), [
    (fallen_winner(), None, [standing("100", 1)], "not_the_winner"),
    (fallen_winner(status=S.AWAITING_PAYMENT), "self", [standing("100", 1)], "winner_not_fallen"),
    (fallen_winner(), "self", [standing("100", 1, status=S.OFFERED), standing("90", 2)], "offer_open"),
    (fallen_winner(), "self", [standing("100", 1, offered_before=True)], "no_runner_up"),
])
def test_an_offer_is_refused_with_the_reason(winner, winning_id, others, code):
    with pytest.raises(StateConflict) as refused:
        sc.check_can_offer(winner, winner.id if winning_id == "self" else winning_id, [winner, *others])
    assert refused.value.code == code


def test_an_offer_is_answered_only_while_open_and_by_a_brand_that_may_take_it():
    until = sc.offer_deadline(NOW, timedelta(hours=48))
    sc.check_can_answer(S.OFFERED, until, NOW)
    cases = [((S.EXPIRED, until, NOW), {}, "no_offer"), ((S.OFFERED, until, until), {}, "offer_lapsed"),
             ((S.OFFERED, None, NOW), {}, "offer_lapsed"), ((S.OFFERED, until, NOW), {"suspended": True},
                                                            "account_suspended"),
             ((S.OFFERED, until, NOW), {"tied": True}, "associated_account")]
    for args, facts, code in cases:
        with pytest.raises(StateConflict) as refused:
            sc.check_can_answer(*args, **facts)
        assert refused.value.code == code


@pytest.mark.parametrize(("committed", "price", "budget", "funded", "status", "takes"), [
    ("300", "200", "500", "500", "ACTIVE", True),  # exactly the budget
    ("300", "200.01", "500", "500", "ACTIVE", False),
    ("0", "200", "500", "150", "ACTIVE", False),  # within the budget, beyond what was funded
    ("0", "200", "500", "500", "PAUSED", False),
    ("0", "200", "500", "500", "ENDED", False),
    ("0", "200", "500", "500", "DRAFT", False),
    ("250", "200", "500", "500", "OUT_OF_BUDGET", True),  # too little left for a new bid, enough for this price
])
def test_a_campaign_takes_an_offer_only_within_its_budget_and_while_it_bids(committed, price, budget, funded,
                                                                           status, takes):
    assert sc.campaign_can_take(Decimal(price), committed=Decimal(committed), budget=Decimal(budget),
                                funded=Decimal(funded), status=status, ends_at=NOW + timedelta(days=1),
                                now=NOW) is takes


def test_a_campaign_past_its_end_takes_nothing():
    assert not sc.campaign_can_take(Decimal(1), committed=Decimal(0), budget=Decimal(500), funded=Decimal(500),
                                    status="ACTIVE", ends_at=NOW, now=NOW)
