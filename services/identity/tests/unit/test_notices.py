import uuid
from datetime import UTC, datetime, timedelta, timezone

from pinbid_identity.domain import notices
from pinbid_identity.domain.notices import (
    DEFAULT_PREFERENCES,
    ROLE_CATEGORIES,
    Category,
    mail_send_after,
    money,
    reminder_due,
    wanted,
)
from pinbid_identity.notice_mail import render


def test_money_is_formatted_from_cents_without_floats():
    assert money(123456) == "$1,234.56"
    assert money(5, "GBP") == "£0.05"
    assert money(100, "CHF") == "1.00 CHF"


def test_defaults_are_on_except_marketing():
    assert DEFAULT_PREFERENCES == {Category.NEW_BIDS: True, Category.APPROVALS: True, Category.PAYOUTS: True,
                                   Category.MARKETING: False}


def test_each_notice_names_its_category_and_respects_preferences():
    user = uuid.uuid4()
    outbid = notices.outbid(user, uuid.uuid4(), "Sunset reel", 4200, "USD")
    assert outbid.category is Category.NEW_BIDS and "$42.00" in outbid.message and "Sunset reel" in outbid.message
    assert wanted(outbid, DEFAULT_PREFERENCES)
    assert not wanted(outbid, {**DEFAULT_PREFERENCES, Category.NEW_BIDS: False})
    due = notices.payment_due(user, uuid.uuid4(), 5000, "USD", datetime(2026, 11, 24, 9, 30, tzinfo=UTC))
    assert due.category is Category.APPROVALS and "Nov 24, 09:30 UTC" in due.message
    paris = timezone(timedelta(hours=1))
    assert "Nov 24, 09:30 UTC" in notices.pin_reminder(user, uuid.uuid4(), datetime(2026, 11, 24, 10, 30,
                                                                                    tzinfo=paris)).message
    assert notices.payout_sent(user, uuid.uuid4(), 9000, "USD", "2026-11").category is Category.PAYOUTS


def test_brands_have_no_payout_switch_creators_have_all_four():
    assert Category.PAYOUTS not in ROLE_CATEGORIES["BUYER"]
    assert set(ROLE_CATEGORIES["INFLUENCER"]) == set(Category)
    brand_notices = [notices.outbid(uuid.uuid4(), uuid.uuid4(), "Reel", 100, "USD"),
                     notices.refund_made(uuid.uuid4(), uuid.uuid4(), 100, 100, "USD", "not_pinned_in_time"),
                     notices.comment_pinned(uuid.uuid4(), uuid.uuid4(), "Hi")]
    assert all(n.category in ROLE_CATEGORIES["BUYER"] for n in brand_notices)


def test_a_reminder_is_due_before_its_window_closes_and_never_in_the_past():
    now = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
    closes = now + timedelta(hours=48)
    assert reminder_due(closes, timedelta(hours=6), now) == now + timedelta(hours=42)
    assert reminder_due(now + timedelta(hours=5), timedelta(hours=6), now) is None


def test_mails_of_a_topic_go_at_most_once_per_window():
    now = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
    window = timedelta(minutes=5)
    assert mail_send_after(now, None, window) == now
    assert mail_send_after(now, now - timedelta(minutes=1), window) == now + timedelta(minutes=4)
    assert mail_send_after(now, now - timedelta(minutes=9), window) == now


def test_the_refund_says_why_only_when_it_knows():
    user, payment = uuid.uuid4(), uuid.uuid4()
    assert "not pinned in time" in notices.refund_made(user, payment, 4200, 4200, "USD", "not_pinned_in_time").message
    assert notices.refund_made(user, payment, 4200, 4200, "USD", "requested").message == "We refunded $42.00 in full."


def test_mail_bodies_link_to_the_screen_and_the_preferences_and_escape_html():
    notice = notices.outbid(uuid.uuid4(), uuid.uuid4(), "<b>Reel</b>", 4200, "USD")
    text_body, html_body = render(notice, "Leo & Co", "https://pinbid.example/", also=2)
    assert "https://pinbid.example/my-bids" in text_body and "https://pinbid.example/settings" in text_body
    assert "“<b>Reel</b>”" in text_body and "Hi Leo & Co," in text_body and "3 updates" in text_body
    assert 'href="https://pinbid.example/my-bids"' in html_body
    assert 'href="https://pinbid.example/settings"' in html_body
    assert "&lt;b&gt;Reel&lt;/b&gt;" in html_body and "Leo &amp; Co" in html_body and "<b>Reel" not in html_body


def test_refunds_by_an_operator_or_a_dispute_say_so():
    user, payment = uuid.uuid4(), uuid.uuid4()
    assert "support team" in notices.refund_made(user, payment, 4200, 4200, "USD", "operator_refund").message
    # what this refund gave back, after an early end gave back part: not "in full" at the amount paid
    rest = notices.refund_made(user, payment, 4200, 1200, "USD", "operator_refund").message
    assert rest.startswith("We refunded $12.00, the rest of the $42.00 you paid") and "in full" not in rest


