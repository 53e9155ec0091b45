"""Notices for both roles from the other services' events, their mail (preferences, coalescing), reminders,
and marking read. The service runs without its background jobs: each test runs the jobs itself, with a clock
it moves."""

import asyncio
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from pinbid_identity.accounts import Signup
from pinbid_identity.domain.accounts import Role
from pinbid_kit.events import marketplace as m
from pinbid_kit.events import payments as p
from pinbid_kit.events import social as s
from pinbid_testing import counting_statements
from sqlalchemy import text

from .conftest import bearer, mails, signup
from .test_notifications import envelope

SLOT = "Sunset reel"


async def person(web, role="BUYER", **preferences):
    body = (await web.post("/auth/register", json=signup(role))).json()
    token = body["token"]
    if preferences:
        values = {"newBids": True, "approvals": True, "payouts": True, "marketing": False, **preferences}
        assert (await web.post("/notifications/preferences", headers=bearer(token), json=values)).status_code == 200
    return uuid.UUID(body["user"]["id"]), token


async def notes(web, token) -> list[dict]:
    return (await web.get("/notifications", headers=bearer(token))).json()


async def send_mail(service) -> int:
    return await service.state["notice_mail"].run_once()


def outbid(buyer, slot, cents):
    return envelope(m.BidOutbid(bid_id=uuid.uuid4(), slot_id=slot, slot_title=SLOT, buyer_id=buyer,
                                current_bid_cents=cents, auction_end=datetime.now(UTC) + timedelta(hours=1)))


def payment_requested(buyer, creator, clock, payment=None, hours=48):
    return envelope(p.PaymentRequested(payment_id=payment or uuid.uuid4(), bid_id=uuid.uuid4(), buyer_id=buyer,
                                       creator_id=creator, amount_cents=4300,
                                       expires_at=clock.now + timedelta(hours=hours)))


def every_event(creator, buyer, clock) -> list:
    """One of each event identity makes notices of."""
    slot, bid, payment, payout = uuid.uuid4(), uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    return [
        m.BidPlaced(bid_id=bid, slot_id=slot, slot_title=SLOT, creator_id=creator, buyer_id=buyer,
                    buyer_name="Leo Brand", current_bid_cents=4200),
        m.BidOutbid(bid_id=bid, slot_id=slot, slot_title=SLOT, buyer_id=buyer, current_bid_cents=4300,
                    auction_end=clock.now),
        m.AuctionClosed(slot_id=slot, slot_title=SLOT, creator_id=creator, outcome="SOLD", winning_bid_id=bid,
                        winner_id=buyer, final_price_cents=4300),
        m.AuctionClosed(slot_id=uuid.uuid4(), slot_title="Quiet post", creator_id=creator, outcome="UNSOLD"),
        m.BidRejected(bid_id=bid, slot_id=slot, slot_title=SLOT, creator_id=creator, buyer_id=buyer),
        p.PaymentRequested(payment_id=payment, bid_id=bid, buyer_id=buyer, creator_id=creator, amount_cents=4300,
                           expires_at=clock.now + timedelta(hours=48)),
        p.PaymentExpired(payment_id=payment, bid_id=bid, buyer_id=buyer, creator_id=creator),
        p.PaymentCompleted(payment_id=payment, bid_id=bid, buyer_id=buyer, creator_id=creator, amount_cents=4300,
                           pin_deadline_at=clock.now + timedelta(days=3)),
        s.CommentPinned(bid_id=bid, slot_id=slot, creator_id=creator, buyer_id=buyer, comment_id="c1",
                        comment_text="Loving this!", pinned_at=clock.now),
        p.PaymentRefunded(payment_id=payment, bid_id=bid, buyer_id=buyer, creator_id=creator, amount_cents=4300,
                          reason="not_pinned_in_time"),
        p.PaymentPartiallyRefunded(payment_id=uuid.uuid4(), bid_id=bid, buyer_id=buyer, creator_id=creator,
                                   amount_cents=4300, refund_cents=2150, reason="HIDDEN"),
        p.PayoutPaid(payout_id=payout, creator_id=creator, period="2026-11", gross_cents=10000, fee_cents=0,
                     net_cents=10000, idempotency_key="k1"),
        p.PayoutFailed(payout_id=uuid.uuid4(), creator_id=creator, period="2026-12", net_cents=5000,
                       reason="bank refused", idempotency_key="k2"),
    ]


