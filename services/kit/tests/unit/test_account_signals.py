"""The one hashing of an account signal (pinbid_kit.events.trust.signal_hash) and the one way to announce signals:
equal values hash alike whichever service saw them, and the values people type (an email, a name) are normalised
first so that the same mailbox or the same person matches however it was written; what is no signal hashes to
nothing. And the dispute outcomes, said once."""

import hashlib
import uuid
from datetime import UTC, datetime
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pinbid_kit.events.identity import IdentityAccountSignal
from pinbid_kit.events.payments import DisputeSettled, PaymentsAccountSignal
from pinbid_kit.events.social import DisputeDecided
from pinbid_kit.events.trust import (
    CONTINUE,
    DISPUTE_OUTCOMES,
    REFUND_ALL,
    REFUND_UNEARNED,
    ends_placement,
    normalized_email,
    normalized_name,
    signal_hash,
)


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


def test_every_producer_announces_signals_one_way_leaving_out_what_is_no_signal():
    at = datetime(2026, 11, 27, tzinfo=UTC)
    user = uuid.uuid4()
    seen = [("EMAIL", "J.Ane+x@Gmail.com"), ("DEVICE", ""), ("NAME", "Maya")]
    events = IdentityAccountSignal.observed(user, seen, at)
    assert [(e.kind, e.value_hash) for e in events] == [("EMAIL", signal_hash("EMAIL", "jane@gmail.com"))]
    assert all(isinstance(e, IdentityAccountSignal) and e.user_id == user and e.observed_at == at for e in events)
    [card] = PaymentsAccountSignal.observed(user, [("CARD", "fp_1")], at)
    assert isinstance(card, PaymentsAccountSignal) and card.value_hash == signal_hash("CARD", "fp_1")


def test_the_dispute_outcomes_are_said_once_and_only_refunds_end_a_placement():
    assert DISPUTE_OUTCOMES == (CONTINUE, REFUND_UNEARNED, REFUND_ALL) == get_args(DisputeDecided.model_fields[
        "outcome"].annotation) == get_args(DisputeSettled.model_fields["outcome"].annotation)
    assert [ends_placement(o) for o in DISPUTE_OUTCOMES] == [False, True, True]