def test_a_decision_is_told_once_to_each_side_in_words_with_its_amounts():
    buyer, creator, bid = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    told = {outcome: (notices.dispute_decided_buyer(buyer, bid, outcome, refunded, "USD").message,
                      notices.dispute_decided_creator(creator, bid, outcome, refunded_cents=refunded,
                                                      released_cents=released, recovered_cents=recovered,
                                                      owed_cents=owed, currency="USD").message)
            for outcome, refunded, released, recovered, owed in (("CONTINUE", 0, 900, 0, 0),
                                                                 ("REFUND_UNEARNED", 1250, 0, 0, 0),
                                                                 ("REFUND_ALL", 1250, 0, 450, 200))}
    assert told["CONTINUE"] == (
        "An operator decided: the placement continues and nothing is refunded. The operator's reason is on the "
        "placement's page.",
        "An operator decided: the placement continues; $9.00 held during the review is released to you now. The "
        "operator's reason is on the placement's page.")
    assert "we refunded $12.50, the share not yet earned" in told["REFUND_UNEARNED"][0]
    assert "the brand got back $12.50, the share not yet earned" in told["REFUND_UNEARNED"][1]
    assert "we refunded $12.50, everything you paid" in told["REFUND_ALL"][0]
    assert ("the brand got back $12.50, everything it paid; the $4.50 released to you was taken back, of which "
            "$2.00 was already paid out and is now owed") in told["REFUND_ALL"][1]
    for buyer_words, creator_words in told.values():
        assert "REFUND" not in buyer_words + creator_words and "CONTINUE" not in buyer_words + creator_words
    nothing_left = notices.dispute_decided_buyer(buyer, bid, "REFUND_UNEARNED", 0, "USD").message
    assert "nothing was refunded" in nothing_left
    assert notices.dispute_decided_creator(creator, bid, "CONTINUE", refunded_cents=0, released_cents=0,
                                           recovered_cents=0, owed_cents=0, currency="USD").link == f"/placements/{bid}"


def test_the_notices_that_say_to_pin_open_the_sales_card_which_links_to_the_post():
    creator, bid = uuid.uuid4(), uuid.uuid4()
    deadline = datetime(2026, 11, 24, 9, 30, tzinfo=UTC)
    paid = notices.payment_received(creator, uuid.uuid4(), bid, 4300, "USD", deadline)
    reminder = notices.pin_reminder(creator, bid, deadline)
    for notice in (paid, reminder):
        assert notice.link == f"/approvals#bid-{bid}"
        assert "opens the post on Instagram" in notice.message


def test_campaign_and_second_chance_notices_say_what_happened_and_where_to_look():
    brand, creator, campaign, slot, bid = (uuid.uuid4() for _ in range(5))
    won = notices.campaign_won(brand, campaign, "Fitness November", slot, "Leg day", 8000, "USD")
    assert (won.category, won.link) == (Category.APPROVALS, f"/campaigns/{campaign}")
    assert won.message == ("Your campaign “Fitness November” won “Leg day” at $80.00. The creator will now review "
                           "the bid.")
    assert notices.campaign_won(brand, campaign, None, slot, "Leg day", 8000, "USD").message.startswith(
        "Your campaign won “Leg day”")  # a campaign not heard of yet
    out = notices.campaign_out_of_budget(brand, campaign, "Fitness November", 200000, 200000, "USD")
    assert out.category is Category.NEW_BIDS and "committed $2,000.00 of its $2,000.00 budget" in out.message
    ended = notices.campaign_ended(brand, campaign, "Fitness November", 64000, "USD", "funding_reversed")
    assert "ended: its funding payment was taken back by the bank. It spent $640.00" in ended.message
    assert "ended. It spent" in notices.campaign_ended(brand, campaign, "F", 0, "USD", "something new").message
    assert "ended: your account was suspended." in notices.campaign_ended(brand, campaign, "F", 0, "USD",
                                                                         "suspended").message
    offered = notices.second_chance_offered(brand, slot, "Leg day", 12000, "USD",
                                            datetime(2026, 11, 29, 20, 0, tzinfo=UTC))
    assert offered.link == "/my-bids" and "at your own maximum, $120.00. Accept or decline by Nov 29, 20:00 UTC." \
        in offered.message
    accepted = notices.offer_accepted(creator, "Acme", bid, slot, "Leg day", 12000, "USD")
    assert accepted.user_id == creator and accepted.link == f"/approvals#bid-{bid}"
    for reason, words in (("DECLINED", "declined your offer"), ("LAPSED", "did not answer your offer in time"),
                          ("WITHDRAWN", "can no longer take it"), ("OVER_BUDGET", "has no budget left for it")):
        assert words in notices.offer_declined(creator, slot, "Leg day", reason).message
    assert all(n.category in ROLE_CATEGORIES["BUYER"] for n in (won, out, ended, offered))