async def test_each_event_becomes_the_right_notices_for_the_right_people(web, quiet, clock):
    creator, creator_token = await person(web, "INFLUENCER")
    buyer, buyer_token = await person(web)
    events = every_event(creator, buyer, clock)
    for data in events:
        await quiet.consumers.dispatch(envelope(data), {})
    paid_bid = next(d.bid_id for d in events if isinstance(d, p.PaymentCompleted))

    def kinds_and_links(items):
        return sorted((n["kind"], n["link"]) for n in items)

    assert kinds_and_links(await notes(web, buyer_token)) == sorted([
        ("bid.outbid", "/my-bids"), ("auction.won", "/my-bids"), ("bid.rejected", "/my-bids"),
        ("payment.requested", "/my-bids"), ("payment.expired", "/my-bids"), ("comment.pinned", "/my-bids"),
        ("payment.refunded", "/my-bids"), ("payment.partially_refunded", "/my-bids")])
    assert kinds_and_links(await notes(web, creator_token)) == sorted([
        ("bid.placed", "/dashboard"), ("auction.approve", "/approvals"), ("auction.unsold", "/post-manager"),
        ("payment.expired", "/post-manager"), ("payment.completed", f"/approvals#bid-{paid_bid}"),
        ("comment.pinned", "/earnings"),
        ("payment.refunded", "/earnings"), ("payment.partially_refunded", "/earnings"), ("payout.paid", "/earnings"),
        ("payout.failed", "/earnings")])
    creator_messages = {n["kind"]: n["message"] for n in await notes(web, creator_token)}
    assert "was hidden before its time was up" in creator_messages["payment.partially_refunded"]
    buyer_messages = {n["kind"]: n["message"] for n in await notes(web, buyer_token)}
    assert "refunded $21.50 of the $43.00 you paid" in buyer_messages["payment.partially_refunded"]
    assert "$100.00 for 2026-11" in creator_messages["payout.paid"]
    assert "UTC to release your earnings" in creator_messages["payment.completed"]  # names the pin deadline


async def test_each_notice_is_announced_with_the_unread_count_in_its_transaction(web, quiet):
    buyer, token = await person(web)
    slot = uuid.uuid4()
    await quiet.consumers.dispatch(outbid(buyer, slot, 4300), {})
    await quiet.consumers.dispatch(outbid(buyer, slot, 4500), {})
    async with quiet.db.transaction() as session:
        announced = (await session.execute(text(
            "SELECT envelope->'data' AS data FROM outbox WHERE type = 'identity.notification.created.v1' "
            "ORDER BY seq"))).scalars().all()
    listed = await notes(web, token)
    assert [a["notificationId"] for a in announced] == [n["id"] for n in reversed(listed)]
    assert [a["unreadCount"] for a in announced] == [1, 2]
    assert announced[1]["userId"] == str(buyer) and announced[1]["link"] == "/my-bids"
    assert announced[1]["kind"] == "bid.outbid" and "$45.00" in announced[1]["message"]


async def test_mail_follows_the_preferences_and_the_notice_stays_in_app(web, quiet, settings):
    quiet_buyer, quiet_token = await person(web, newBids=False)
    keen_buyer, _ = await person(web)
    creator, _ = await person(web, "INFLUENCER", payouts=False)
    slot = uuid.uuid4()
    await quiet.consumers.dispatch(outbid(quiet_buyer, slot, 4300), {})
    await quiet.consumers.dispatch(outbid(keen_buyer, slot, 4300), {})
    await quiet.consumers.dispatch(envelope(p.PayoutPaid(
        payout_id=uuid.uuid4(), creator_id=creator, period="2026-11", gross_cents=10000, fee_cents=0,
        net_cents=10000, idempotency_key="k")), {})
    await quiet.consumers.dispatch(envelope(m.AuctionClosed(
        slot_id=slot, slot_title=SLOT, creator_id=creator, outcome="SOLD", winning_bid_id=uuid.uuid4(),
        winner_id=quiet_buyer, final_price_cents=4300)), {})

    assert await send_mail(quiet) == 3
    sent = mails(settings.mail_folder)
    assert sorted(str(mail["Subject"]) for mail in sent) == ["Approve the winning bid", "You were outbid",
                                                             "You won the auction"]
    assert [n["kind"] for n in await notes(web, quiet_token)] == ["auction.won", "bid.outbid"]
    outbid_mail = next(mail for mail in sent if mail["Subject"] == "You were outbid")
    assert outbid_mail.get_content_type() == "multipart/alternative"
    plain, html = (part.get_payload(decode=True).decode() for part in outbid_mail.get_payload())
    assert f"{settings.public_url}/my-bids" in plain and f"{settings.public_url}/settings" in plain
    assert f'href="{settings.public_url}/my-bids"' in html and "Bid again" in html and "$43.00" in html


