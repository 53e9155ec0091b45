"""The operator's desk in identity: suspension and restore, the user search, the append-only audit log, and the
account signals observed on sign-in."""

import asyncio
import hashlib
import uuid
from datetime import UTC, datetime

import pytest
from pinbid_identity.domain.second_factor import code_at
from pinbid_identity.operators import Operators
from pinbid_identity.passwords import Passwords
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import social as s
from pinbid_kit.events.trust import signal_hash
from pinbid_testing import eventually
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from .conftest import bearer, mails, signup


@pytest.fixture
async def desk(service, http):
    """An operator's token and id."""
    accounts = service.state["accounts"]
    enrolled = await Operators(service.db, Passwords(time_cost=1, memory_kib=1024, parallelism=1),
                               accounts.secret_box, "Pinbid").enroll("desk@example.com", "Desk")
    import pyotp

    secret = pyotp.parse_uri(enrolled.otpauth_uri).secret
    login = await http.post("/auth/login", json={"email": "desk@example.com", "password": enrolled.password,
                                                 "code": code_at(secret, datetime.now(UTC))})
    return login.json()["token"], enrolled.user_id


async def person(http, role="BUYER", **extra) -> tuple[str, dict, dict]:
    body = signup(role, **extra)
    answer = (await http.post("/auth/register", json=body)).json()
    return answer["token"], answer["user"], body


async def outbox_types(service) -> list[str]:
    async with service.db.transaction() as session:
        return list((await session.scalars(text("SELECT type FROM outbox ORDER BY seq"))).all())


async def test_suspension_revokes_tokens_refuses_sign_in_and_tells_the_user_once(http, service, desk, settings):
    operator, operator_id = desk
    token, user, body = await person(http)
    answers = await asyncio.gather(*(http.post(f"/ops/users/{user['id']}/suspend", headers=bearer(operator),
                                               json={"reason": "Bids from the creator's own second account"})
                                     for _ in range(3)))
    assert sorted(a.status_code for a in answers) == [200, 409, 409]
    done = next(a for a in answers if a.status_code == 200).json()
    assert done["status"] == "SUSPENDED" and done["suspendedReason"] == "Bids from the creator's own second account"
    assert next(a for a in answers if a.status_code == 409).json()["code"] == "already_suspended"

    types = await outbox_types(service)
    for once in ("identity.user.suspended.v1", "identity.user.sessions_revoked.v1", "identity.operator.acted.v1"):
        assert types.count(once) == 1, once
    async with service.db.transaction() as session:
        row = (await session.execute(text(
            "SELECT envelope->'data' AS data FROM outbox WHERE type = 'identity.operator.acted.v1'"))).one()
        notice = (await session.execute(text("SELECT kind, message FROM notifications WHERE user_id = :u"),
                                        {"u": user["id"]})).one()
    assert row.data["operatorId"] == str(operator_id) and row.data["action"] == "user.suspend"
    assert row.data["objectType"] == "user" and row.data["objectId"] == user["id"]
    assert notice.kind == "account.suspended" and "second account" in notice.message

    assert (await http.get("/auth/me", headers=bearer(token))).status_code == 403
    refused = await http.post("/auth/login", json={"email": body["email"], "password": body["password"]})
    assert refused.status_code == 403 and refused.json()["code"] == "account_suspended"
    assert "second account" in refused.json()["detail"]
    # the wrong password still says nothing about the suspension
    wrong = await http.post("/auth/login", json={"email": body["email"], "password": "not the password"})
    assert wrong.json()["code"] == "login_failed"

    await eventually(lambda: _mailed_to(settings, body["email"]))


async def _mailed_to(settings, address: str) -> bool:
    # a mail file may be read while it is still being written: its headers are then missing, and it is read again
    return any(address in (m["To"] or "") and "suspended" in (m["Subject"] or "").lower()
               for m in mails(settings.mail_folder))


async def test_restore_lets_the_user_back_in_and_only_once(http, service, desk):
    operator, _ = desk
    _, user, body = await person(http, "INFLUENCER")
    not_yet = await http.post(f"/ops/users/{user['id']}/restore", headers=bearer(operator), json={"reason": "x"})
    assert not_yet.status_code == 409 and not_yet.json()["code"] == "not_suspended"
    await http.post(f"/ops/users/{user['id']}/suspend", headers=bearer(operator), json={"reason": "Checking"})
    restored = await asyncio.gather(*(http.post(f"/ops/users/{user['id']}/restore", headers=bearer(operator),
                                                json={"reason": "Cleared after review"}) for _ in range(2)))
    assert sorted(r.status_code for r in restored) == [200, 409]
    assert (await outbox_types(service)).count("identity.user.restored.v1") == 1
    login = await http.post("/auth/login", json={"email": body["email"], "password": body["password"]})
    assert login.status_code == 200


