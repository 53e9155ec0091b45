"""No personal data in logs: real flows through the gateway (identity and marketplace on real databases,
events on the in-process bus) with the product's own logging at DEBUG, then the captured output is searched
for every email, name and comment text the flows used. The flows include requests that fail inside a
service (their tracebacks are logged), an event handler that fails until dead-lettered, and mail sending."""

import io
import logging
import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import EventData
from pinbid_kit.events import marketplace as m
from pinbid_kit.events import social as s
from pinbid_kit.logs import configure_logging, email_digest
from pinbid_testing import client, eventually, running
from sqlalchemy import text

CREATOR = {"name": "Ottoline Vasquez-Brandt", "email": "ottoline.vb@example.org", "password": "creator password",
           "role": "INFLUENCER", "instagramHandle": "ottoline.swims"}
BUYER = {"name": "Bartholomew Quince", "email": "b.quince@example.net", "password": "buyer password",
         "role": "BUYER", "businessName": "Quince Provisions"}
RIVAL = {"name": "Winifred Ashcombe", "email": "w.ashcombe@example.com", "password": "rival password",
         "role": "BUYER"}
NEW_NAME, NEW_EMAIL = "Bartholomew Q. Quince", "bq.moved@example.net"
FAILING_NAME = "Philippa Fenwick-Thorne"
HANDLER_NAME = "Cornelius Handlebury"
COMMENT = "Quince jam after a sunrise swim, what a pair! #ad"
FAILING_COMMENT = "Marmalade moments with Ottoline by the lake #ad"
SECRETS = [CREATOR["name"], CREATOR["email"], BUYER["name"], BUYER["email"], BUYER["businessName"], RIVAL["name"],
           RIVAL["email"], NEW_NAME, NEW_EMAIL, FAILING_NAME, HANDLER_NAME, COMMENT, FAILING_COMMENT]


@pytest.fixture
def captured_log():
    """The product's logging (JSON lines, DEBUG and up) into a buffer; the test run's logging afterwards."""
    root = logging.getLogger()
    levels = {name: logging.getLogger(name).level for name in logging.root.manager.loggerDict}
    saved = root.handlers[:], root.level, levels
    buffer = io.StringIO()
    configure_logging(level="DEBUG", json_format=True, stream=buffer)
    yield buffer
    root.handlers[:], root.level = saved[0], saved[1]
    for name, level in saved[2].items():
        logging.getLogger(name).setLevel(level)


@pytest.fixture
async def product(gateway_before_identity_and_marketplace, tmp_path):
    gateway, identity, marketplace = gateway_before_identity_and_marketplace
    async with running(identity, marketplace) as bus, client(gateway.app) as http:
        yield http, bus, identity, marketplace, tmp_path / "mail"


async def publish(bus, data: EventData) -> None:
    await bus.publish(Envelope(type=data.event_type, source="social", data=data.payload()), {})


async def fail_on(service, table: str, event: str, when: str = "true") -> None:
    """A fault inside the service: the database refuses writes to `table` (as a full disk would)."""
    async with service.db.transaction() as session:
        await session.execute(text("CREATE OR REPLACE FUNCTION fail() RETURNS trigger LANGUAGE plpgsql AS "
                                   "$$ BEGIN RAISE EXCEPTION 'simulated storage failure'; END $$"))
        await session.execute(text(f"CREATE TRIGGER fail_{table} BEFORE {event} ON {table} "
                                   f"FOR EACH ROW WHEN ({when}) EXECUTE FUNCTION fail()"))