async def test_a_hot_slots_bid_notices_waiting_together_are_made_in_one_transaction(web, quiet, settings):
    """identity takes bid.placed and bid.outbid in bursts (handlers.IN_BURSTS): the deliveries that wait together
    make their notices, unread counts, mail and events in one transaction, as one at a time would, and all their
    notices in one statement (handlers.TOGETHER)."""
    creator, creator_token = await person(web, "INFLUENCER")
    buyer, token = await person(web)
    slot = uuid.uuid4()
    placed = [envelope(m.BidPlaced(bid_id=uuid.uuid4(), slot_id=slot, slot_title=SLOT, creator_id=creator,
                                   buyer_id=buyer, buyer_name="Leo Brand", current_bid_cents=cents))
              for cents in (4200, 4300, 4400)]
    outbids = [outbid(buyer, slot, cents) for cents in (4300, 4400)]
    burst = [placed[0], outbids[0], placed[1], outbids[1], placed[2]]
    with counting_statements(quiet.db) as counted:
        await asyncio.gather(*(quiet.consumers.dispatch(event, {}) for event in burst))
    assert len([s for s in counted.statements if s.startswith("INSERT INTO notifications")]) == 1
    assert len([s for s in counted.statements if "pg_advisory_xact_lock" in s]) == 1  # both mails opened at once
    await asyncio.gather(*(quiet.consumers.dispatch(event, {}) for event in burst))  # redelivered: nothing more

    async with quiet.db.transaction() as session:
        announced = (await session.execute(text(
            "SELECT xmin::text AS tx, envelope->'data' AS data FROM outbox "
            "WHERE type = 'identity.notification.created.v1' ORDER BY seq"))).all()
        sources = (await session.execute(text(
            "SELECT source_event_id FROM notifications ORDER BY created_at"))).scalars().all()
    assert len({row.tx for row in announced}) == 1
    assert [(row.data["userId"], row.data["unreadCount"]) for row in announced] == [
        (str(creator), 1), (str(buyer), 1), (str(creator), 2), (str(buyer), 2), (str(creator), 3)]
    assert sources == [event.id for event in burst]  # dated as made, not at the burst's start: listed in order
    assert len(await notes(web, creator_token)) == 3 and len(await notes(web, token)) == 2
    assert await send_mail(quiet) == 2  # one mail each: the burst's later notices folded into the first


async def test_a_burst_of_outbids_is_one_mail_now_and_one_with_the_latest_after_the_window(web, quiet, clock,
                                                                                            settings):
    buyer, _ = await person(web)
    slot, other_slot = uuid.uuid4(), uuid.uuid4()
    await quiet.consumers.dispatch(outbid(buyer, slot, 4300), {})
    assert await send_mail(quiet) == 1
    burst = [outbid(buyer, slot, cents) for cents in range(4400, 4900, 100)]
    await asyncio.gather(*(quiet.consumers.dispatch(event, {}) for event in burst))
    await quiet.consumers.dispatch(outbid(buyer, slot, 4900), {})
    await quiet.consumers.dispatch(outbid(buyer, other_slot, 9900), {})
    assert await send_mail(quiet) == 1  # the other slot's mail; this slot's waits for its window
    clock.advance(seconds=settings.notice_mail_coalesce_seconds - 1)
    assert await send_mail(quiet) == 0
    clock.advance(seconds=1)
    assert await send_mail(quiet) == 1
    latest = [m for m in mails(settings.mail_folder) if m.get_payload()[0].get_payload(decode=True).decode()
              .count("$49.00")]
    assert len(latest) == 1 and "6 updates" in latest[0].get_payload()[0].get_payload(decode=True).decode()
    assert len(mails(settings.mail_folder)) == 3
    async with quiet.db.transaction() as session:
        assert await session.scalar(text("SELECT count(*) FROM notifications")) == 8  # in-app: every one