async def test_operators_cannot_be_suspended_and_others_cannot_suspend(http, desk):
    operator, operator_id = desk
    buyer, user, _ = await person(http)
    own = await http.post(f"/ops/users/{operator_id}/suspend", headers=bearer(operator), json={"reason": "x"})
    assert own.status_code == 403 and own.json()["code"] == "operator_account"
    missing = await http.post(f"/ops/users/{uuid.uuid4()}/suspend", headers=bearer(operator), json={"reason": "x"})
    assert missing.status_code == 404
    blank = await http.post(f"/ops/users/{user['id']}/suspend", headers=bearer(operator), json={"reason": "  "})
    assert blank.status_code == 422
    by_buyer = await http.post(f"/ops/users/{user['id']}/suspend", headers=bearer(buyer), json={"reason": "x"})
    assert by_buyer.status_code == 403 and by_buyer.json()["code"] == "wrong_role"
    assert (await http.get("/ops/users", headers=bearer(buyer))).status_code == 403
    assert (await http.get("/ops/audit")).status_code == 403


async def test_user_search_by_email_or_name_prefix_first_with_like_characters_plain(http, desk):
    operator, _ = desk
    await person(http, name="Zed Annabel", email="zed@example.com")
    await person(http, name="Ann Lee", email="ann.lee@example.com")
    await person(http, name="Bob", email="bob_100%@example.com")

    async def found(q: str) -> list[str]:
        answer = await http.get("/ops/users", params={"q": q}, headers=bearer(operator))
        assert answer.status_code == 200
        return [u["email"] for u in answer.json()]

    assert await found("ANN") == ["ann.lee@example.com", "zed@example.com"]
    assert await found("%") == ["bob_100%@example.com"]
    assert await found("b_1") == ["bob_100%@example.com"]
    assert await found("o_1") == []  # `_` is not a wildcard: "ob_1" is in the email, "o_1" is not
    assert await found("nobody") == []
    first = (await http.get("/ops/users", params={"q": "ann.lee"}, headers=bearer(operator))).json()[0]
    assert set(first) == {"id", "email", "name", "role", "status", "createdAt", "suspendedReason"}
    assert first["status"] == "ACTIVE" and first["role"] == "BUYER"


def social_action(operator_id: uuid.UUID, action_id: uuid.UUID) -> Envelope:
    data = s.SocialOperatorAction(action_id=action_id, operator_id=operator_id, action="dispute.decide",
                                  object_type="dispute", object_id=str(uuid.uuid4()), reason="Screenshot fake",
                                  acted_at=datetime.now(UTC))
    return Envelope(type=data.event_type, source="social", data=data.payload())


async def test_the_audit_log_keeps_every_services_actions_once_and_refuses_changes(http, service, desk):
    operator, operator_id = desk
    _, user, _ = await person(http)
    await http.post(f"/ops/users/{user['id']}/suspend", headers=bearer(operator), json={"reason": "Fraud"})
    decided = social_action(operator_id, uuid.uuid4())
    for _ in range(2):  # a redelivery
        await service.consumers.dispatch(decided, {})
    replayed = Envelope(type=decided.type, source="social", data=decided.data)  # a new event id, the same action
    await service.consumers.dispatch(replayed, {})

    async def both() -> bool:
        entries = (await http.get("/ops/audit", headers=bearer(operator))).json()
        return sorted(e["action"] for e in entries) == ["dispute.decide", "user.suspend"]

    await eventually(both)
    entries = (await http.get("/ops/audit", headers=bearer(operator))).json()
    suspend = next(e for e in entries if e["action"] == "user.suspend")
    assert suspend["operatorEmail"] == "desk@example.com" and suspend["objectId"] == user["id"]
    assert suspend["reason"] == "Fraud" and suspend["objectType"] == "user"
    # the people named beside their ids (issue 31): the operator, and the user acted on
    assert suspend["operatorName"] == "Desk"
    assert suspend["objectUser"] == {"id": user["id"], "name": user["name"], "email": user["email"], "role": "BUYER"}
    decide = next(e for e in entries if e["action"] == "dispute.decide")
    assert decide["operatorName"] == "Desk" and decide["objectUser"] is None  # a dispute is no user
    only_users = (await http.get("/ops/audit", params={"objectType": "user", "objectId": user["id"]},
                                 headers=bearer(operator))).json()
    assert [e["action"] for e in only_users] == ["user.suspend"]
    newest = max(e["actedAt"] for e in entries)
    older = (await http.get("/ops/audit", params={"before": newest}, headers=bearer(operator))).json()
    assert len(older) == 1 and older[0]["actedAt"] < newest

    for statement in ("UPDATE audit_entries SET reason = 'nothing happened'", "DELETE FROM audit_entries",
                      "TRUNCATE audit_entries"):
        with pytest.raises(DBAPIError, match="append-only"):
            async with service.db.transaction() as session:
                await session.execute(text(statement))
    async with service.db.transaction() as session:
        assert await session.scalar(text("SELECT count(*) FROM audit_entries WHERE reason = 'Fraud'")) == 1