async def test_no_email_name_or_comment_text_reaches_the_log(product, captured_log):
    http, bus, identity, marketplace, mail_folder = product

    # identity: sign up, log in wrong then right, change the profile (mail to the old address), ask for a reset
    creator = await http.post("/api/auth/register", json=CREATOR)
    buyer = await http.post("/api/auth/register", json=BUYER)
    rival = await http.post("/api/auth/register", json=RIVAL)
    assert creator.status_code == buyer.status_code == rival.status_code == 201
    creator_id, creator_auth = creator.json()["user"]["id"], {"Authorization": f"Bearer {creator.json()['token']}"}
    wrong = await http.post("/api/auth/login", json={"email": BUYER["email"], "password": "not the password"})
    right = await http.post("/api/auth/login", json={"email": BUYER["email"], "password": BUYER["password"]})
    assert (wrong.status_code, right.status_code) == (403, 200)
    changed = await http.put("/api/auth/profile", headers={"Authorization": f"Bearer {right.json()['token']}"},
                             json={"name": NEW_NAME, "email": NEW_EMAIL, "currentPassword": BUYER["password"]})
    assert changed.status_code == 200
    buyer_auth = {"Authorization": f"Bearer {changed.json()['token']}"}
    assert (await http.post("/api/auth/forgot-password", json={"email": CREATOR["email"]})).status_code == 202

    # marketplace: the creator's Instagram (as social announces it), a slot, a bid with a new comment
    await publish(bus, s.AccountConnected(
        user_id=uuid.UUID(creator_id), instagram_id="ig-ottoline", username=CREATOR["instagramHandle"],
        profile=s.CreatorProfile(followers=25_000, avg_views=6_000, avg_engagement=Decimal("4.2"), verified=True)))
    await publish(bus, s.MediaSynced(user_id=uuid.UUID(creator_id), instagram_id="ig-ottoline", posts=[
        s.SyncedPost(id="media-1", media_type="IMAGE", media_url="https://img.test/1.jpg",
                     permalink="https://instagram.test/p/1")]))
    slot = await http.post("/api/influencer/pin-slots", headers=creator_auth, json={
        "postId": "media-1", "title": "Sunrise swim", "description": "A reel", "category": "fitness",
        "minBid": 10, "auctionEnd": (datetime.now(UTC) + timedelta(days=2)).isoformat()})
    assert slot.status_code == 201, slot.text
    bid = await http.post("/api/buyer/bids", headers=buyer_auth,
                          json={"pinSlotId": slot.json()["id"], "amount": 25, "newCommentText": COMMENT})
    assert bid.status_code in (200, 201), bid.text

    # faults inside each service while handling personal data: two 500s and a dead-lettered event
    await fail_on(identity, "users", "UPDATE")
    failed = await http.put("/api/auth/profile", headers=creator_auth,
                            json={"name": FAILING_NAME, "email": CREATOR["email"]})
    assert failed.status_code == 500
    await fail_on(marketplace, "bids", "INSERT OR UPDATE", when=f"NEW.comment_text = '{FAILING_COMMENT}'")
    failed = await http.post("/api/buyer/bids", headers={"Authorization": f"Bearer {rival.json()['token']}"},
                             json={"pinSlotId": slot.json()["id"], "amount": 30, "newCommentText": FAILING_COMMENT})
    assert failed.status_code == 500
    await fail_on(identity, "notifications", "INSERT")
    await bus.publish(Envelope(type=m.BidPlaced.event_type, source="marketplace", data=m.BidPlaced(
        bid_id=uuid.uuid4(), slot_id=uuid.UUID(slot.json()["id"]), slot_title="Sunrise swim",
        creator_id=uuid.UUID(creator_id), buyer_id=uuid.uuid4(), buyer_name=HANDLER_NAME,
        current_bid_cents=2500).payload()), {})
    assert [envelope.data["buyerName"] for _, envelope, _ in bus.dead_letters] == [HANDLER_NAME]

    mail_lines = [f"mail to {email_digest(BUYER['email'])}", f"mail to {email_digest(CREATOR['email'])}"]

    async def both_mails_sent() -> bool:
        return all(line in captured_log.getvalue() for line in mail_lines)

    await eventually(both_mails_sent)  # the notice of the new email to the old address, the reset link

    async def every_mail_logged() -> bool:  # those two, and the creator's new-bid notice, written in the background
        return captured_log.getvalue().count("mail to ") == len(list(mail_folder.glob("*.eml")))

    await eventually(every_mail_logged)  # each mail is logged by the digest of its address alone
    output = captured_log.getvalue()
    # the run was logged, the failures with their tracebacks and the dead letter too
    assert output.count("unhandled error on") >= 2 and "simulated storage failure" in output
    assert "Traceback" in output and "dead-lettered" in output
    leaked = [secret for secret in SECRETS if secret.lower() in output.lower()]
    assert leaked == [], f"personal data in the log: {leaked}"
