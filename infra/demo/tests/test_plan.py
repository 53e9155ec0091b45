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


@pytest.mark.parametrize("now", DAYS[::10])
def test_each_slot_history_runs_forward(now):
    """Listed, bid on, closed, approved, paid, pinned: in that order, and all before the seeding."""
    for s in demo.SLOTS:
        moments = [s.listed_at(now), *(s.bid_at(now, i) for i in range(len(s.bids)))]
        if s.stage not in demo.OPEN_STAGES:
            moments.append(s.closed_at(now))
        if s.stage in demo.APPROVED:
            moments.append(s.approved_at(now))
        if s.stage in demo.PAID:
            moments.append(s.paid_at(now))
        if s.stage in demo.PINNED:
            moments.append(s.pinned_at(now))
        assert moments == sorted(moments) and moments[-1] <= now, s.title


def test_creators_decide_within_hours_and_the_pending_approvals_are_recent():
    now = DAYS[0]
    decided = [s.approved_at(now) - s.closed_at(now) for s in demo.SLOTS if s.stage in demo.APPROVED]
    assert max(decided) <= timedelta(hours=9) and min(decided) >= timedelta(minutes=30)
    assert len({d for d in decided}) >= 5  # not one figure for everyone
    pending = [s for s in demo.SLOTS if s.stage is demo.Stage.AWAITING_APPROVAL]
    assert pending and all(now - s.closed_at(now) <= timedelta(hours=6) for s in pending)


def test_most_open_cards_come_from_creators_with_a_finished_placement():
    with_record = {s.creator for s in demo.SLOTS if s.stage is demo.Stage.COMPLETED}
    open_slots = [s for s in demo.SLOTS if s.stage in demo.OPEN_STAGES]
    share = sum(s.creator in with_record for s in open_slots) / len(open_slots)
    assert share >= 0.7, share
    assert demo.NEW_CREATORS and demo.NEW_CREATORS.isdisjoint(with_record)  # a couple are genuinely new


def test_every_brand_bids_where_its_product_fits_with_the_comment_for_that_post():
    for s in demo.SLOTS:
        for bid in s.bids:
            assert demo.brand(bid.brand).fits(s.category), (s.title, bid.brand)
    for category in demo.CATEGORIES:
        assert len(demo.bidders_for(category)) >= 2, category
    # a brand says something different on a kitchen and on a trip; no two brands say the same
    every = [text for b in demo.BRANDS for text in b.comments.values()]
    assert len(set(every)) == len(every)
    assert all(set(b.comments) <= set(demo.CATEGORIES) for b in demo.BRANDS)


@pytest.mark.parametrize("brand", demo.BRANDS, ids=lambda b: b.handle)
def test_every_demo_comment_passes_instagrams_rules_and_is_disclosed(brand):
    from pinbid_kit import instagram_rules as ig

    for text in brand.comments.values():
        assert len(text) <= ig.MAX_NEW_COMMENT_LENGTH
        posted = ig.disclosed(text, ig.brand_label(brand.handle, brand.business_name, brand.name))
        assert ig.limit_problems(posted) == [] and ig.starts_with_disclosure(posted)
        assert posted.startswith(f"Ad · @{brand.handle}: ")
        assert not ig.starts_with_disclosure(text)  # Pinbid adds the disclosure, the brand's words follow it
