"""Pure rules: the split, the ledger's transactions, schedules, webhook reading."""

import uuid
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pinbid_payments.domain import ledger
from pinbid_payments.domain.money import split, to_cents, to_money
from pinbid_payments.domain.payout_settings import DEFAULTS, PayoutSettings, normalized, problems
from pinbid_payments.domain.schedule import Schedule, due_period
from pinbid_payments.domain.webhooks import (
    ChargeRefunded,
    CheckoutPaid,
    Ignored,
    Malformed,
    interpret,
)

prices = st.integers(min_value=1, max_value=10**10)


@given(prices, st.integers(min_value=0, max_value=10_000))
def test_the_split_adds_up_and_the_creator_gets_90_percent(price, buyer_fee):
    money = split(price, buyer_fee_cents=buyer_fee)
    assert money.fee_cents + money.creator_cents == price
    assert money.total_cents == price + buyer_fee
    assert abs(money.fee_cents * 10 - price) <= 5  # 10%, to the nearest cent


def test_split_examples():
    assert split(10_000).fee_cents == 1_000
    assert split(5_555).fee_cents == 556  # half a cent goes to the platform
    with pytest.raises(ValueError):
        split(0)


@given(prices, st.integers(min_value=0, max_value=1000), st.data())
def test_every_ledger_transaction_balances(price, buyer_fee, data):
    buyer, creator = uuid.uuid4(), uuid.uuid4()
    money = split(price, buyer_fee_cents=buyer_fee)
    from_pending = data.draw(st.integers(min_value=0, max_value=money.creator_cents))
    from_available = data.draw(st.integers(min_value=0, max_value=money.creator_cents - from_pending))
    for tx in (ledger.payment_received(uuid.uuid4(), buyer, creator, money),
               ledger.earnings_released(creator, money.creator_cents),
               ledger.payment_refunded(uuid.uuid4(), buyer, creator, to_buyer=money.total_cents,
                                       from_fees=money.platform_cents, from_pending=from_pending,
                                       from_available=from_available),
               ledger.placement_ended_early(uuid.uuid4(), buyer, creator, creator_cents=max(from_pending, 1),
                                            fee_cents=money.fee_cents),
               ledger.payout_sent(creator, money.creator_cents)):
        assert sum(p.amount_cents for p in tx.postings) == 0


def test_an_unbalanced_transaction_cannot_be_made():
    with pytest.raises(ledger.Unbalanced):
        ledger.Transaction("x", (ledger.Posting(ledger.PLATFORM_FEES, 5), ledger.Posting(ledger.REFUND_LOSSES, 4)))
    with pytest.raises(ledger.Unbalanced):
        ledger.payment_refunded(uuid.uuid4(), uuid.uuid4(), uuid.uuid4(), to_buyer=100, from_fees=10,
                                from_pending=90, from_available=90)


def test_normal_sides():
    creator = uuid.uuid4()
    assert ledger.balance_change(ledger.buyer_charges(creator), 100) == 100
    assert ledger.balance_change(ledger.creator_pending(creator), -100) == 100
    with pytest.raises(ValueError):
        ledger.normal_side("bank:elsewhere")


@pytest.mark.parametrize(("schedule", "when", "period"), [
    (Schedule.WEEKLY, datetime(2026, 11, 23, 0, 0, tzinfo=UTC), "2026-W47"),
    (Schedule.WEEKLY, datetime(2026, 11, 24, tzinfo=UTC), None),
    (Schedule.WEEKLY, datetime(2027, 1, 4, tzinfo=UTC), "2026-W53"),
    (Schedule.MONTHLY, datetime(2026, 12, 1, 23, 59, tzinfo=UTC), "2026-11"),
    (Schedule.MONTHLY, datetime(2027, 1, 1, tzinfo=UTC), "2026-12"),
    (Schedule.MONTHLY, datetime(2026, 12, 2, tzinfo=UTC), None),
    (Schedule.QUARTERLY, datetime(2027, 1, 1, tzinfo=UTC), "2026-Q4"),
    (Schedule.QUARTERLY, datetime(2026, 7, 1, tzinfo=UTC), "2026-Q2"),
    (Schedule.QUARTERLY, datetime(2026, 12, 1, tzinfo=UTC), None),
])
def test_schedules_in_utc(schedule, when, period):
    assert due_period(schedule, when) == period


