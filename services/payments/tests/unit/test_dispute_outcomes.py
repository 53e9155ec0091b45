"""domain/disputes.py: what each outcome of a dispute would move, from the payment as it stands."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pinbid_payments.domain import disputes, stages
from pinbid_payments.domain.money import split


def standing(price=20_000, *, released=4_500, unpaid=4_500, due=4_500, paid=True, pinned=True, ended_early=False,
             early_refund=0, early_refund_creator=0, buyer_fee=0) -> disputes.Standing:
    return disputes.Standing(money=split(price, buyer_fee_cents=buyer_fee), paid=paid, pinned=pinned,
                             ended_early=ended_early, released=released, unpaid=unpaid, early_refund=early_refund,
                             early_refund_creator=early_refund_creator, due=due)


def test_each_outcome_on_a_running_placement():
    s = standing(due=8_550, released=4_500, unpaid=0, buyer_fee=150)
    assert disputes.moves(s, "CONTINUE") == disputes.Moves("CONTINUE", 0, 0, 0, 4_050)
    assert disputes.moves(s, "REFUND_UNEARNED") == disputes.Moves("REFUND_UNEARNED", 15_000, 13_500, 0, 0)
    # the buyer fee comes back with a full refund; what was released and paid out is owed
    assert disputes.moves(s, "REFUND_ALL") == disputes.Moves("REFUND_ALL", 20_150, 18_000, 4_500, 0)


def test_nothing_moves_on_a_payment_refunded_or_being_refunded():
    s = standing(paid=False)
    assert all(disputes.moves(s, o) == disputes.Moves(o, 0, 0, 0, 0) for o in disputes.OUTCOMES)


def test_after_an_early_end_only_the_rest_can_go_back():
    back = stages.early_end(split(20_000), 4_500)
    s = standing(ended_early=True, early_refund=back.refund_cents, early_refund_creator=back.creator_cents)
    assert disputes.moves(s, "REFUND_UNEARNED").to_brand == 0
    assert disputes.moves(s, "CONTINUE").to_creator == 0
    assert disputes.moves(s, "REFUND_ALL") == disputes.Moves("REFUND_ALL", 5_000, 4_500, 0, 0)


def test_before_the_pin_there_is_nothing_unearned_to_split():
    s = standing(pinned=False, released=0, unpaid=0, due=0)
    assert disputes.moves(s, "REFUND_UNEARNED").to_brand == 0
    assert disputes.moves(s, "REFUND_ALL").to_brand == 20_000


def test_an_unknown_outcome_is_refused():
    with pytest.raises(ValueError):
        disputes.moves(standing(), "KEEP_HALF")


@given(price=st.integers(100, 10_000_000), share=st.floats(0, 1), paid_share=st.floats(0, 1),
       buyer_fee=st.integers(0, 5_000))
def test_refunds_never_give_back_more_than_was_paid_nor_take_more_than_the_creator_had(price, share, paid_share,
                                                                                        buyer_fee):
    money = split(price, buyer_fee_cents=buyer_fee)
    released = int(money.creator_cents * share)
    paid_out = int(released * paid_share)
    s = standing(price, released=released, unpaid=released - paid_out, due=released, buyer_fee=buyer_fee)
    for outcome in ("REFUND_UNEARNED", "REFUND_ALL"):
        m = disputes.moves(s, outcome)
        assert 0 <= m.from_creator <= m.to_brand <= money.total_cents
        assert 0 <= m.paid_out <= min(m.from_creator, released)
    unearned, everything = disputes.moves(s, "REFUND_UNEARNED"), disputes.moves(s, "REFUND_ALL")
    assert unearned.to_brand <= everything.to_brand and unearned.from_creator + released == money.creator_cents
