import pytest
from hypothesis import given
from hypothesis import strategies as st
from pinbid_identity.domain.accounts import (
    Role,
    RuleBroken,
    check_password,
    check_signup_fields,
    clean_instagram_handle,
    clean_name,
    normalize_email,
)


@pytest.mark.parametrize("raw", ["  Maya@Example.COM ", "maya@example.com", "MAYA@EXAMPLE.com\t"])
def test_emails_are_the_same_without_regard_to_case_and_spaces(raw):
    assert normalize_email(raw) == "maya@example.com"


@pytest.mark.parametrize("raw", ["", "   ", "no-at-sign", "a@", "@b.co", "a@b", "a b@c.co", "x" * 250 + "@b.co"])
def test_invalid_emails_are_refused(raw):
    with pytest.raises(RuleBroken) as broken:
        normalize_email(raw)
    assert broken.value.field == "email"


def test_names_are_trimmed_and_collapsed():
    assert clean_name("  Maya   Makes ") == "Maya Makes"


@pytest.mark.parametrize("raw", ["", "   ", "<script>alert(1)</script>", "a\x00b", "x" * 101, "bad\u200bzero-width"])
def test_bad_names_are_refused(raw):
    with pytest.raises(RuleBroken):
        clean_name(raw)


def test_names_with_sql_like_text_are_just_text():
    assert clean_name("Robert'); DROP TABLE users;--") == "Robert'); DROP TABLE users;--"


@given(st.text(max_size=200))
def test_clean_name_never_returns_markup_or_control_characters(raw):
    try:
        name = clean_name(raw)
    except RuleBroken:
        return
    assert "<" not in name and ">" not in name and name == name.strip() and 0 < len(name) <= 100


@pytest.mark.parametrize(("raw", "expected"), [("@Maya.Makes", "maya.makes"), ("maya_makes", "maya_makes")])
def test_handles_drop_the_at_and_case(raw, expected):
    assert clean_instagram_handle(raw) == expected


@pytest.mark.parametrize("raw", ["", "@", "has space", "x" * 31, "dash-handle"])
def test_bad_handles_are_refused(raw):
    with pytest.raises(RuleBroken):
        clean_instagram_handle(raw)


def test_passwords_need_eight_characters():
    assert check_password("12345678") == "12345678"
    with pytest.raises(RuleBroken, match="at least 8"):
        check_password("1234567")
    with pytest.raises(RuleBroken, match="at most"):
        check_password("x" * 257)


def test_creators_need_a_handle_and_brands_may_not_send_one():
    assert check_signup_fields(Role.INFLUENCER, "@maya", None) == ("maya", None)
    assert check_signup_fields(Role.BUYER, None, "  Northwind  Coffee ") == (None, "Northwind Coffee")
    assert check_signup_fields(Role.BUYER, None, "   ") == (None, None)
    with pytest.raises(RuleBroken) as no_handle:
        check_signup_fields(Role.INFLUENCER, None, None)
    assert no_handle.value.field == "instagramHandle"
    with pytest.raises(RuleBroken):
        check_signup_fields(Role.BUYER, "maya", None)
    with pytest.raises(RuleBroken):
        check_signup_fields(Role.INFLUENCER, "maya", "Business")
