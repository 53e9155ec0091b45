"""The campaign's rules (domain/campaigns.py): terms, filters, its life, matching a slot, the bid it may place."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from pinbid_marketplace.domain import campaigns as c
from pinbid_marketplace.domain.campaigns import CampaignStatus as S
from pinbid_marketplace.domain.errors import RuleBroken, StateConflict

NOW = datetime(2026, 11, 27, 12, tzinfo=UTC)
D = Decimal


def terms(**fields) -> c.Terms:
    values = dict(name="Fitness push", budget=D("2000.00"), max_per_slot=D("80.00"), comment_text="Try our bars",
                  starts_at=NOW, ends_at=NOW + timedelta(days=30))
    return c.Terms(**{**values, **fields})


@pytest.mark.parametrize(("fields", "field"), [
    ({"budget": D("0")}, "budget"),
    ({"budget": D("10000000.00")}, "budget"),
    ({"budget": D("50.00")}, "budget"),  # below the most per comment
    ({"max_per_slot": D("0.001")}, "maxPerSlot"),
    ({"max_per_slot": D("NaN")}, "maxPerSlot"),
    ({"ends_at": NOW - timedelta(minutes=1)}, "endsAt"),
    ({"starts_at": NOW + timedelta(days=31)}, "endsAt"),  # reversed
    ({"ends_at": NOW + timedelta(days=400)}, "endsAt"),
    ({"ends_at": datetime(2027, 1, 1)}, "endsAt"),  # no time zone
    ({"name": "  \t "}, "name"),
    ({"name": "x" * 81}, "name"),
    ({"comment_text": "   "}, "commentText"),
    ({"comment_text": "#a " * 40}, "commentText"),  # Instagram's hashtag limit
])
def test_bad_terms_name_their_field(fields, field):
    with pytest.raises(RuleBroken) as refused:
        c.check_terms(terms(**fields), c.Filters(), now=NOW)
    assert refused.value.field == field


def test_terms_are_normalised():
    checked = c.check_terms(terms(name="  Fitness   push ", comment_text=" Try it \n"), c.Filters(), now=NOW)
    assert (checked.name, checked.comment_text) == ("Fitness push", "Try it")


def test_filters_that_can_match_nothing_are_refused():
    with pytest.raises(RuleBroken) as refused:
        c.check_terms(terms(), c.Filters(min_price=D("100")), now=NOW)
    assert refused.value.code == "matches_nothing"
    with pytest.raises(RuleBroken):
        c.check_filters(c.Filters(min_price=D("10"), max_price=D("5")))
    with pytest.raises(RuleBroken) as unknown:
        c.check_filters(c.Filters(category="knitting"))
    assert unknown.value.field == "filters.category"
    assert c.check_filters(c.Filters(category=" Fitness ", time_left="all", search="  home   gym ")) == \
        c.Filters(category="fitness", search="home gym")


def test_filters_round_trip_through_json():
    f = c.Filters(category="tech", min_price=D("5.50"), max_price=D("60.00"), min_views=1000, verified=True,
                  min_kept_percent=80, time_left="24h", search="desk")
    assert c.Filters.of_json(f.as_json()) == f
    assert c.Filters().as_json() == {}


def test_a_question_adds_only_what_the_brand_did_not_set():
    merged, taken = c.merged_with_understood(c.Filters(max_price=D("60")),
                                             {"category": "fitness", "maxPrice": D("40"), "sortBy": "price-low"})
    assert merged == c.Filters(category="fitness", max_price=D("60")) and taken == ["category"]


def slot(**fields) -> c.OpenSlot:
    values = dict(category="fitness", price=D("20.00"), avg_views=5000, verified=True, creator_kept_pct=90,
                  auction_end=NOW + timedelta(hours=10), search="home gym routine maya")
    return c.OpenSlot(**{**values, **fields})


@pytest.mark.parametrize(("filters", "fits"), [
    (c.Filters(), True),
    (c.Filters(category="fitness"), True),
    (c.Filters(category="food"), False),
    (c.Filters(min_price=D("20.00")), True),
    (c.Filters(min_price=D("20.01")), False),
    (c.Filters(max_price=D("19.99")), False),
    (c.Filters(min_views=5001), False),
    (c.Filters(verified=True), True),
    (c.Filters(min_kept_percent=91), False),
    (c.Filters(time_left="1h"), False),
    (c.Filters(time_left="24h"), True),
    (c.Filters(search="GYM"), True),
    (c.Filters(search="ym"), False),  # under three letters: a word's start only
    (c.Filters(search="gy"), True),
])
def test_matching_is_the_listings_filter(filters, fits):
    assert c.matches(filters, slot(), NOW) is fits


def test_an_ended_auction_or_a_new_creator_does_not_fit():
    assert not c.matches(c.Filters(), slot(auction_end=NOW), NOW)
    assert not c.matches(c.Filters(min_kept_percent=1), slot(creator_kept_pct=None), NOW)


def plan(**fields) -> c.Decision:
    values = dict(min_bid=D("10.00"), current_bid=None, max_per_slot=D("40.00"), budget=D("100.00"),
                  funded_total=D("100.00"), committed=D("0.00"), brand_bids_there=False)
    return c.plan_bid(**{**values, **fields})


def test_the_bid_is_the_least_accepted_with_the_ceiling_the_budget_allows():
    assert plan().plan == c.BidPlan(amount=D("10.00"), ceiling=D("40.00"))
    assert plan(current_bid=D("15.00")).plan == c.BidPlan(amount=D("15.01"), ceiling=D("40.00"))
    assert plan(committed=D("80.00")).plan == c.BidPlan(amount=D("10.00"), ceiling=D("20.00"))
    assert plan(funded_total=D("30.00")).plan == c.BidPlan(amount=D("10.00"), ceiling=D("30.00"))


def test_no_bid_when_it_cannot_pay_or_must_not():
    assert plan(min_bid=D("41.00")).skip == c.Skip.BELOW_MINIMUM
    assert plan(current_bid=D("40.00")).skip == c.Skip.BELOW_MINIMUM
    assert plan(brand_bids_there=True).skip == c.Skip.OWN_BID
    assert plan(committed=D("95.00")).short_of_budget
    assert plan(funded_total=D("0.00")).short_of_budget


def life(status=S.ACTIVE, funded=D("100"), starts=NOW - timedelta(days=1), ends=NOW + timedelta(days=1)) -> c.Life:
    return c.Life(status=status, reason=None, funded=funded, starts_at=starts, ends_at=ends)


def test_funding_starts_a_draft_within_its_dates_only():
    draft = life(S.DRAFT, funded=D("0"))
    c.funded(draft, D("100"), NOW)
    assert draft.status == S.ACTIVE and draft.funded == D("100")
    later = life(S.DRAFT, funded=D("0"), starts=NOW + timedelta(hours=1))
    c.funded(later, D("100"), NOW)
    assert later.status == S.DRAFT
    c.tick(later, NOW + timedelta(hours=1))
    assert later.status == S.ACTIVE
    c.funded(later, D("50"), NOW)  # an older, smaller total delivered late takes nothing back
    assert later.funded == D("100")


def test_pause_resume_end_and_the_clock():
    running = life()
    c.pause(running)
    assert (running.status, running.reason) == (S.PAUSED, "paused")
    c.resume(running, NOW)
    assert (running.status, running.reason) == (S.ACTIVE, None)
    unpaid = life(S.PAUSED, funded=D("0"))
    c.resume(unpaid, NOW)
    assert unpaid.status == S.DRAFT
    assert c.end(running, c.Reason.ENDED_BY_BRAND) and not c.end(running, c.Reason.ENDS_AT)
    assert running.reason == "ended_by_brand"
    with pytest.raises(StateConflict):
        c.pause(running)
    with pytest.raises(StateConflict):
        c.resume(running, NOW)
    past = life()
    assert c.tick(past, NOW + timedelta(days=1)) == c.Reason.ENDS_AT and past.status == S.ENDED


def test_out_of_budget_and_back():
    running = life()
    c.out_of_budget(running)
    assert (running.status, running.reason) == (S.OUT_OF_BUDGET, "budget")
    c.released(running, D("0"), NOW)
    assert running.status == S.OUT_OF_BUDGET
    c.released(running, D("10"), NOW)
    assert running.status == S.ACTIVE
    paused = life(S.PAUSED)
    c.out_of_budget(paused)
    assert paused.status == S.PAUSED


def test_a_lower_budget_never_goes_below_what_is_committed():
    c.check_budget_change(D("100.00"), D("100.00"))
    with pytest.raises(StateConflict) as refused:
        c.check_budget_change(D("99.99"), D("100.00"))
    assert refused.value.code == "budget_below_committed"
