"""Money: Decimal with two places inside, integer cents in events, dollars in messages."""

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st
from pinbid_marketplace.domain.money import MAX_AMOUNT, dollars, from_cents, to_cents


def test_cents_round_half_up():
    assert [to_cents(Decimal(a)) for a in ("10", "10.005", "10.004", "0.015", "52.50")] == [1000, 1001, 1000, 2, 5250]


def test_from_cents_has_two_places():
    assert str(from_cents(5250)) == "52.50" and str(from_cents(0)) == "0.00"


@given(st.integers(min_value=0, max_value=to_cents(MAX_AMOUNT)))
def test_cents_go_there_and_back(cents):
    assert to_cents(from_cents(cents)) == cents


def test_dollars_read_with_thousands_and_two_places():
    assert dollars(Decimal("1234.5")) == "$1,234.50"
    assert dollars(Decimal("10")) == "$10.00"
