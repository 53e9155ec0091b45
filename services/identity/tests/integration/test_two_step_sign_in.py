"""Two-step sign-in with an authenticator app for brands and creators: enrolment, sign-in with a code or a recovery
code, turning it off, and the refusals of issue 33's "Bad input" list (each leaves the account as it was)."""

import asyncio
from datetime import UTC, datetime, timedelta

import jwt
import pyotp
from pinbid_identity.domain.second_factor import code_at
from pinbid_testing import eventually
from sqlalchemy import text

from .conftest import bearer, mails, signup


def code(secret: str, steps_ahead: int = 0) -> str:
    return code_at(secret, datetime.now(UTC) + timedelta(seconds=30 * steps_ahead))


def wrong(secret: str) -> str:
    """A well-formed code that is none of the accepted steps' codes."""
    near = {code(secret, s) for s in range(-1, 2)}
    return next(c for c in (f"{n:06d}" for n in range(1_000_000)) if c not in near)


async def signed_up(http, role="BUYER") -> tuple[dict, str]:
    body = signup(role=role)
    answer = await http.post("/auth/register", json=body)
    assert answer.status_code == 201
    return body, answer.json()["token"]


async def enrolled(http, role="BUYER") -> tuple[dict, str, str, list[str]]:
    """A user with TOTP on: (signup body, token, secret, recovery codes)."""
    body, token = await signed_up(http, role)
    began = await http.post("/auth/totp", headers=bearer(token))
    assert began.status_code == 201
    secret = began.json()["secret"]
    confirmed = await http.post("/auth/totp/confirm", json={"code": code(secret)}, headers=bearer(token))
    assert confirmed.status_code == 200, confirmed.text
    return body, confirmed.json()["token"], secret, confirmed.json()["recoveryCodes"]


async def state(service, email: str) -> tuple:
    async with service.db.transaction() as s:
        return (await s.execute(text(
            "SELECT totp_secret_sealed, totp_pending_sealed, totp_last_step, token_version, "
            "(SELECT count(*) FROM recovery_codes r WHERE r.user_id = u.id AND used_at IS NULL) AS codes "
            "FROM users u WHERE email = :e"), {"e": email})).one()


async def test_enrolment_answers_a_secret_and_an_otpauth_uri_then_a_code_turns_it_on(http, service, settings):
    body, token = await signed_up(http, "INFLUENCER")
    began = await http.post("/auth/totp", headers=bearer(token))
    secret, uri = began.json()["secret"], began.json()["otpauthUri"]
    parsed = pyotp.parse_uri(uri)
    assert parsed.secret == secret and parsed.issuer == "Pinbid" and parsed.name == body["email"]
    row = await state(service, body["email"])
    assert row.totp_secret_sealed is None and secret not in row.totp_pending_sealed
    assert settings.secret_box().open(row.totp_pending_sealed) == secret

    confirmed = await http.post("/auth/totp/confirm", json={"code": code(secret)}, headers=bearer(token))
    answer = confirmed.json()
    assert confirmed.status_code == 200 and answer["user"]["totpEnabled"] is True
    assert len(answer["recoveryCodes"]) == 10 and len(set(answer["recoveryCodes"])) == 10
    row = await state(service, body["email"])
    assert row.totp_pending_sealed is None and settings.secret_box().open(row.totp_secret_sealed) == secret
    assert row.codes == 10
    async with service.db.transaction() as s:
        stored = set(await s.scalars(text("SELECT code_hash FROM recovery_codes")))
    assert not stored & set(answer["recoveryCodes"])  # only digests are kept
    # the old session is signed out; the new token says a factor is on and was just proved
    assert (await http.get("/auth/me", headers=bearer(token))).status_code == 403
    claims = jwt.decode(answer["token"], options={"verify_signature": False})
    assert claims["mf"] is True and abs(claims["sf"] - datetime.now(UTC).timestamp()) < 30
    me = await http.get("/auth/me", headers=bearer(answer["token"]))
    assert me.json()["totpEnabled"] is True
    status = (await http.get("/auth/second-factor", headers=bearer(answer["token"]))).json()
    assert status["totpEnabled"] and status["recoveryCodesLeft"] == 10 and status["stepUpRequired"]
    assert status["stepUpUntil"] is not None


async def test_sign_in_asks_for_the_code_then_accepts_it_once(http, service):
    body, _, secret, _ = await enrolled(http)
    creds = {"email": body["email"], "password": body["password"]}
    asked = await http.post("/auth/login", json=creds)
    assert asked.status_code == 401 and asked.json()["code"] == "second_factor_required"
    assert asked.json()["factors"] == ["totp"]
    fresh = code(secret, 1)  # the confirm spent the current step
    signed_in = await http.post("/auth/login", json={**creds, "code": fresh})
    assert signed_in.status_code == 200 and signed_in.json()["user"]["totpEnabled"] is True
    replayed = await http.post("/auth/login", json={**creds, "code": fresh})
    assert replayed.status_code == 401 and replayed.json()["code"] == "invalid_second_factor"
    assert "token" not in replayed.json()


async def test_a_wrong_password_with_a_right_code_spends_nothing(http, service):
    body, _, secret, _ = await enrolled(http)
    before = await state(service, body["email"])
    refused = await http.post("/auth/login", json={"email": body["email"], "password": "wrong password!",
                                                   "code": code(secret, 1)})
    assert refused.status_code == 403 and refused.json()["code"] == "login_failed"
    assert await state(service, body["email"]) == before


