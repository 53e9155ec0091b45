"""The one hashing of an account signal (pinbid_kit.events.trust.signal_hash): equal values hash alike whichever
service saw them, and the values people type (an email, a name) are normalised first so that the same mailbox or
the same person matches however it was written; what is no signal hashes to nothing."""

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pinbid_kit.events.trust import normalized_email, normalized_name, signal_hash


def test_a_value_is_hashed_with_its_kind_so_kinds_never_match_each_other():
    assert signal_hash("INSTAGRAM_ACCOUNT", "1784") == hashlib.sha256(b"INSTAGRAM_ACCOUNT:1784").hexdigest()
    assert signal_hash("DEVICE", "abc") != signal_hash("ADDRESS", "abc")


@pytest.mark.parametrize(("written", "mailbox"), [
    ("Maya.Rossi@Gmail.com", "mayarossi@gmail.com"),
    (" maya.rossi+brand@googlemail.com ", "mayarossi@gmail.com"),
    ("MAYA+pinbid@studio.example", "maya@studio.example"),
    ("maya.rossi@studio.example", "maya.rossi@studio.example"),  # dots matter outside Gmail
    ("ｍａｙａ@studio.example", "maya@studio.example"),  # full-width letters are the same letters
])
def test_one_mailbox_has_one_spelling(written, mailbox):
    assert normalized_email(written) == mailbox
    assert signal_hash("EMAIL", written) == signal_hash("EMAIL", mailbox)


@pytest.mark.parametrize("junk", ["", "   ", "maya", "@studio.example", "+tag@studio.example", "maya@localhost",
                                  "ma ya@studio.example"])
def test_what_is_not_an_address_is_no_signal(junk):
    assert normalized_email(junk) is None and signal_hash("EMAIL", junk) is None


def test_a_name_is_its_words_whatever_the_order_case_accents_and_initials():
    assert normalized_name("ROSSI, MAYA") == normalized_name("Maya Rossi") == "maya rossi"
    assert normalized_name("Máya  J. Rössi") == "maya rossi"
    assert normalized_name("Maya") is None and normalized_name("M. R.") is None and normalized_name("  ") is None
    assert signal_hash("NAME", "Maya") is None


def test_an_empty_value_of_any_kind_is_no_signal():
    assert signal_hash("CARD", "  ") is None and signal_hash("DEVICE", "") is None


@given(st.text(max_size=60))
def test_normalising_twice_changes_nothing_and_never_raises(raw):
    for normalize in (normalized_email, normalized_name):
        once = normalize(raw)
        assert once is None or normalize(once) == once