async def test_a_redelivered_event_makes_one_notice_and_one_mail(web, quiet, settings):
    buyer, token = await person(web)
    event = outbid(buyer, uuid.uuid4(), 4300)
    await asyncio.gather(quiet.consumers.dispatch(event, {}), quiet.consumers.dispatch(event, {}))
    await quiet.consumers.dispatch(event, {})
    assert len(await notes(web, token)) == 1
    assert await send_mail(quiet) == 1
    assert await send_mail(quiet) == 0
    assert len(mails(settings.mail_folder)) == 1


async def test_the_payment_reminder_fires_once_six_hours_before_the_window_closes(web, quiet, clock):
    buyer, token = await person(web)
    creator, _ = await person(web, "INFLUENCER")
    await quiet.consumers.dispatch(payment_requested(buyer, creator, clock), {})
    reminders = quiet.state["reminders"]
    assert await reminders.run_once() == 0
    clock.advance(hours=42, seconds=-1)
    assert await reminders.run_once() == 0
    clock.advance(seconds=1)
    fired = await asyncio.gather(reminders.run_once(), reminders.run_once(), reminders.run_once())
    assert sorted(fired) == [0, 0, 1]
    assert await reminders.run_once() == 0
    reminders_seen = [n for n in await notes(web, token) if n["kind"] == "payment.reminder"]
    assert len(reminders_seen) == 1 and "$43.00" in reminders_seen[0]["message"]


async def test_paying_or_expiry_cancels_the_payment_reminder_even_when_it_arrives_first(web, quiet, clock):
    buyer, token = await person(web)
    creator, _ = await person(web, "INFLUENCER")
    paid, expired, paid_early = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    await quiet.consumers.dispatch(payment_requested(buyer, creator, clock, paid), {})
    await quiet.consumers.dispatch(payment_requested(buyer, creator, clock, expired), {})
    for payment in (paid, paid_early):
        await quiet.consumers.dispatch(envelope(p.PaymentCompleted(
            payment_id=payment, bid_id=uuid.uuid4(), buyer_id=buyer, creator_id=creator, amount_cents=4300)), {})
    await quiet.consumers.dispatch(envelope(p.PaymentExpired(payment_id=expired, bid_id=uuid.uuid4(),
                                                             buyer_id=buyer, creator_id=creator)), {})
    await quiet.consumers.dispatch(payment_requested(buyer, creator, clock, paid_early), {})  # out of order
    clock.advance(hours=43)
    assert await quiet.state["reminders"].run_once() == 0
    assert not [n for n in await notes(web, token) if n["kind"] == "payment.reminder"]


async def test_the_pin_reminder_reaches_the_creator_unless_the_comment_is_pinned_first(web, quiet, clock):
    buyer, _ = await person(web)
    creator, creator_token = await person(web, "INFLUENCER")
    pinned_bid, waiting_bid = uuid.uuid4(), uuid.uuid4()
    for bid in (pinned_bid, waiting_bid):
        await quiet.consumers.dispatch(envelope(p.PaymentCompleted(
            payment_id=uuid.uuid4(), bid_id=bid, buyer_id=buyer, creator_id=creator, amount_cents=4300,
            pin_deadline_at=clock.now + timedelta(days=3))), {})
    await quiet.consumers.dispatch(envelope(s.CommentPinned(
        bid_id=pinned_bid, slot_id=uuid.uuid4(), creator_id=creator, buyer_id=buyer, comment_id="c",
        comment_text="Hi", pinned_at=clock.now)), {})
    clock.advance(days=2)
    assert await quiet.state["reminders"].run_once() == 1
    pin_reminders = [n for n in await notes(web, creator_token) if n["kind"] == "pin.reminder"]
    # the reminder opens the sale's card, which links to the post on Instagram
    assert len(pin_reminders) == 1 and pin_reminders[0]["link"] == f"/approvals#bid-{waiting_bid}"


async def test_a_reminder_past_its_window_is_dropped(web, quiet, clock):
    buyer, token = await person(web)
    await quiet.consumers.dispatch(payment_requested(buyer, uuid.uuid4(), clock), {})
    clock.advance(hours=49)  # the job was away for the whole reminder time
    assert await quiet.state["reminders"].run_once() == 0
    assert [n["kind"] for n in await notes(web, token)] == ["payment.requested"]


