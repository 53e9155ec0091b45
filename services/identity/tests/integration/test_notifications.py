import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from pinbid_identity.domain import notices
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import marketplace as m
from pinbid_kit.events import payments as p
from pinbid_kit.events import social as s
from pinbid_kit.events.contracts import schemas
from pinbid_testing import counting_statements, eventually
from sqlalchemy import text

from .conftest import bearer, signup


async def registered(http, role="BUYER"):
    body = (await http.post("/auth/register", json=signup(role))).json()
    return uuid.UUID(body["user"]["id"]), body["token"]


def envelope(data) -> Envelope:
    # the payload must satisfy the published contract, as another service's would
    import jsonschema

    jsonschema.validate(data.payload(), schemas()[data.event_type])
    return Envelope(type=data.event_type, source="test", data=data.payload())


async def test_preferences_default_and_update(http):
    _, token = await registered(http)
    defaults = await http.get("/notifications/preferences", headers=bearer(token))
    assert defaults.json() == {"newBids": True, "approvals": True, "payouts": True, "marketing": False,
                               "applies": ["newBids", "approvals", "marketing"]}
    saved = await http.post("/notifications/preferences", headers=bearer(token),
                            json={"newBids": False, "approvals": True, "payouts": True, "marketing": True})
    assert saved.json()["newBids"] is False and saved.json()["marketing"] is True
    again = await http.get("/notifications/preferences", headers=bearer(token))
    assert again.json() == saved.json()
    assert saved.json()["payouts"] is True  # kept as sent, though a brand's settings do not show it
    _, creator_token = await registered(http, "INFLUENCER")
    creators = await http.get("/notifications/preferences", headers=bearer(creator_token))
    assert creators.json()["applies"] == ["newBids", "approvals", "payouts", "marketing"]
    partial = await http.post("/notifications/preferences", headers=bearer(token), json={"newBids": True})
    assert partial.status_code == 422


async def test_events_become_notifications_once_in_app_whatever_the_mail_preferences(http, service):
    creator, creator_token = await registered(http, "INFLUENCER")
    buyer, buyer_token = await registered(http)
    slot = uuid.uuid4()
    placed = envelope(m.BidPlaced(bid_id=uuid.uuid4(), slot_id=slot, slot_title="Sunset reel", creator_id=creator,
                                  buyer_id=buyer, buyer_name="Leo Brand", current_bid_cents=4200))
    outbid = envelope(m.BidOutbid(bid_id=uuid.uuid4(), slot_id=slot, slot_title="Sunset reel", buyer_id=buyer,
                                  current_bid_cents=4300, auction_end=datetime.now(UTC) + timedelta(hours=1)))
    closed = envelope(m.AuctionClosed(slot_id=slot, slot_title="Sunset reel", creator_id=creator, outcome="SOLD",
                                      winning_bid_id=uuid.uuid4(), winner_id=buyer, final_price_cents=4300))
    due = envelope(p.PaymentRequested(payment_id=uuid.uuid4(), bid_id=uuid.uuid4(), buyer_id=buyer, creator_id=creator,
                                      amount_cents=4300, expires_at=datetime.now(UTC) + timedelta(hours=48)))
    await http.post("/notifications/preferences", headers=bearer(buyer_token),
                    json={"newBids": False, "approvals": True, "payouts": True, "marketing": False})
    for env in (placed, placed, outbid, closed, due):
        await service.consumers.dispatch(env, {})

    creator_notes = (await http.get("/notifications", headers=bearer(creator_token))).json()
    buyer_notes = (await http.get("/notifications", headers=bearer(buyer_token))).json()
    assert sorted(n["title"] for n in creator_notes) == ["Approve the winning bid", "New bid on your pin slot"]
    # newBids is off: that governs mail only, the notices are all here
    assert [n["title"] for n in buyer_notes] == ["Your bid was approved", "You won the auction", "You were outbid"]
    assert "$43.00" in buyer_notes[0]["message"]
    assert set(buyer_notes[0]) == {"id", "title", "message", "kind", "link", "createdAt", "read"}
    assert buyer_notes[0]["kind"] == "payment.requested" and buyer_notes[0]["link"] == "/my-bids"


async def test_notices_for_unknown_users_are_dropped(http, service):
    env = envelope(p.PayoutPaid(payout_id=uuid.uuid4(), creator_id=uuid.uuid4(), period="2026-11", gross_cents=10000,
                                fee_cents=0, net_cents=10000, idempotency_key="k"))
    await service.consumers.dispatch(env, {})
    async with service.db.transaction() as session:
        assert await session.scalar(text("SELECT count(*) FROM notifications")) == 0