async def test_a_recovery_code_signs_in_once(http, service):
    body, _, _, codes = await enrolled(http)
    creds = {"email": body["email"], "password": body["password"]}
    first = await http.post("/auth/login", json={**creds, "recoveryCode": codes[0].upper().replace("-", " ")})
    assert first.status_code == 200
    again = await http.post("/auth/login", json={**creds, "recoveryCode": codes[0]})
    assert again.status_code == 401 and again.json()["code"] == "invalid_second_factor"
    assert (await state(service, body["email"])).codes == 9


async def test_twenty_five_wrong_codes_in_a_row_are_throttled(http, service, settings):
    body, _, secret, _ = await enrolled(http)
    creds = {"email": body["email"], "password": body["password"]}
    bad = wrong(secret)
    statuses = [(await http.post("/auth/login", json={**creds, "code": bad})).status_code for _ in range(25)]
    allowed = settings.login_failures_per_email_and_client
    assert statuses[:allowed] == [401] * allowed and set(statuses[allowed:]) == {429}
    throttled = await http.post("/auth/login", json={**creds, "code": code(secret, 1)})
    assert throttled.status_code == 429 and int(throttled.headers["retry-after"]) > 0  # even the right code waits
    row = await state(service, body["email"])
    assert row.codes == 10 and row.totp_secret_sealed is not None


async def test_a_wrong_code_does_not_confirm_the_enrolment(http, service):
    body, token = await signed_up(http)
    secret = (await http.post("/auth/totp", headers=bearer(token))).json()["secret"]
    refused = await http.post("/auth/totp/confirm", json={"code": wrong(secret)}, headers=bearer(token))
    assert refused.status_code == 422 and refused.json()["code"] == "invalid_second_factor"
    assert refused.json()["errors"][0]["field"] == "code"
    row = await state(service, body["email"])
    assert row.totp_secret_sealed is None and row.codes == 0 and row.token_version == 0
    assert (await http.post("/auth/login", json={"email": body["email"],
                                                 "password": body["password"]})).status_code == 200


async def test_two_enrolments_at_once_leave_one_secret_whole(http, service, settings):
    """Two apps scanned two QR codes; whichever confirm runs, the account ends with one secret, its own recovery
    codes, and a code of the other secret refused: never a mix."""
    body, token = await signed_up(http)
    first = (await http.post("/auth/totp", headers=bearer(token))).json()["secret"]
    second = (await http.post("/auth/totp", headers=bearer(token))).json()["secret"]
    stale = await http.post("/auth/totp/confirm", json={"code": code(first)}, headers=bearer(token))
    assert stale.status_code == 422  # the first secret was replaced
    answers = await asyncio.gather(*(http.post("/auth/totp/confirm", json={"code": code(second)},
                                               headers=bearer(token)) for _ in range(2)))
    # the winner signed every other session out, the loser's included: it is refused as signed out
    assert sorted((a.status_code, a.json().get("code")) for a in answers) == [(200, None), (403, "invalid_token")]
    row = await state(service, body["email"])
    assert settings.secret_box().open(row.totp_secret_sealed) == second and row.totp_pending_sealed is None
    assert row.codes == 10
    winner = next(a for a in answers if a.status_code == 200).json()
    creds = {"email": body["email"], "password": body["password"]}
    assert (await http.post("/auth/login", json={**creds, "recoveryCode": winner["recoveryCodes"][0]})
            ).status_code == 200
    again = await http.post("/auth/totp/confirm", json={"code": code(second, 1)}, headers=bearer(winner["token"]))
    assert again.status_code == 409 and again.json()["code"] == "totp_already_enabled"


async def test_turning_it_off_needs_the_password_and_a_code(http, service, settings):
    body, token, secret, codes = await enrolled(http)
    for refused_body, status, error in (
            ({"password": "wrong password!", "code": code(secret, 1)}, 422, "wrong_password"),
            ({"password": body["password"]}, 422, "second_factor_required"),
            ({"password": body["password"], "code": wrong(secret)}, 401, "invalid_second_factor")):
        refused = await http.post("/auth/totp/disable", json=refused_body, headers=bearer(token))
        assert (refused.status_code, refused.json()["code"]) == (status, error)
        assert (await state(service, body["email"])).totp_secret_sealed is not None
    off = await http.post("/auth/totp/disable", json={"password": body["password"], "recoveryCode": codes[3]},
                          headers=bearer(token))
    assert off.status_code == 200 and off.json()["user"]["totpEnabled"] is False
    row = await state(service, body["email"])
    assert row.totp_secret_sealed is None and row.codes == 0
    assert (await http.post("/auth/login", json={"email": body["email"],
                                                 "password": body["password"]})).status_code == 200

    def subjects() -> list[str]:
        return [m["Subject"] for m in mails(settings.mail_folder)]

    await eventually(lambda: "Two-step sign-in was turned off on your Pinbid account" in subjects())
    off_mail = next(m for m in mails(settings.mail_folder) if "turned off" in m["Subject"])
    assert "Turn it on again in Settings" in off_mail.get_payload(decode=True).decode()
