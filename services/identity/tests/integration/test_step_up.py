"""Step-up: with two-step sign-in on, changing the password or the email and adding or removing a passkey need a
second factor proved in the last few minutes; a code, a recovery code or a passkey proves it."""

import time
import uuid

import jwt
from pinbid_kit.step_up import STEP_UP_SECONDS
from pinbid_testing.webauthn import SoftAuthenticator
from sqlalchemy import text

from .conftest import bearer
from .test_passkeys import ORIGIN, registered
from .test_two_step_sign_in import code, enrolled, wrong


def stale(service, token: str, *, proved_seconds_ago: int | None) -> str:
    """The same session as `token`, re-signed as though it proved its factor that long ago (None: never)."""
    claims = jwt.decode(token, options={"verify_signature": False})
    proved = None if proved_seconds_ago is None else int(time.time()) - proved_seconds_ago
    return service.app.state.accounts.signer.sign(uuid.UUID(claims["sub"]), claims["role"], claims["tv"],
                                                  second_factor_on=True, second_factor_at=proved)


async def password_hash(service, email: str) -> str:
    async with service.db.transaction() as s:
        return await s.scalar(text("SELECT password_hash FROM users WHERE email = :e"), {"e": email})


async def test_a_session_confirmed_long_ago_must_step_up_to_change_the_password(http, service):
    body, token, secret, codes = await enrolled(http)
    old = stale(service, token, proved_seconds_ago=STEP_UP_SECONDS + 5)
    before = await password_hash(service, body["email"])
    change = {"currentPassword": body["password"], "newPassword": "a brand new secret"}
    refused = await http.post("/auth/change-password", json=change, headers=bearer(old))
    assert refused.status_code == 401 and refused.json()["code"] == "step_up_required"
    assert await password_hash(service, body["email"]) == before

    wrong_code = await http.post("/auth/step-up", json={"code": wrong(secret)}, headers=bearer(old))
    assert wrong_code.status_code == 401 and wrong_code.json()["code"] == "invalid_second_factor"
    stepped = await http.post("/auth/step-up", json={"code": code(secret, 1)}, headers=bearer(old))
    assert stepped.status_code == 200 and stepped.json()["stepUpUntil"]
    changed = await http.post("/auth/change-password", json=change, headers=bearer(stepped.json()["token"]))
    assert changed.status_code == 200 and await password_hash(service, body["email"]) != before
    # the new token (password changes revoke the others) keeps the proof's time
    assert jwt.decode(changed.json()["token"], options={"verify_signature": False})["sf"] == jwt.decode(
        stepped.json()["token"], options={"verify_signature": False})["sf"]


async def test_a_session_that_never_proved_a_factor_steps_up_with_a_recovery_code(http, service):
    body, token, _, codes = await enrolled(http)
    never = stale(service, token, proved_seconds_ago=None)
    new_email = {"name": body["name"], "email": f"new-{uuid.uuid4().hex[:6]}@example.com",
                 "currentPassword": body["password"]}
    refused = await http.put("/auth/profile", json=new_email, headers=bearer(never))
    assert refused.status_code == 401 and refused.json()["code"] == "step_up_required"
    name_only = await http.put("/auth/profile", json={"name": "Renamed", "email": body["email"]},
                               headers=bearer(never))
    assert name_only.status_code == 200  # a name is not sensitive
    stepped = await http.post("/auth/step-up", json={"recoveryCode": codes[0]}, headers=bearer(never))
    assert stepped.status_code == 200
    moved = await http.put("/auth/profile", json=new_email, headers=bearer(stepped.json()["token"]))
    assert moved.status_code == 200 and moved.json()["email"] == new_email["email"]
    reused = await http.post("/auth/step-up", json={"recoveryCode": codes[0]}, headers=bearer(never))
    assert reused.status_code in (401, 403)  # spent (and the email change signed `never` out)


