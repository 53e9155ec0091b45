"""Listing a post as a pin slot: what a new slot must be, how it is stored, and the room on a post."""

from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

import pytest
from pinbid_marketplace.domain.errors import RuleBroken, StateConflict
from pinbid_marketplace.domain.listing import (
    CATEGORIES,
    MAX_DESCRIPTION,
    MAX_PINNED_PER_POST,
    MAX_TITLE,
    Limits,
    NewSlot,
    category,
    check_new_slot,
    check_room_on_post,
)

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
LIMITS = Limits()


def slot(**changes) -> NewSlot:
    base = NewSlot(post_id="media-1", title="Morning latte art", description="A reel", category="food",
                   min_bid=Decimal("10.00"), buy_now_price=None, auction_end=NOW + timedelta(days=2),
                   duration_days=7)
    return replace(base, **changes)


def refusal(new: NewSlot) -> tuple[str, str]:
    with pytest.raises(RuleBroken) as refused:
        check_new_slot(new, now=NOW, limits=LIMITS)
    return refused.value.field, refused.value.message


def test_a_slot_is_stored_with_its_title_tidied_its_description_trimmed_and_its_category_lower_case():
    stored = check_new_slot(slot(title="  Morning   latte\n art ", description="  A reel \n", category=" FOOD "),
                            now=NOW, limits=LIMITS)
    assert (stored.title, stored.description, stored.category) == ("Morning latte art", "A reel", "food")
    assert (stored.post_id, stored.min_bid, stored.duration_days) == ("media-1", Decimal("10.00"), 7)


@pytest.mark.parametrize("title", ["", "   ", "\n\t"])
def test_a_slot_needs_a_title(title):
    assert refusal(slot(title=title)) == ("title", "Give the pin slot a title.")


def test_the_title_is_measured_after_its_spaces_are_tidied():
    assert check_new_slot(slot(title="x" * MAX_TITLE + "   "), now=NOW, limits=LIMITS).title == "x" * MAX_TITLE
    assert refusal(slot(title="x" * (MAX_TITLE + 1)))[0] == "title"


def test_the_description_has_a_length_limit():
    check_new_slot(slot(description="d" * MAX_DESCRIPTION), now=NOW, limits=LIMITS)
    assert refusal(slot(description="d" * (MAX_DESCRIPTION + 1)))[0] == "description"


@pytest.mark.parametrize("min_bid", [Decimal("0"), Decimal("-1.00")])
def test_the_minimum_bid_is_above_zero(min_bid):
    assert refusal(slot(min_bid=min_bid)) == ("minBid", "The minimum bid must be more than zero.")


@pytest.mark.parametrize("buy_now", [Decimal("10.00"), Decimal("9.99")])
def test_buy_now_is_above_the_minimum_bid(buy_now):
    assert refusal(slot(buy_now_price=buy_now))[0] == "buyNowPrice"
    assert check_new_slot(slot(buy_now_price=Decimal("10.01")), now=NOW, limits=LIMITS).buy_now_price \
        == Decimal("10.01")


def test_the_auction_end_needs_a_time_zone():
    assert refusal(slot(auction_end=(NOW + timedelta(days=2)).replace(tzinfo=None)))[0] == "auctionEnd"
    paris = timezone(timedelta(hours=1))
    check_new_slot(slot(auction_end=(NOW + timedelta(days=2)).astimezone(paris)), now=NOW, limits=LIMITS)


def test_the_auction_ends_between_one_hour_and_thirty_days_from_now_both_included():
    check_new_slot(slot(auction_end=NOW + LIMITS.min_auction), now=NOW, limits=LIMITS)
    check_new_slot(slot(auction_end=NOW + LIMITS.max_auction), now=NOW, limits=LIMITS)
    assert refusal(slot(auction_end=NOW + LIMITS.min_auction - timedelta(seconds=1))) == \
        ("auctionEnd", "The auction must end at least 1 hour from now.")
    assert refusal(slot(auction_end=NOW + LIMITS.max_auction + timedelta(seconds=1))) == \
        ("auctionEnd", "The auction must end within 30 days.")


def test_the_pin_duration_is_within_the_limits_both_included():
    for days in (LIMITS.min_duration_days, LIMITS.max_duration_days):
        assert check_new_slot(slot(duration_days=days), now=NOW, limits=LIMITS).duration_days == days
    for days in (LIMITS.min_duration_days - 1, LIMITS.max_duration_days + 1):
        assert refusal(slot(duration_days=days)) == ("duration", "The pin duration must be 7 to 30 days.")


def test_other_limits_are_the_ones_applied():
    short = Limits(min_duration_days=1, max_duration_days=3)
    assert check_new_slot(slot(duration_days=2), now=NOW, limits=short).duration_days == 2
    with pytest.raises(RuleBroken, match="1 to 3 days"):
        check_new_slot(slot(duration_days=7), now=NOW, limits=short)


def test_categories_are_the_six_known_ones_in_any_case():
    assert [category(c.upper()) for c in CATEGORIES] == list(CATEGORIES)
    with pytest.raises(RuleBroken) as refused:
        category("pets")
    assert refused.value.field == "category" and all(c in refused.value.message for c in CATEGORIES)
    assert refusal(slot(category="pets"))[0] == "category"


def test_a_post_has_room_for_three_pinned_comments():
    for placements in range(MAX_PINNED_PER_POST):
        check_room_on_post(placements)
    for placements in (MAX_PINNED_PER_POST, MAX_PINNED_PER_POST + 1):
        with pytest.raises(StateConflict) as refused:
            check_room_on_post(placements)
        assert refused.value.code == "post_full" and "3 pinned comments" in refused.value.message