def test_schedule_days_are_utc_days():
    from datetime import timedelta, timezone

    sunday_evening_in_new_york = datetime(2026, 11, 22, 20, 0, tzinfo=timezone(timedelta(hours=-5)))
    assert due_period(Schedule.WEEKLY, sunday_evening_in_new_york) == "2026-W47"  # already Monday in UTC


def test_default_settings_are_the_specs_and_need_bank_details():
    assert (DEFAULTS.payout_method, DEFAULTS.minimum_payout, DEFAULTS.schedule, DEFAULTS.currency) == (
        "BANK_TRANSFER", Decimal(50), "MONTHLY", "USD")
    assert {field for field, _ in problems(DEFAULTS)} == {"accountName", "bankAccount", "routingNumber"}


def test_normalized_bank_numbers():
    s = PayoutSettings(payout_method="BANK_TRANSFER", minimum_payout=Decimal(50), schedule="WEEKLY",
                       bank_account="1234 5678 90", currency="GBP", sort_code="12-34-56", account_name="Sam",
                       paypal_email="left@over.test")
    assert problems(s) == []
    clean = normalized(s)
    assert (clean.bank_account, clean.sort_code, clean.paypal_email) == ("1234567890", "123456", None)


def test_money_conversions():
    assert to_money(12_345) == Decimal("123.45") and to_cents(Decimal("0.105")) == 11


def _event(kind, obj):
    return {"id": "evt_1", "type": kind, "data": {"object": obj}}


def test_reading_webhooks():
    pid = uuid.uuid4()
    paid = interpret(_event("checkout.session.completed", {
        "id": "cs_1", "payment_status": "paid", "amount_total": 500, "currency": "usd", "payment_intent": "pi_1",
        "metadata": {"payment_id": str(pid)}}))
    assert paid == CheckoutPaid(pid, "cs_1", "pi_1", 500, "USD")
    assert isinstance(interpret(_event("checkout.session.completed", {"payment_status": "unpaid"})), Ignored)
    partial = interpret(_event("charge.refunded", {"amount": 500, "amount_refunded": 100, "payment_intent": "pi"}))
    assert isinstance(partial, ChargeRefunded) and not partial.full
    with pytest.raises(Malformed):
        interpret(_event("checkout.session.completed", {"payment_status": "paid", "metadata": {"payment_id": "x"}}))
    with pytest.raises(Malformed):
        interpret({"type": "charge.refunded"})


def test_a_payments_fee_goes_to_one_of_16_accounts_and_its_refund_takes_it_back_from_that_one():
    used = set()
    for _ in range(300):
        payment, buyer, creator = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
        received = ledger.payment_received(payment, buyer, creator, split(10_000))
        refunded = ledger.payment_refunded(payment, buyer, creator, to_buyer=10_000, from_fees=1_000,
                                           from_pending=9_000, from_available=0)
        fee_in = [p.account for p in received.postings if ledger.is_platform_fees(p.account)]
        fee_out = [p.account for p in refunded.postings if ledger.is_platform_fees(p.account)]
        assert fee_in == fee_out == [ledger.platform_fees(payment)]
        assert ledger.normal_side(fee_in[0]) is ledger.Side.CREDIT
        used.update(fee_in)
    assert len(used) == 16


def test_owed_money_is_a_debit_receivable_and_every_recovery_step_balances():
    creator, buyer, payment = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    owed = ledger.creator_owed(creator)
    assert ledger.normal_side(owed) is ledger.Side.DEBIT
    assert ledger.normal_side(ledger.creator_available(creator)) is ledger.Side.CREDIT
    # 10,000 paid; 2,250 released, of which 2,000 already paid out: 250 from available, 2,000 owed
    refunded = ledger.payment_refunded(payment, buyer, creator, to_buyer=10_000, from_fees=1_000,
                                       from_pending=6_750, from_available=250)
    assert dict((p.account, p.amount_cents) for p in refunded.postings)[owed] == 2_000
    recovered = ledger.owed_recovered(creator, 700)
    assert sum(p.amount_cents for p in recovered.postings) == 0
    assert ledger.balance_change(owed, dict((p.account, p.amount_cents) for p in recovered.postings)[owed]) == -700
    with pytest.raises(ledger.Unbalanced):
        ledger.payment_refunded(payment, buyer, creator, to_buyer=1_000, from_fees=1_000, from_pending=500,
                                from_available=0)