async def test_mark_read_by_id_or_all_touches_only_the_callers_notices(web, quiet):
    buyer, token = await person(web)
    other, other_token = await person(web)
    slot = uuid.uuid4()
    for cents in (4300, 4400, 4500):
        await quiet.consumers.dispatch(outbid(buyer, slot, cents), {})
    await quiet.consumers.dispatch(outbid(other, slot, 4300), {})
    mine, theirs = await notes(web, token), await notes(web, other_token)
    assert (await web.get("/notifications/unread-count", headers=bearer(token))).json() == {"unreadCount": 3}

    marked = await web.post("/notifications/read", headers=bearer(token),
                            json={"ids": [mine[0]["id"], theirs[0]["id"]]})
    assert marked.status_code == 200 and marked.json() == {"unreadCount": 2}
    assert [n["read"] for n in await notes(web, token)] == [True, False, False]
    assert [n["read"] for n in await notes(web, other_token)] == [False]

    assert (await web.post("/notifications/read", headers=bearer(token), json={"all": True})).json() == {
        "unreadCount": 0}
    assert (await web.get("/notifications/unread-count", headers=bearer(other_token))).json() == {"unreadCount": 1}


@pytest.mark.parametrize("body", [{}, {"all": True, "ids": [str(uuid.uuid4())]}, {"all": False}, {"ids": []},
                                  {"ids": ["not-a-uuid"]}, {"ids": [str(uuid.uuid4())] * 201}])
async def test_mark_read_refuses_unclear_requests(web, quiet, body):
    buyer, token = await person(web)
    await quiet.consumers.dispatch(outbid(buyer, uuid.uuid4(), 4300), {})
    refused = await web.post("/notifications/read", headers=bearer(token), json=body)
    assert refused.status_code == 422 and refused.json()["errors"]
    assert [n["read"] for n in await notes(web, token)] == [False]


async def test_demo_accounts_get_notices_but_no_mail(web, quiet, settings):
    user, _ = await quiet.state["accounts"].register(Signup(
        name="Demo Brand", email=f"brand-{uuid.uuid4().hex[:6]}@demo.pinbid.app", password="correct horse",
        role=Role.BUYER, business_name="Demo Co"), demo=True)
    await quiet.consumers.dispatch(outbid(user.id, uuid.uuid4(), 4300), {})
    assert await send_mail(quiet) == 0
    async with quiet.db.transaction() as session:
        assert await session.scalar(text("SELECT count(*) FROM notifications WHERE user_id = :u"),
                                    {"u": user.id}) == 1


MAIL_BY_CATEGORY = {
    "newBids": {"buyer": {"You were outbid"}, "creator": {"New bid on your pin slot", "Auction ended without a sale"}},
    "approvals": {"buyer": {"You won the auction", "Your bid was declined", "Your bid was approved",
                            "Your pay window expired", "Your comment is pinned", "You were refunded",
                            "Part of your payment was refunded"},
                  "creator": {"Approve the winning bid", "The brand did not pay in time"}},
    "payouts": {"buyer": set(), "creator": {"Payment received", "Comment pinned", "A payment was refunded",
                                            "A placement ended early", "Payout sent", "Payout failed"}},
}


@pytest.mark.parametrize("off", ["newBids", "approvals", "payouts"])
async def test_every_notice_is_mailed_unless_its_category_is_off(web, quiet, clock, settings, off):
    creator, _ = await person(web, "INFLUENCER", **{off: False})
    buyer, _ = await person(web, **{off: False})
    for data in every_event(creator, buyer, clock):
        await quiet.consumers.dispatch(envelope(data), {})
    while await send_mail(quiet):
        pass
    async with quiet.db.transaction() as session:
        emails = dict((await session.execute(text("SELECT id, email FROM users"))).all())
    sent = {(str(mail["To"]), str(mail["Subject"])) for mail in mails(settings.mail_folder)}
    expected = {(emails[who], subject) for category, people in MAIL_BY_CATEGORY.items() if category != off
                for role, who in (("buyer", buyer), ("creator", creator)) for subject in people[role]}
    assert sent == expected
    assert len(mails(settings.mail_folder)) == len(expected)


