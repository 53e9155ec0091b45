"""Social's pure rules."""

import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pinbid_social.domain.oauth_state import OAuthState, StateRejected, read_state, sign_state
from pinbid_social.domain.placement import Observation, Status, Step, can_pin, days_kept, next_step
from pinbid_social.domain.sandbox_world import PlannedPost, account_seed, comment_activity, grown, post_seeds
from pinbid_social.domain.stats import PostFigures, profile_stats

KEY = b"k" * 32


def test_a_state_round_trips_and_expires():
    state = OAuthState(uuid.uuid4(), 1_000, "nonce")
    signed = sign_state(KEY, state)
    assert read_state(KEY, signed, now=999) == state
    with pytest.raises(StateRejected, match="expired_state"):
        read_state(KEY, signed, now=1_000)


@given(st.text(max_size=80))
def test_a_state_not_signed_with_our_key_is_refused(value):
    signed = sign_state(b"other-key", OAuthState(uuid.uuid4(), 10**12, "n"))
    for candidate in (value, signed):
        with pytest.raises(StateRejected):
            read_state(KEY, candidate, now=0)


def test_stats_follow_the_documented_rule():
    posts = [PostFigures(1000, 40, 10), PostFigures(2001, 60, 0)]
    stats = profile_stats(10_000, posts, account_type="MEDIA_CREATOR", min_followers=10_000,
                          min_engagement=Decimal("1.00"))
    assert stats.avg_views == 1501 and stats.avg_engagement == Decimal("0.55") and not stats.verified
    strong = profile_stats(10_000, [PostFigures(5, 90, 20)], account_type="BUSINESS", min_followers=10_000,
                           min_engagement=Decimal("1.00"))
    assert strong.avg_engagement == Decimal("1.10") and strong.verified
    personal = profile_stats(50_000, [PostFigures(5, 900, 20)], account_type="PERSONAL", min_followers=10_000,
                             min_engagement=Decimal("1.00"))
    assert not personal.verified
    empty = profile_stats(0, [], account_type="BUSINESS", min_followers=0, min_engagement=Decimal(0))
    assert (empty.avg_views, empty.avg_engagement) == (0, Decimal("0.00"))


def test_the_placement_steps():
    pinned_at = datetime(2026, 11, 1, tzinfo=UTC)
    on = Observation(exists=True, pinned=True, likes=1, replies=0)
    off = Observation(exists=True, pinned=False, likes=1, replies=0)
    gone = Observation(exists=False, pinned=False, likes=0, replies=0)
    before, after = pinned_at + timedelta(days=6), pinned_at + timedelta(days=7)
    assert next_step(pinned_at=pinned_at, duration_days=7, now=before, seen=on) == Step.METRICS
    assert next_step(pinned_at=pinned_at, duration_days=7, now=before, seen=off, misses=1) == Step.UNPINNED
    assert next_step(pinned_at=pinned_at, duration_days=7, now=before, seen=gone, misses=1) == Step.UNPINNED
    assert next_step(pinned_at=pinned_at, duration_days=7, now=after, seen=off) == Step.COMPLETED
    assert can_pin(Status.AWAITING_PIN) is None
    assert "not paid" in can_pin(Status.AWAITING_PAYMENT)
    assert can_pin(Status.PINNED) and can_pin(Status.COMPLETED)


def test_the_sandbox_world_is_deterministic_and_grows():
    assert account_seed(1, "maya.makes") == account_seed(1, "maya.makes")
    assert post_seeds(1, "maya.makes", 20_000, 5) == post_seeds(1, "maya.makes", 20_000, 5)
    t0 = datetime(2026, 11, 1, tzinfo=UTC)
    assert grown(1000, t0, t0, rate_per_day_percent=8) == 1000
    assert grown(1000, t0, t0 + timedelta(days=2), rate_per_day_percent=8) > 1000
    assert comment_activity("c", 0, 0, t0, t0 + timedelta(hours=9))[0] > 0


def test_new_sandbox_accounts_are_mixed_so_verified_means_something():
    accounts = [account_seed(7, f"new.creator{i}") for i in range(300)]
    assert {a.account_type for a in accounts} == {"MEDIA_CREATOR", "BUSINESS", "PERSONAL"}
    assert min(a.followers for a in accounts) < 1_000 and max(a.followers for a in accounts) > 150_000
    verified = []
    for a in accounts:
        posts = post_seeds(7, a.username, a.followers, 9, like_rate_percent=a.like_rate_percent)
        stats = profile_stats(a.followers, [PostFigures(p.base_views, p.base_likes, 4) for p in posts],
                              account_type=a.account_type, min_followers=10_000, min_engagement=Decimal("1.00"))
        verified.append(stats.verified)
    assert 0.2 < sum(verified) / len(verified) < 0.7  # some are, many are not


def test_planned_posts_keep_their_captions_and_ages():
    planned = [PlannedPost("Kyoto at dawn", timedelta(days=1)), PlannedPost("Seoul on a budget", timedelta(days=4))]
    posts = post_seeds(7, "kenji.wanders", 128_000, 9, like_rate_percent=2.5, planned=planned)
    assert [(p.caption, p.age) for p in posts] == [(p.caption, p.age) for p in planned]
    assert all(0.015 < p.base_likes / p.base_views < 0.035 for p in posts)


def test_a_bad_reading_is_judged_on_the_second_in_a_row_and_says_what_was_found():
    pinned_at = datetime(2026, 11, 1, tzinfo=UTC)
    now = pinned_at + timedelta(days=2)
    gone = Observation(exists=False, pinned=False, likes=0, replies=0)
    hidden = Observation(exists=True, pinned=True, likes=0, replies=0, hidden=True)
    unpinned = Observation(exists=True, pinned=False, likes=0, replies=0)
    for seen, reason in ((gone, "DELETED"), (hidden, "HIDDEN"), (unpinned, "UNPINNED")):
        assert next_step(pinned_at=pinned_at, duration_days=7, now=now, seen=seen, misses=0) == Step.SUSPECT
        assert next_step(pinned_at=pinned_at, duration_days=7, now=now, seen=seen, misses=1) == Step.UNPINNED
        assert seen.broken == reason
    assert days_kept(pinned_at=pinned_at, duration_days=7, now=now - timedelta(seconds=1)) == 1
    assert days_kept(pinned_at=pinned_at, duration_days=7, now=pinned_at + timedelta(days=30)) == 7


def test_the_buttons_a_placement_allows_follow_its_own_method():
    from pinbid_social.domain.placement import pin_actions

    assert pin_actions(Status.AWAITING_PIN, "SESSION", posted_or_named=True) == ["pin"]
    assert pin_actions(Status.AWAITING_PIN, None, posted_or_named=False) == ["pin"]
    assert pin_actions(Status.AWAITING_PIN, "MANUAL", posted_or_named=False) == ["post"]
    assert pin_actions(Status.AWAITING_PIN, "MANUAL", posted_or_named=True) == ["confirm"]
    for status in (Status.AWAITING_PAYMENT, Status.PINNED, Status.ENDED, Status.COMPLETED):
        assert pin_actions(status, "MANUAL", posted_or_named=True) == []