async def test_instagram_account_events_keep_the_user_up_to_date(http, service):
    creator, token = await registered(http, "INFLUENCER")
    profile = s.CreatorProfile(followers=15200, avg_views=8300, avg_engagement=Decimal("4.25"), verified=True)
    await service.consumers.dispatch(envelope(s.AccountConnected(user_id=creator, instagram_id="1789",
                                                                 username="maya.makes", profile=profile)), {})
    me = (await http.get("/auth/me", headers=bearer(token))).json()
    assert me["instagramConnected"] is True and me["instagramId"] == "1789"
    assert me["influencerProfile"] == {"avgViews": 8300, "followers": 15200, "avgEngagement": 4.25, "verified": True}
    await service.consumers.dispatch(envelope(s.AccountDisconnected(user_id=creator)), {})
    me = (await http.get("/auth/me", headers=bearer(token))).json()
    assert me["instagramConnected"] is False and me["instagramId"] is None


async def test_events_published_by_identity_reach_the_bus(http, service):
    seen: list[str] = []

    async def record(env, headers):
        seen.append(env.type)

    bus = service.state["bus"]
    bus.subscribe_broadcast(["identity.user.#"], record)
    body = signup()
    token = (await http.post("/auth/register", json=body)).json()["token"]
    await http.post("/auth/change-password", json={"currentPassword": body["password"], "newPassword": "new password"},
                    headers=bearer(token))

    async def both() -> bool:
        return seen == ["identity.user.registered.v1", "identity.user.sessions_revoked.v1"]

    await eventually(both)


async def test_an_event_for_two_users_writes_both_notices_events_with_one_outbox_insert(http, service):
    creator, _ = await registered(http, "INFLUENCER")
    buyer, _ = await registered(http)
    closed = envelope(m.AuctionClosed(slot_id=uuid.uuid4(), slot_title="Sunset reel", creator_id=creator,
                                      outcome="SOLD", winning_bid_id=uuid.uuid4(), winner_id=buyer,
                                      final_price_cents=4300))
    with counting_statements(service.db) as counted:
        await service.consumers.dispatch(closed, {})
    assert counted.outbox_writes() == (1, 1)
    async with service.db.transaction() as session:
        created = (await session.execute(text(
            "SELECT envelope->'data'->>'userId', envelope->'data'->>'unreadCount' FROM outbox "
            "WHERE type = 'identity.notification.created.v1' ORDER BY seq"))).all()
    assert created == [(str(buyer), "1"), (str(creator), "1")]


async def test_each_notice_event_counts_the_unread_notices_up_to_its_own_in_two_statements(http, service):
    """The count comes back with the insert (notifications._insert_all): earlier unread notices, the transaction's
    own earlier ones and the statement's own earlier ones included, read ones not; one statement for the users and
    their preferences, one for all the notices."""
    buyer, token = await registered(http)
    slot = uuid.uuid4()

    def outbid(cents: int) -> Envelope:
        return envelope(m.BidOutbid(bid_id=uuid.uuid4(), slot_id=slot, slot_title="Sunset reel", buyer_id=buyer,
                                    current_bid_cents=cents, auction_end=datetime.now(UTC) + timedelta(hours=1)))

    for cents in (4300, 4400):
        await service.consumers.dispatch(outbid(cents), {})
    first = (await http.get("/notifications", headers=bearer(token))).json()[-1]
    await http.post("/notifications/read", headers=bearer(token), json={"ids": [first["id"]]})
    told = [notices.outbid(buyer, slot, "Sunset reel", cents, "USD") for cents in (4500, 4600)]
    events = []
    with counting_statements(service.db) as counted:
        async with service.db.transaction() as session:
            notes = await service.state["suspensions"].notifier.deliver(session, events, told, None)
    assert [e.unread_count for e in events] == [2, 3]
    assert [e.notification_id for e in events] == [n.id for n in notes]
    assert all(e.created_at is not None for e in events)
    notice_statements = [s for s in counted.statements if "notice_mails" not in s and "advisory" not in s]
    assert len(notice_statements) == 2  # the users with their preferences, the inserts with their counts
    assert (await http.get("/notifications/unread-count", headers=bearer(token))).json()["unreadCount"] == 3
