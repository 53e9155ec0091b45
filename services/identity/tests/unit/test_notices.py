import uuid
from datetime import UTC, datetime

from pinbid_identity.domain import notices
from pinbid_identity.domain.notices import DEFAULT_PREFERENCES, Category, money, wanted


def test_money_is_formatted_from_cents_without_floats():
    assert money(123456) == "$1,234.56"
    assert money(5, "GBP") == "£0.05"
    assert money(100, "CHF") == "1.00 CHF"


def test_defaults_are_on_except_marketing():
    assert DEFAULT_PREFERENCES == {Category.NEW_BIDS: True, Category.APPROVALS: True, Category.PAYOUTS: True,
                                   Category.MARKETING: False}


def test_each_notice_names_its_category_and_respects_preferences():
    user = uuid.uuid4()
    outbid = notices.outbid(user, "Sunset reel", 4200, "USD")
    assert outbid.category is Category.NEW_BIDS and "$42.00" in outbid.message and "Sunset reel" in outbid.message
    assert wanted(outbid, DEFAULT_PREFERENCES)
    assert not wanted(outbid, {**DEFAULT_PREFERENCES, Category.NEW_BIDS: False})
    due = notices.payment_due(user, 5000, "USD", datetime(2026, 11, 24, 9, 30, tzinfo=UTC))
    assert due.category is Category.APPROVALS and "Nov 24, 09:30 UTC" in due.message
    assert notices.payout_sent(user, 9000, "USD", "2026-11").category is Category.PAYOUTS
