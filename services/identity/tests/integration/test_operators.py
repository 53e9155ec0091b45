"""Operators: created by a command, signed in with a TOTP code accepted once, short-lived tokens."""

import asyncio
from datetime import UTC, datetime, timedelta

import jwt
import pyotp
from pinbid_identity import operators
from pinbid_identity.domain.second_factor import code_at
from sqlalchemy import text

from .conftest import bearer, signup


async def enroll(settings, monkeypatch, capsys, email="desk@example.com", *extra) -> tuple[int, str, str]:
    """Runs the command as an operator would, against the test database; answers (exit status, password, secret)."""
    for field in ("database_url", "jwt_private_key_file", "jwt_public_key_file", "argon2_time_cost",
                  "argon2_memory_kib"):
        monkeypatch.setenv(settings.env_name(field), str(getattr(settings, field)))
    status = await operators.run(["create", "--email", email, *extra])
    out = capsys.readouterr().out
    if status != 0:
        return status, "", ""
    password = out.split("Password (shown once, keep it in a password manager): ")[1].split("\n")[0]
    secret = pyotp.parse_uri(out.strip().splitlines()[-1]).secret
    return status, password, secret


def code(secret: str, steps_ahead: int = 0) -> str:
    return code_at(secret, datetime.now(UTC) + timedelta(seconds=30 * steps_ahead))


async def test_nobody_can_sign_up_as_an_operator(http, service):
    refused = await http.post("/auth/register", json=signup(role="OPERATOR"))
    assert refused.status_code == 422 and refused.json()["errors"][0]["field"] == "role"
    async with service.db.transaction() as s:
        assert await s.scalar(text("SELECT count(*) FROM users")) == 0


async def test_the_command_creates_an_operator_with_a_sealed_totp_secret(http, service, settings, monkeypatch,
                                                                         capsys):
    status, password, secret = await enroll(settings, monkeypatch, capsys, "Desk@Example.com", "--name", "Ops Desk")
    assert status == 0 and len(password) >= 20 and len(secret) == 32
    async with service.db.transaction() as s:
        row = (await s.execute(text("SELECT role, name, totp_secret_sealed FROM users WHERE email = "
                                    "'desk@example.com'"))).one()
        registered = await s.scalar(text("SELECT envelope->'data'->>'role' FROM outbox "
                                         "WHERE type = 'identity.user.registered.v1'"))
    assert row.role == "OPERATOR" and row.name == "Ops Desk" and registered == "OPERATOR"
    assert secret not in row.totp_secret_sealed and settings.secret_box().open(row.totp_secret_sealed) == secret

    login = await http.post("/auth/login", json={"email": "desk@example.com", "password": password,
                                                 "code": code(secret)})
    assert login.status_code == 200 and login.json()["user"]["role"] == "OPERATOR"
    claims = jwt.decode(login.json()["token"], options={"verify_signature": False})
    assert claims["exp"] - claims["iat"] == settings.operator_token_ttl_seconds == 3600


async def test_enrolling_again_replaces_password_and_secret_and_ends_earlier_sign_ins(http, settings, monkeypatch,
                                                                                     capsys):
    _, old_password, old_secret = await enroll(settings, monkeypatch, capsys)
    old_token = (await http.post("/auth/login", json={"email": "desk@example.com", "password": old_password,
                                                      "code": code(old_secret)})).json()["token"]
    status, password, secret = await enroll(settings, monkeypatch, capsys)
    assert status == 0 and password != old_password and secret != old_secret
    assert (await http.get("/auth/me", headers=bearer(old_token))).status_code == 403
    stale = await http.post("/auth/login", json={"email": "desk@example.com", "password": old_password,
                                                 "code": code(old_secret, 1)})
    assert stale.status_code == 403
    fresh = await http.post("/auth/login", json={"email": "desk@example.com", "password": password,
                                                 "code": code(secret)})
    assert fresh.status_code == 200


async def test_the_command_refuses_a_brands_email(http, settings, monkeypatch, capsys, service):
    body = signup()
    await http.post("/auth/register", json=body)
    status, _, _ = await enroll(settings, monkeypatch, capsys, body["email"])
    assert status == 1
    async with service.db.transaction() as s:
        assert await s.scalar(text("SELECT role FROM users")) == "BUYER"


async def test_an_operator_needs_a_code_and_each_code_works_once(http, settings, monkeypatch, capsys):
    _, password, secret = await enroll(settings, monkeypatch, capsys)
    creds = {"email": "desk@example.com", "password": password}
    missing = await http.post("/auth/login", json=creds)
    assert missing.status_code == 401 and missing.json()["code"] == "second_factor_required"
    wrong = await http.post("/auth/login", json={**creds, "code": "000000" if code(secret) != "000000" else "111111"})
    assert wrong.status_code == 401 and wrong.json()["code"] == "invalid_second_factor"
    assert (await http.post("/auth/login", json={**creds, "code": "12ab56"})).status_code == 401

    now_code = code(secret)
    first = await http.post("/auth/login", json={**creds, "code": now_code})
    assert first.status_code == 200
    replayed = await http.post("/auth/login", json={**creds, "code": now_code})
    assert replayed.status_code == 401 and replayed.json()["code"] == "invalid_second_factor"
    # an older step's code is refused too, once a newer one was accepted
    assert (await http.post("/auth/login", json={**creds, "code": code(secret, -1)})).status_code == 401


async def test_one_code_sent_twice_at_once_signs_in_once(http, settings, monkeypatch, capsys):
    _, password, secret = await enroll(settings, monkeypatch, capsys)
    body = {"email": "desk@example.com", "password": password, "code": code(secret, 1)}
    answers = await asyncio.gather(*(http.post("/auth/login", json=body) for _ in range(3)))
    assert sorted(a.status_code for a in answers) == [200, 401, 401]


async def test_a_wrong_password_with_a_right_code_is_a_failed_login(http, settings, monkeypatch, capsys):
    _, password, secret = await enroll(settings, monkeypatch, capsys)
    wrong = await http.post("/auth/login", json={"email": "desk@example.com", "password": "not it at all",
                                                 "code": code(secret)})
    assert wrong.status_code == 403 and wrong.json()["code"] == "login_failed"
    # the code was not spent by the failed attempt
    assert (await http.post("/auth/login", json={"email": "desk@example.com", "password": password,
                                                 "code": code(secret)})).status_code == 200


async def test_wrong_codes_are_throttled_like_passwords(http, settings, monkeypatch, capsys):
    _, password, secret = await enroll(settings, monkeypatch, capsys)
    creds = {"email": "desk@example.com", "password": password}
    bad = "000000" if code(secret) != "000000" else "111111"
    statuses = [(await http.post("/auth/login", json={**creds, "code": bad})).status_code for _ in range(4)]
    assert statuses == [401, 401, 401, 429]  # login_failures_per_email_and_client=3 in these tests
    assert (await http.post("/auth/login", json={**creds, "code": code(secret)})).status_code == 429


async def test_asking_for_the_code_does_not_count_as_a_failure(http, settings, monkeypatch, capsys):
    _, password, secret = await enroll(settings, monkeypatch, capsys)
    creds = {"email": "desk@example.com", "password": password}
    for _ in range(5):
        assert (await http.post("/auth/login", json=creds)).status_code == 401
    assert (await http.post("/auth/login", json={**creds, "code": code(secret)})).status_code == 200