async def test_the_audit_log_names_people_as_they_are_now_and_nobody_for_an_unknown_id(http, service, desk):
    operator, operator_id = desk
    _, user, _ = await person(http, name="Old Name")
    await http.post(f"/ops/users/{user['id']}/suspend", headers=bearer(operator), json={"reason": "Spam"})
    stranger, nobody = uuid.uuid4(), uuid.uuid4()
    for action_id, by, object_id in ((uuid.uuid4(), stranger, str(nobody)), (uuid.uuid4(), operator_id, "not-a-uuid")):
        data = s.SocialOperatorAction(action_id=action_id, operator_id=by, action="user.restore", object_type="user",
                                      object_id=object_id, reason="replayed", acted_at=datetime.now(UTC))
        await service.consumers.dispatch(Envelope(type=data.event_type, source="social", data=data.payload()), {})
    async with service.db.transaction() as session:  # the account renamed after the action
        await session.execute(text("UPDATE users SET name = 'New Name' WHERE id = :id"), {"id": user["id"]})

    async def three() -> bool:
        return len((await http.get("/ops/audit", headers=bearer(operator))).json()) == 3

    await eventually(three)
    entries = (await http.get("/ops/audit", headers=bearer(operator))).json()
    by_object = {e["objectId"]: e for e in entries}
    assert by_object[user["id"]]["objectUser"]["name"] == "New Name"
    assert by_object[str(nobody)]["operatorName"] is None and by_object[str(nobody)]["operatorEmail"] is None
    assert by_object[str(nobody)]["objectUser"] is None  # an id identity does not know names nobody
    assert by_object["not-a-uuid"]["objectUser"] is None and by_object["not-a-uuid"]["operatorName"] == "Desk"


async def test_sign_ins_announce_the_email_device_and_address_hashed(http, service):
    device = "d" * 8 + uuid.uuid4().hex
    body = signup()
    await http.post("/auth/register", json=body, headers={"X-Pinbid-Device": device,
                                                          "X-Forwarded-For": "198.51.100.7"})
    http.cookies.set("pinbid_device", device)
    await http.post("/auth/login", json={"email": body["email"], "password": body["password"]},
                    headers={"X-Forwarded-For": "198.51.100.7"})
    http.cookies.clear()
    await http.post("/auth/login", json={"email": body["email"], "password": body["password"]},
                    headers={"X-Pinbid-Device": "<script>", "X-Forwarded-For": "198.51.100.7"})
    async with service.db.transaction() as session:
        signals = (await session.execute(text(
            "SELECT envelope->'data'->>'kind' AS kind, envelope->'data'->>'valueHash' AS hash FROM outbox "
            "WHERE type = 'identity.account.signal_observed.v1' ORDER BY seq"))).all()
    device_hash = hashlib.sha256(f"DEVICE:{device}".encode()).hexdigest()
    address_hash = hashlib.sha256(b"ADDRESS:198.51.100.7").hexdigest()
    email_hash = signal_hash("EMAIL", body["email"].upper())  # one mailbox, however it is written
    assert email_hash == hashlib.sha256(f"EMAIL:{body['email'].lower()}".encode()).hexdigest()
    assert [(r.kind, r.hash) for r in signals] == [
        ("EMAIL", email_hash), ("DEVICE", device_hash), ("ADDRESS", address_hash),
        ("EMAIL", email_hash), ("DEVICE", device_hash), ("ADDRESS", address_hash),
        ("EMAIL", email_hash), ("ADDRESS", address_hash)]  # "<script>" is no device id
    assert body["email"].split("@")[0] not in str(signals)
