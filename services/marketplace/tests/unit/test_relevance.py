"""The AI search box's relevance rules (domain/relevance.py): the suffix rule, the keywords looked up, the two models'
cosines blended, and one score of meaning, category and words."""

import pytest
from pinbid_marketplace.domain.relevance import (
    CATEGORY_WEIGHT,
    KEYWORD_WEIGHT,
    SENTENCE_WEIGHT,
    blended_closeness,
    by_relevance,
    keywords,
    relevance,
    stem,
)


@pytest.mark.parametrize(("word", "stemmed"), [
    ("baristas", "barista"), ("watches", "watch"), ("stretching", "stretch"), ("gamers", "gamer"),
    ("games", "game"), ("recipes", "recip"), ("smoked", "smok"), ("hobbies", "hobb"),
    # too short to lose anything: a stem under four letters would match too much
    ("news", "news"), ("ties", "ties"), ("baking", "baking"), ("gym", "gym"), ("s", "s"), ("", ""),
])
def test_a_suffix_comes_off_only_where_four_letters_stay(word, stemmed):
    assert stem(word) == stemmed


def test_keywords_are_the_stems_of_the_words_the_trigram_index_can_look_up_each_once():
    assert keywords("espresso gear home baristas barista pc tv") == ["espresso", "gear", "home", "barista"]
    assert keywords("") == []
    assert keywords("a 🔥 %_ ab") == []  # no word of three letters


def test_the_score_adds_the_category_and_the_words_to_the_closeness():
    assert relevance(0.5, 0.0, 0.0) == 0.5
    assert relevance(0.5, 0.2, 1.0) == pytest.approx(0.5 + CATEGORY_WEIGHT * 0.2 + KEYWORD_WEIGHT)
    # every word of the question lifts a slot past a slightly closer one, not past a far closer one
    assert relevance(0.50, 0.3, 1.0) > relevance(0.55, 0.3, 0.0)
    assert relevance(0.40, 0.3, 1.0) < relevance(0.60, 0.3, 0.0)


def test_most_relevant_first_ties_in_their_order():
    assert by_relevance({"a": 0.1, "b": 0.3, "c": 0.3, "d": -1.0}) == ["b", "c", "a", "d"]
    assert by_relevance({}) == []


def test_the_two_models_cosines_are_averaged_by_weight_and_a_missing_one_changes_nothing():
    assert blended_closeness(0.6, 0.2) == pytest.approx((0.6 + SENTENCE_WEIGHT * 0.2) / (1 + SENTENCE_WEIGHT))
    assert blended_closeness(0.6, None) == 0.6  # the sentence vector not made yet: the word model alone, same scale
