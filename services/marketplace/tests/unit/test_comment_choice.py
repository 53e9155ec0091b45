"""The comment a bid will pin: a buyer's own disclosed comment by id, or a new text Pinbid discloses."""

import pytest
from pinbid_kit import instagram_rules as ig
from pinbid_marketplace.domain.comments import (
    MAX_COMMENT_ID,
    MAX_NEW_COMMENT_TEXT,
    MAX_USERNAME,
    Comment,
    approved_text,
    choose,
)
from pinbid_marketplace.domain.errors import RuleBroken


def refusal(*args, **kwargs) -> RuleBroken:
    with pytest.raises(RuleBroken) as refused:
        choose(*args, **kwargs)
    return refused.value


def test_a_new_text_is_kept_trimmed_and_approved_with_the_disclosure_first():
    chosen = choose(None, "  Best latte in town  ", required=True)
    assert chosen == Comment(text="Best latte in town")
    assert approved_text(chosen, "@northwind") == "Ad · @northwind: Best latte in town"


def test_a_new_text_that_opens_with_a_disclosure_gets_no_second_one():
    assert approved_text(choose(None, "#ad Best latte", required=True), "@northwind") == "#ad Best latte"


def test_an_own_comment_keeps_its_id_its_username_without_the_at_and_its_words_as_they_are():
    chosen = choose(" c-17 ", None, " @northwind.coffee ", required=True, words="Ad · @northwind: Love it")
    assert chosen == Comment(comment_id="c-17", username="northwind.coffee", text="Ad · @northwind: Love it")
    assert approved_text(chosen, "@someone-else") == "Ad · @northwind: Love it"


def test_an_own_comment_without_the_words_is_approved_without_a_text():
    assert approved_text(choose("c-17", None, required=True), "@northwind") is None


def test_an_own_comment_must_open_with_a_disclosure():
    refused = refusal("c-17", None, required=True, words="Love it #ad")
    assert (refused.field, refused.code, refused.message) == ("commentId", "disclosure_missing", ig.MISSING_DISCLOSURE)


def test_the_words_go_with_an_id():
    assert refusal(None, "new words", required=True, words="Ad: words").field == "commentText"


def test_not_both_an_id_and_a_new_text():
    assert refusal("c-17", "new words", required=True).field == "commentId"


def test_a_blank_new_text_asks_for_words_even_when_a_comment_is_optional():
    assert refusal(None, "   ", required=False).field == "newCommentText"
    assert refusal(None, "   ", required=True).field == "newCommentText"


def test_nothing_chosen_is_refused_only_when_a_comment_is_required():
    assert choose(None, None, required=False) is None
    assert choose("  ", None, required=False) is None
    assert refusal(None, None, required=True).field == "commentId"


def test_an_id_and_a_username_have_length_limits():
    choose("c" * MAX_COMMENT_ID, None, required=True)
    assert refusal("c" * (MAX_COMMENT_ID + 1), None, required=True).field == "commentId"
    choose("c-17", None, "u" * MAX_USERNAME, required=True)
    assert refusal("c-17", None, "u" * (MAX_USERNAME + 1), required=True).field == "commentUsername"


def test_a_new_text_leaves_room_for_the_longest_disclosure():
    longest = ig.disclosed("w" * MAX_NEW_COMMENT_TEXT, "@" + "x" * 30)
    assert len(longest) == ig.MAX_COMMENT_LENGTH
    choose(None, "w" * MAX_NEW_COMMENT_TEXT, required=True)
    assert refusal(None, "w" * (MAX_NEW_COMMENT_TEXT + 1), required=True).field == "newCommentText"


def test_instagram_limits_apply_to_a_new_text_with_its_disclosure_and_to_an_own_comments_words():
    mentions = " ".join(f"@friend{n}" for n in range(ig.MAX_MENTIONS + 1))
    refused = refusal(None, mentions, required=True)
    assert (refused.field, refused.code) == ("newCommentText", "instagram_limit")
    hashtags = "Ad " + " ".join(f"#tag{n}" for n in range(ig.MAX_HASHTAGS + 1))
    refused = refusal("c-17", None, required=True, words=hashtags)
    assert (refused.field, refused.code) == ("commentText", "instagram_limit")
    choose(None, " ".join(f"@friend{n}" for n in range(ig.MAX_MENTIONS - 1)), required=True)
