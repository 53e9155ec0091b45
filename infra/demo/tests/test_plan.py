"""The demo world's plan holds together on any day it is seeded."""

from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from pinbid_demo import plan as demo

DAYS = [datetime(2026, 1, 1, 3, tzinfo=UTC) + timedelta(days=n, hours=7 * n) for n in range(0, 365, 3)]


def test_the_world_has_its_people_and_every_stage():
    categories = {s.category for s in demo.SLOTS}
    assert len(demo.CREATORS) >= 12 and categories == set(demo.CATEGORIES)
    assert len(demo.SLOTS) >= 40 and set(Counter(s.stage for s in demo.SLOTS)) == set(demo.Stage)
    assert len({c.followers for c in demo.CREATORS}) == len(demo.CREATORS)
    assert len({s.title for s in demo.SLOTS}) == len(demo.SLOTS)  # the title finds a slot again
    assert not demo.brand(demo.BRAND).bids_in_background


@pytest.mark.parametrize("now", DAYS[::10])
def test_each_slot_fits_its_post_and_its_stage(now):
    for s in demo.SLOTS:
        post = demo.creator(s.creator).posts[s.post]
        assert s.listed_at(now) > now - timedelta(days=post.age_days), s.title  # listed after it was posted
        assert s.auction_end(now) - s.listed_at(now) >= timedelta(hours=1)  # the marketplace's minimum
        if s.stage in demo.OPEN_STAGES:
            assert s.auction_end(now) > now and (s.stage is not demo.Stage.ENDING or
                                                 s.auction_end(now) <= now + timedelta(hours=1))
        else:
            assert s.winner is not None
        if s.stage is demo.Stage.LIVE:
            assert s.pinned_at(now) + timedelta(days=s.duration_days) > now
        if s.stage is demo.Stage.COMPLETED:
            assert s.pinned_at(now) + timedelta(days=s.duration_days) <= now
    pins = Counter((s.creator, s.post) for s in demo.SLOTS if s.stage in demo.PINNED)
    assert max(pins.values()) <= 3  # Instagram's pins per post


@pytest.mark.parametrize("now", DAYS)
def test_the_demo_creator_has_a_payout_in_each_of_the_last_three_months(now):
    mine = [s for s in demo.SLOTS if s.creator == demo.CREATOR]
    released = [s.pinned_at(now) for s in mine if s.stage in demo.PINNED]
    days = demo.payout_days(now)
    assert len(days) == 3
    for before, day in zip([datetime.min.replace(tzinfo=UTC), *days], days, strict=False):
        assert any(before < r <= day for r in released), day
    paid = {(s.paid_at(now).year, s.paid_at(now).month) for s in mine if s.stage in demo.PAID}
    assert len(paid) >= 4
