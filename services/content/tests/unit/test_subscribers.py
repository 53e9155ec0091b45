import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pinbid_content.domain import mails
from pinbid_content.domain.subscribers import (
    BadEmail,
    digest,
    new_token,
    normalize_email,
    read_unsubscribe_token,
    unsubscribe_token,
)

KEY = b"k" * 32


def test_emails_are_normalised_and_checked():
    assert normalize_email("  Ana@Example.COM ") == "ana@example.com"
    for bad in ("", "ana", "ana@", "@example.com", "a b@example.com", "a" * 250 + "@example.com"):
        with pytest.raises(BadEmail):
            normalize_email(bad)


def test_tokens_are_random_and_stored_as_digests():
    first, second = new_token(), new_token()
    assert first != second and len(first) >= 40
    assert digest(first) != first and len(digest(first)) == 64


def test_unsubscribe_token_round_trip():
    subscriber = uuid.uuid4()
    token = unsubscribe_token(KEY, subscriber)
    assert read_unsubscribe_token(KEY, token) == subscriber
    assert read_unsubscribe_token(b"other-key" * 4, token) is None
    assert read_unsubscribe_token(KEY, token[:-1] + ("0" if token[-1] != "0" else "1")) is None
    other = uuid.uuid4()
    assert read_unsubscribe_token(KEY, other.hex + token[32:]) is None


@given(st.text(max_size=120))
def test_garbage_is_never_an_unsubscribe_token(text):
    assert read_unsubscribe_token(KEY, text) is None


def test_mails_to_confirmed_subscribers_carry_the_unsubscribe_link():
    link = "http://x/api/newsletter/unsubscribe?token=abc"
    for mail in (mails.welcome(link), mails.already_subscribed(link)):
        assert link in mail.body
    confirmation = mails.confirmation("http://x/api/newsletter/confirm?token=t", 48)
    assert "confirm?token=t" in confirmation.body and "48 hours" in confirmation.body
