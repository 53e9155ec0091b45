"""The staged release and the early end's refund: properties over every price, duration and day."""

from hypothesis import given
from hypothesis import strategies as st
from pinbid_payments.domain.money import split
from pinbid_payments.domain.stages import early_end, released_by

prices = st.integers(min_value=1, max_value=10_000_000)
durations = st.integers(min_value=1, max_value=90)


@given(prices, durations, st.data())
def test_releases_grow_with_each_day_to_exactly_the_creators_share(price, duration, data):
    net = split(price).creator_cents
    steps = [released_by(net, days_kept=d, duration_days=duration) for d in range(duration + 1)]
    assert steps[0] == net // 4
    assert steps == sorted(steps) and all(0 <= s <= net for s in steps)
    assert steps[-1] == net == released_by(net, days_kept=duration + 5, duration_days=duration)
    day = data.draw(st.integers(min_value=-3, max_value=duration))
    assert released_by(net, days_kept=day, duration_days=duration) == steps[max(day, 0)]


@given(prices, st.integers(min_value=0, max_value=1000), durations, st.data())
def test_an_early_end_gives_back_exactly_what_was_not_earned(price, buyer_fee, duration, data):
    money = split(price, buyer_fee_cents=buyer_fee)
    day = data.draw(st.integers(min_value=0, max_value=duration))
    released = released_by(money.creator_cents, days_kept=day, duration_days=duration)
    back = early_end(money, released)
    assert back.creator_cents == money.creator_cents - released
    assert 0 <= back.fee_cents <= money.fee_cents and back.refund_cents == back.creator_cents + back.fee_cents
    platform_keeps = money.platform_cents - back.fee_cents
    # what the brand paid is exactly: what it gets back, what the creator keeps, what the platform keeps
    assert back.refund_cents + released + platform_keeps == money.total_cents
    if released == 0:
        assert back.fee_cents == money.fee_cents
    assert early_end(money, money.creator_cents).refund_cents == 0