async def test_adding_or_removing_a_passkey_needs_a_fresh_factor_and_a_passkey_can_prove_it(http, service):
    _, token, secret, _ = await enrolled(http, "INFLUENCER")
    device = SoftAuthenticator(ORIGIN)
    added = await registered(http, token, device)  # the confirm just proved the factor
    old = stale(service, token, proved_seconds_ago=STEP_UP_SECONDS + 5)
    for refused in (await http.post("/auth/passkeys/register/options", headers=bearer(old)),
                    await http.delete(f"/auth/passkeys/{added['id']}", headers=bearer(old))):
        assert refused.status_code == 401 and refused.json()["code"] == "step_up_required"
    options = (await http.post("/auth/step-up/options", headers=bearer(old))).json()["options"]
    assert len(options["allowCredentials"]) == 1
    replay_source = device.authenticate(options)
    stepped = await http.post("/auth/step-up", json={"credential": replay_source}, headers=bearer(old))
    assert stepped.status_code == 200
    replayed = await http.post("/auth/step-up", json={"credential": replay_source}, headers=bearer(old))
    assert replayed.status_code == 401 and replayed.json()["code"] == "invalid_second_factor"
    removed = await http.delete(f"/auth/passkeys/{added['id']}", headers=bearer(stepped.json()["token"]))
    assert removed.status_code == 204


async def test_another_users_passkey_cannot_answer_my_step_up(http, service):
    _, mine, _, _ = await enrolled(http)
    _, their_device = await _signed_up_with_passkey(http)
    await registered(http, mine, SoftAuthenticator(ORIGIN))
    options = (await http.post("/auth/step-up/options", headers=bearer(mine))).json()["options"]
    theirs = their_device.authenticate(options, their_device.passkeys[0])
    refused = await http.post("/auth/step-up", json={"credential": theirs}, headers=bearer(mine))
    assert refused.status_code == 401 and refused.json()["code"] == "invalid_second_factor"


async def _signed_up_with_passkey(http):
    from .test_passkeys import signed_up
    _, token = await signed_up(http)
    device = SoftAuthenticator(ORIGIN)
    await registered(http, token, device)
    return token, device


async def test_without_two_step_sign_in_nothing_asks_for_a_step_up(http):
    from .test_passkeys import signed_up
    body, token = await signed_up(http)
    changed = await http.post("/auth/change-password", headers=bearer(token),
                              json={"currentPassword": body["password"], "newPassword": "another fine one"})
    assert changed.status_code == 200
    nothing = await http.post("/auth/step-up", json={"code": "123456"}, headers=bearer(changed.json()["token"]))
    assert nothing.status_code == 409 and nothing.json()["code"] == "no_second_factor"


async def test_a_passkey_sign_in_is_fresh_and_operators_may_use_one(http, service, settings, monkeypatch, capsys):
    from .test_operators import enroll
    status, password, secret = await enroll(settings, monkeypatch, capsys)
    signed_in = await http.post("/auth/login", json={"email": "desk@example.com", "password": password,
                                                     "code": code(secret)})
    token = signed_in.json()["token"]
    device = SoftAuthenticator(ORIGIN)
    await registered(http, token, device, name="Desk key")
    asked = await http.post("/auth/login", json={"email": "desk@example.com", "password": password})
    assert asked.json()["factors"] == ["totp", "passkey"]
    options = (await http.post("/auth/passkeys/login/options", json={"email": "desk@example.com"})).json()["options"]
    by_passkey = await http.post("/auth/passkeys/login", json={"credential": device.authenticate(options)})
    assert by_passkey.status_code == 200 and by_passkey.json()["user"]["role"] == "OPERATOR"
    claims = jwt.decode(by_passkey.json()["token"], options={"verify_signature": False})
    assert claims["mf"] is True and claims["exp"] - claims["iat"] == settings.operator_token_ttl_seconds
    assert time.time() - claims["sf"] < 30


async def test_a_password_change_is_mailed_with_how_to_undo_it(http, settings):
    from pinbid_testing import eventually

    from .conftest import mails
    from .test_passkeys import signed_up
    body, token = await signed_up(http)
    changed = await http.post("/auth/change-password", headers=bearer(token),
                              json={"currentPassword": body["password"], "newPassword": "another fine one"})
    assert changed.status_code == 200
    def sent() -> list:
        return [m for m in mails(settings.mail_folder) if m["Subject"] == "Your Pinbid password was changed"]

    await eventually(lambda: bool(sent()))
    [message] = sent()
    assert message["To"] == body["email"] and "Forgot password" in message.get_payload(decode=True).decode()


async def test_wrong_step_up_codes_are_throttled(http, service, settings):
    _, token, secret, _ = await enrolled(http)
    old = stale(service, token, proved_seconds_ago=STEP_UP_SECONDS + 5)
    statuses = [(await http.post("/auth/step-up", json={"code": wrong(secret)}, headers=bearer(old))).status_code
                for _ in range(25)]
    allowed = settings.login_failures_per_email_and_client
    assert statuses[:allowed] == [401] * allowed and set(statuses[allowed:]) == {429}