async def test_money_owed_and_recovered_become_the_creators_notices(web, quiet, clock):
    creator, creator_token = await person(web, "INFLUENCER")
    tx = uuid.uuid4()
    for kind, amount, owed in (("OWED", 9000, 9000), ("RECOVERED", 1800, 7200), ("RECOVERED", 7200, 0)):
        await quiet.consumers.dispatch(envelope(p.RecoveryRecorded(
            recovery_id=uuid.uuid4(), creator_id=creator, kind=kind, amount_cents=amount, owed_cents=owed,
            ledger_transaction_id=tx, recorded_at=clock.now)), {})
    messages = sorted((n["kind"], n["link"], n["message"]) for n in await notes(web, creator_token))
    assert [(k, link) for k, link, _ in messages] == [("recovery.owed", "/earnings"),
                                                      ("recovery.recovered", "/earnings"),
                                                      ("recovery.recovered", "/earnings")]
    assert "You now owe $90.00" in messages[0][2]
    assert {"$18.00 of your earnings paid back money you owed. You still owe $72.00.",
            "$72.00 of your earnings paid back money you owed. You owe nothing now; your next earnings are yours "
            "again."} == {m for _, _, m in messages[1:]}


async def test_a_placement_pinned_in_the_app_asks_the_brand_to_check_it_and_tells_both_sides_each_step(web, quiet):
    creator, creator_token = await person(web, "INFLUENCER")
    buyer, buyer_token = await person(web)
    bid, slot, dispute = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    now = datetime(2026, 11, 26, 10, 0, tzinfo=UTC)
    parties = dict(bid_id=bid, slot_id=slot, creator_id=creator, buyer_id=buyer)
    without_slot = dict(bid_id=bid, creator_id=creator, buyer_id=buyer)
    payment = uuid.uuid4()
    for data in [
        s.CommentPinned(**parties, comment_id="c1", comment_text="Ad · hi", pinned_at=now, method="MANUAL",
                        awaits_acceptance=True, accept_by=now + timedelta(hours=72)),
        s.RecheckRequested(**parties, requested_at=now + timedelta(days=2), answer_by=now + timedelta(days=3)),
        s.PlacementDisputed(**parties, dispute_id=dispute, reason="Not pinned", reporter="BRAND",
                            reported_at=now, answer_by=now + timedelta(hours=48)),
        s.DisputeDecided(**parties, dispute_id=dispute, outcome="REFUND_ALL", reason="No pin on the post",
                         operator_id=uuid.uuid4(), decided_at=now),
        # the decision's money: the unearned share back first (an earlier REFUND_UNEARNED would do it), then the
        # rest, then payments' receipt of the decision: one notice each, the receipt's, with its amounts
        p.PaymentPartiallyRefunded(**without_slot, payment_id=payment, amount_cents=1250, refund_cents=900,
                                   reason="DISPUTE"),
        p.PaymentRefunded(**without_slot, payment_id=payment, amount_cents=1250, refund_cents=350,
                          recovered_cents=0, owed_cents=0, reason="dispute_refund_all"),
        p.DisputeSettled(**without_slot, dispute_id=dispute, payment_id=payment, outcome="REFUND_ALL",
                         refunded_cents=1250, released_cents=0, recovered_cents=0, owed_cents=0,
                         ledger_transaction_ids=[], settled_at=now),
        s.PlacementEnded(**parties, method="MANUAL", reason="Dispute decided: REFUND_ALL", ended_at=now),
        s.PlacementEnded(**{**parties, "bid_id": uuid.uuid4()}, method="SESSION", reason="x", ended_at=now),
        s.PlacementAccepted(**{**parties, "bid_id": uuid.uuid4()}, accepted_at=now, by="SILENCE"),
    ]:
        await quiet.consumers.dispatch(envelope(data), {})
    brand = {n["kind"]: n for n in await notes(web, buyer_token)}
    assert set(brand) == {"placement.acceptance_requested", "placement.disputed", "dispute.decided"}
    check = brand["placement.acceptance_requested"]
    assert (check["title"], check["link"]) == ("Check your placement", f"/my-bids/{bid}")
    assert "Nov 29, 10:00 UTC" in check["message"]  # the acceptBy the event carries
    assert len(await notes(web, buyer_token)) == 3  # no "You were refunded", no "Part of your payment ..."
    assert brand["dispute.decided"]["message"] == (
        "An operator decided: we refunded $12.50, everything you paid. The operator's reason is on the placement's "
        "page.")
    mine = {n["kind"]: n for n in await notes(web, creator_token)}
    assert set(mine) == {"comment.pinned", "placement.recheck_requested", "placement.disputed", "dispute.decided",
                         "placement.ended", "placement.accepted"}  # one unpin notice: the MANUAL placement's
    assert "once it is accepted" in mine["comment.pinned"]["message"]  # not "a quarter is available now"
    assert "Nov 28, 10:00 UTC" in mine["placement.disputed"]["message"]
    # the answer form is on the creator's page of the placement (a pinned placement is no longer in Approvals)
    assert mine["placement.disputed"]["link"] == mine["placement.recheck_requested"]["link"] == f"/placements/{bid}"
    assert len(await notes(web, creator_token)) == 6
    assert "the brand got back $12.50, everything it paid" in mine["dispute.decided"]["message"]
    assert mine["dispute.decided"]["link"] == f"/placements/{bid}"
    assert "Unpin" in mine["placement.ended"]["title"]


