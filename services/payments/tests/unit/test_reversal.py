"""The full refund's reversal and a debt's recovery, computed before anything is written (domain/reversal.py)."""

import uuid
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st
from pinbid_payments.domain import ledger, reversal
from pinbid_payments.domain.money import split

PAYMENT, BUYER, CREATOR = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()


def moved(*transactions: ledger.Transaction | None) -> dict[str, int]:
    """What the transactions move, by account (balanced transactions only: Transaction refuses the others)."""
    total: Counter = Counter()
    for tx in transactions:
        for posting in tx.postings if tx else ():
            total[posting.account] += posting.amount_cents
    return {account: cents for account, cents in total.items() if cents}


def test_a_refund_after_payout_owes_the_paid_share_and_recovers_it_from_the_oldest_release_first():
    money = split(40_000)  # the creator's share 36,000, the fee 4,000
    done = reversal.reversal(PAYMENT, BUYER, CREATOR, money, already_refunded=0, net_cents=36_000,
                             released_cents=9_000, creator_refunded_cents=0, unpaid_cents=0, owed_before=500,
                             recoverable=[4_000, 9_000, 2_000])
    assert (done.to_buyer, done.taken_back, done.owed, done.owed_after) == (40_000, 9_000, 9_000, 9_500)
    assert done.recovery is not None and done.recovery.parts == [4_000, 5_500, 0]
    assert moved(done.refunded) == {ledger.buyer_charges(BUYER): -40_000, ledger.platform_fees(PAYMENT): 4_000,
                                    ledger.creator_pending(CREATOR): 27_000, ledger.creator_owed(CREATOR): 9_000}
    assert moved(done.recovery.transaction) == {ledger.creator_available(CREATOR): 9_500,
                                                ledger.creator_owed(CREATOR): -9_500}


def test_a_refund_before_payout_owes_nothing_and_recovers_nothing():
    done = reversal.reversal(PAYMENT, BUYER, CREATOR, split(20_000), already_refunded=0, net_cents=18_000,
                             released_cents=4_500, creator_refunded_cents=0, unpaid_cents=4_500, owed_before=0,
                             recoverable=[1_000])
    assert (done.owed, done.recovery) == (0, None)
    assert moved(done.refunded)[ledger.creator_available(CREATOR)] == 4_500


def test_after_an_early_end_gave_everything_back_nothing_is_left_to_post():
    money = split(20_000)
    done = reversal.reversal(PAYMENT, BUYER, CREATOR, money, already_refunded=20_000, net_cents=18_000,
                             released_cents=0, creator_refunded_cents=18_000, unpaid_cents=0, owed_before=0,
                             recoverable=[])
    assert (done.to_buyer, done.refunded, done.recovery) == (0, None, None)


def test_a_debt_with_nothing_available_records_it_and_takes_nothing():
    done = reversal.reversal(PAYMENT, BUYER, CREATOR, split(40_000), already_refunded=0, net_cents=36_000,
                             released_cents=9_000, creator_refunded_cents=0, unpaid_cents=0, owed_before=0,
                             recoverable=[])
    assert done.recovery is not None and (done.recovery.cents, done.recovery.transaction) == (0, None)


@given(st.lists(st.integers(min_value=1, max_value=10**6), max_size=8), st.integers(min_value=-10, max_value=10**7))
def test_recovery_takes_at_most_the_debt_and_at_most_each_release_oldest_first(available, owed):
    parts = reversal.recovered_parts(available, owed)
    assert len(parts) == len(available)
    assert all(0 <= part <= cents for part, cents in zip(parts, available, strict=True))
    assert sum(parts) == min(sum(available), max(owed, 0))
    # a later release gives only once every earlier one gave all it had
    for i, part in enumerate(parts):
        if part > 0:
            assert parts[:i] == available[:i]
