"""The AI search box's reading of a question: the listing's own filters from plain English, what it set aside and
why, and the words left to rank by meaning. Never a filter that was not asked for."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pinbid_kit.product_rules import TIME_LEFT_HOURS
from pinbid_marketplace.domain.ask import RELIABLE_KEPT_PERCENT, understand
from pinbid_marketplace.domain.listing import CATEGORIES, SORTS

LISTING_PARAMETERS = {"category", "minPrice", "maxPrice", "timeLeft", "minViews", "verified", "minKeptPercent",
                      "noBids", "sortBy"}


def read(question: str):
    return understand(question, TIME_LEFT_HOURS)


@pytest.mark.parametrize(("question", "filters", "rest"), [
    ("fitness creators under $30", {"category": "fitness", "maxPrice": Decimal(30)}, ""),
    ("home workouts for fitness creators under $30", {"category": "fitness", "maxPrice": Decimal(30)},
     "home workouts"),
    ("espresso gear for home baristas", {}, "espresso gear home baristas"),
    ("comfort on long flights", {}, "comfort long flights"),
    ("between $50 and $100", {"minPrice": Decimal(50), "maxPrice": Decimal(100)}, ""),
    ("$20-$40 latte art", {"minPrice": Decimal(20), "maxPrice": Decimal(40)}, "latte art"),
    ("below 25 dollars", {"maxPrice": Decimal(25)}, ""),
    ("at least $1.5k", {"minPrice": Decimal(1500)}, ""),
    ("over $0", {}, ""),
    ("ending today", {"timeLeft": "24h"}, ""),
    ("closing within an hour", {"timeLeft": "1h"}, ""),
    ("ending this week", {"timeLeft": "7d"}, ""),
    ("in the next 3 days", {"timeLeft": "7d"}, ""),
    ("over 10k followers", {"minViews": 10_000}, ""),
    ("50,000+ views", {"minViews": 50_000}, ""),
    ("lots of views", {"sortBy": "most-views"}, ""),
    ("verified creators", {"verified": True}, ""),
    ("reliable creators", {"minKeptPercent": RELIABLE_KEPT_PERCENT}, ""),
    ("kept 95%", {"minKeptPercent": 95}, ""),
    ("no bids yet", {"noBids": True}, ""),
    ("nobody has bid on", {"noBids": True}, ""),
    ("cheapest", {"sortBy": "price-low"}, ""),
    ("cheap", {"sortBy": "price-low"}, ""),
    ("most expensive", {"sortBy": "price-high"}, ""),
    ("ending soonest", {"sortBy": "ending-soon"}, ""),
    ("newest", {"sortBy": "newest"}, ""),
    ("most popular", {"sortBy": "popular"}, ""),
    ("most reliable", {"sortBy": "most-reliable"}, ""),
    ("gamers", {"category": "gaming"}, ""),
    ("category: tech", {"category": "tech"}, ""),
    ("Travel Category", {"category": "travel"}, ""),
    ("verified gaming creators, over 100k views, under $200, no bids yet, ending soonest",
     {"verified": True, "category": "gaming", "minViews": 100_000, "maxPrice": Decimal(200), "noBids": True,
      "sortBy": "ending-soon"}, ""),
])
def test_reads_the_listing_filters_it_is_asked_for(question, filters, rest):
    understood = read(question)
    assert understood.filters == filters
    assert understood.rest == rest
    assert set(understood.labels) == set(filters)


def test_the_sentence_names_each_filter_in_the_listing_order():
    understood = read("under $30 fitness creators ending today")
    assert understood.sentence == "Fitness · up to $30 · ending within 24 hours"


def test_a_window_wider_than_asked_is_said():
    understood = read("in the next 2 hours")
    assert understood.filters == {"timeLeft": "24h"}
    assert "24 hours" in understood.ignored[0].reason


def test_without_leaves_out_the_removed_filters():
    understood = read("fitness under $30 home workouts").without({"category"})
    assert understood.filters == {"maxPrice": Decimal(30)}
    assert understood.sentence == "up to $30"
    assert understood.rest == "home workouts"


@pytest.mark.parametrize(("question", "reason"), [
    ("under $-5", "negative"),
    ("between 100 and 50", "lower price is above"),
    ("from $100 under $50", "lower price is above"),
    ("pets category", "no 'pets' category"),
    ("not verified", "verified creators only"),
    ("kept 150%", "1 to 100"),
    ("in the next 0 hours", "more than zero"),
    ("food or travel", "one category at a time"),
    ("under $99999999999", "beyond any bid"),
])
def test_what_cannot_be_a_filter_is_set_aside_with_the_reason(question, reason):
    understood = read(question)
    assert understood.ignored and reason in understood.ignored[0].reason
    assert understood.ignored[0].phrase
    assert "category" not in understood.filters or understood.filters["category"] == "food"
    assert not {"minPrice", "maxPrice", "verified", "minKeptPercent", "timeLeft"} & set(understood.filters)


@pytest.mark.parametrize("question", [
    "🔥🔥🔥",
    "",
    "   ",
    "zapatillas baratas para correr",
    "'; DROP TABLE slots; --",
    "<script>alert(1)</script>",
    "coffee " * 100,
    "ok " * 100,
])
def test_bad_input_reads_no_filter(question):
    understood = read(question)
    assert understood.filters == {}
    assert understood.sentence == ""


def test_a_word_said_a_hundred_times_weighs_as_one():
    assert read("coffee " * 100).rest == "coffee"
    assert read("cheap " * 100).filters == {"sortBy": "price-low"}


def test_markup_and_sql_are_only_words():
    assert read("<b>latte</b> art").rest == "b latte art"
    assert read("'; DROP TABLE slots; --").rest == "drop table"


@given(st.text(max_size=300))
def test_any_question_reads_only_the_listing_parameters_with_values_it_accepts(question):
    understood = read(question)
    assert set(understood.filters) <= LISTING_PARAMETERS
    assert understood.filters.get("category", CATEGORIES[0]) in CATEGORIES
    assert understood.filters.get("sortBy", SORTS[0]) in SORTS
    assert understood.filters.get("timeLeft", "24h") in TIME_LEFT_HOURS
    low, high = understood.filters.get("minPrice"), understood.filters.get("maxPrice")
    assert low is None or low >= 0
    assert high is None or high >= 0
    assert low is None or high is None or low <= high
    assert understood.filters.get("minViews", 1) > 0
    assert 0 < understood.filters.get("minKeptPercent", 1) <= 100