async def test_a_new_payout_account_is_mailed_even_with_payout_mail_off_and_says_how_to_undo_it(web, quiet, settings):
    creator, token = await person(web, "INFLUENCER", payouts=False)
    await quiet.consumers.dispatch(envelope(p.PayoutAccountChanged(
        creator_id=creator, method="PAYPAL", account="the PayPal address m••••@example.com",
        changed_at=datetime(2026, 11, 27, 14, 0, tzinfo=UTC))), {})
    assert await send_mail(quiet) == 1
    [sent] = mails(settings.mail_folder)
    assert sent["Subject"] == "Your payout account was changed"
    plain = sent.get_payload()[0].get_payload(decode=True).decode()
    assert "the PayPal address m••••@example.com" in plain and "Nov 27, 14:00 UTC" in plain
    assert "to undo it, set your earlier payout details again in Settings" in plain
    assert [n["kind"] for n in await notes(web, token)] == ["payout.account_changed"]


async def test_a_notice_folded_into_a_waiting_mail_takes_no_advisory_lock(web, quiet, settings):
    """The burst's first notice opens the mail under the (user, kind, topic) lock; the later ones find it waiting
    and hold its row instead (one round trip less each)."""
    buyer, _ = await person(web)
    slot = uuid.uuid4()
    await quiet.consumers.dispatch(outbid(buyer, slot, 4300), {})
    with counting_statements(quiet.db) as counted:
        await quiet.consumers.dispatch(outbid(buyer, slot, 4400), {})
    assert not [s for s in counted.statements if "pg_advisory_xact_lock" in s]
    async with quiet.db.transaction() as session:
        assert (await session.execute(text(
            "SELECT count(*), max(notices) FROM notice_mails WHERE sent_at IS NULL"))).one() == (1, 2)


async def test_a_burst_folds_into_every_waiting_mail_with_one_read_and_one_write(web, quiet, settings):
    """Outbids of one slot to two brands whose mails wait: the burst finds both mails in one statement and folds
    its notices into them in another (notice_mail._PENDING, _FOLD), each mail saying the last notice."""
    (first, _), (second, _) = await person(web), await person(web)
    slot = uuid.uuid4()
    for buyer in (first, second):
        await quiet.consumers.dispatch(outbid(buyer, slot, 4300), {})
    burst = [outbid(buyer, slot, cents) for cents in (4400, 4500) for buyer in (first, second)]
    with counting_statements(quiet.db) as counted:
        await asyncio.gather(*(quiet.consumers.dispatch(event, {}) for event in burst))
    mail_statements = [s for s in counted.statements if "notice_mails" in s]
    assert len(mail_statements) == 2 and mail_statements[1].startswith("UPDATE notice_mails")
    assert not [s for s in counted.statements if "pg_advisory_xact_lock" in s]
    async with quiet.db.transaction() as session:
        waiting = (await session.execute(text(
            "SELECT user_id, notices, text_body FROM notice_mails WHERE sent_at IS NULL"))).all()
    assert sorted((row.user_id, row.notices) for row in waiting) == sorted([(first, 3), (second, 3)])
    assert all("$45.00" in row.text_body and "$44.00" not in row.text_body for row in waiting)
