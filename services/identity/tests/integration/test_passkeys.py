"""Passkeys through identity's API with a software authenticator (pinbid_testing.webauthn): register, list, sign in
with a passkey alone, remove; and every refusal of issue 33's "Bad input" list, each signing nobody in and leaving
the account as it was."""

import asyncio
import copy

from pinbid_testing import eventually
from pinbid_testing.webauthn import SoftAuthenticator, b64url
from sqlalchemy import text

from .conftest import bearer, mails, signup

ORIGIN = "http://localhost:8000"  # the settings' default public URL


async def signed_up(http, role="INFLUENCER") -> tuple[dict, str]:
    body = signup(role=role)
    answer = await http.post("/auth/register", json=body)
    return body, answer.json()["token"]


async def registered(http, token: str, device: SoftAuthenticator, name="Laptop") -> dict:
    options = (await http.post("/auth/passkeys/register/options", headers=bearer(token))).json()["options"]
    answer = await http.post("/auth/passkeys/register", headers=bearer(token),
                             json={"name": name, "credential": device.register(options)})
    assert answer.status_code == 201, answer.text
    return answer.json()


async def login_options(http, email: str | None = None) -> dict:
    answer = await http.post("/auth/passkeys/login/options", json={"email": email} if email else {})
    assert answer.status_code == 200
    return answer.json()["options"]


async def passkey_rows(service) -> list:
    async with service.db.transaction() as s:
        return list((await s.execute(text("SELECT user_id, name, sign_count, last_used_at FROM passkeys "
                                          "ORDER BY created_at"))).all())


async def test_register_then_sign_in_with_the_passkey_alone(http, service, settings):
    body, token = await signed_up(http)
    device = SoftAuthenticator(ORIGIN)
    options = (await http.post("/auth/passkeys/register/options", headers=bearer(token))).json()["options"]
    assert options["rp"] == {"id": "localhost", "name": "Pinbid"}
    assert options["authenticatorSelection"]["residentKey"] == "required"
    added = await http.post("/auth/passkeys/register", headers=bearer(token),
                            json={"name": "MacBook Touch ID", "credential": device.register(options)})
    assert added.status_code == 201 and added.json()["name"] == "MacBook Touch ID"
    assert added.json()["lastUsedAt"] is None

    discoverable = await login_options(http)
    assert discoverable["allowCredentials"] == [] and discoverable["rpId"] == "localhost"
    assert discoverable["userVerification"] == "required"
    signed_in = await http.post("/auth/passkeys/login", json={"credential": device.authenticate(discoverable)})
    assert signed_in.status_code == 200 and signed_in.json()["user"]["email"] == body["email"]
    assert (await http.get("/auth/me", headers=bearer(signed_in.json()["token"]))).status_code == 200

    with_email = await login_options(http, body["email"].upper())
    assert [c["id"] for c in with_email["allowCredentials"]] == [b64url(device.passkeys[0].credential_id)]
    listed = (await http.get("/auth/passkeys", headers=bearer(token))).json()
    assert [(p["name"], p["lastUsedAt"] is not None) for p in listed] == [("MacBook Touch ID", True)]
    await eventually(lambda: any("passkey was added" in m["Subject"] for m in mails(settings.mail_folder)))


async def test_an_unknown_email_gets_the_same_discoverable_options(http):
    options = await login_options(http, "nobody@example.com")
    assert options["allowCredentials"] == []
    no_body = await http.post("/auth/passkeys/login/options")
    assert no_body.status_code == 200 and no_body.json()["options"]["allowCredentials"] == []


async def test_a_replayed_assertion_is_refused(http, service):
    _, token = await signed_up(http)
    device = SoftAuthenticator(ORIGIN)
    await registered(http, token, device)
    assertion = device.authenticate(await login_options(http))
    assert (await http.post("/auth/passkeys/login", json={"credential": assertion})).status_code == 200
    before = await passkey_rows(service)
    replayed = await http.post("/auth/passkeys/login", json={"credential": assertion})
    assert replayed.status_code == 403 and replayed.json()["code"] == "passkey_login_failed"
    assert "expired or was already used" in replayed.json()["detail"] and "token" not in replayed.json()
    assert await passkey_rows(service) == before


async def test_the_same_assertion_twice_at_once_signs_in_once(http, service):
    _, token = await signed_up(http)
    device = SoftAuthenticator(ORIGIN)
    await registered(http, token, device)
    assertion = device.authenticate(await login_options(http))
    answers = await asyncio.gather(*(http.post("/auth/passkeys/login", json={"credential": assertion})
                                     for _ in range(3)))
    assert sorted(a.status_code for a in answers) == [200, 403, 403]


async def test_an_assertion_for_another_origin_or_relying_party_is_refused(http, service):
    _, token = await signed_up(http)
    device = SoftAuthenticator(ORIGIN)
    await registered(http, token, device)
    before = await passkey_rows(service)
    for made_elsewhere in ({"origin": "https://pinbid.evil.example"}, {"rp_id": "evil.example"},
                           {"origin": "http://127.0.0.1:8000"}):
        assertion = device.authenticate(await login_options(http), **made_elsewhere)
        refused = await http.post("/auth/passkeys/login", json={"credential": assertion})
        assert refused.status_code == 403 and refused.json()["code"] == "passkey_login_failed", made_elsewhere
        assert "another site or address" in refused.json()["detail"]
    assert await passkey_rows(service) == before


async def test_a_registration_made_for_another_origin_is_refused(http, service):
    _, token = await signed_up(http)
    device = SoftAuthenticator(ORIGIN)
    options = (await http.post("/auth/passkeys/register/options", headers=bearer(token))).json()["options"]
    refused = await http.post("/auth/passkeys/register", headers=bearer(token), json={
        "name": "Phish", "credential": device.register(options, origin="https://pinbid.evil.example")})
    assert refused.status_code == 422 and refused.json()["code"] == "invalid_passkey"
    assert await passkey_rows(service) == []


async def test_a_sign_counter_going_backwards_is_refused(http, service):
    _, token = await signed_up(http)
    device = SoftAuthenticator(ORIGIN)
    await registered(http, token, device)
    for _ in range(3):
        assertion = device.authenticate(await login_options(http))
        assert (await http.post("/auth/passkeys/login", json={"credential": assertion})).status_code == 200
    before = await passkey_rows(service)
    assert before[0].sign_count == 3
    copied = device.authenticate(await login_options(http), sign_count=2)
    refused = await http.post("/auth/passkeys/login", json={"credential": copied})
    assert refused.status_code == 403 and "counter went backwards" in refused.json()["detail"]
    same = device.authenticate(await login_options(http), sign_count=3)
    assert (await http.post("/auth/passkeys/login", json={"credential": same})).status_code == 403
    assert await passkey_rows(service) == before


async def test_a_passkey_that_does_not_count_keeps_working(http):
    _, token = await signed_up(http)
    device = SoftAuthenticator(ORIGIN, counts=False)
    await registered(http, token, device)
    for _ in range(2):
        assertion = device.authenticate(await login_options(http))
        assert (await http.post("/auth/passkeys/login", json={"credential": assertion})).status_code == 200


async def test_a_removed_passkey_no_longer_signs_in(http, service):
    _, token = await signed_up(http)
    device = SoftAuthenticator(ORIGIN)
    added = await registered(http, token, device)
    options = await login_options(http)
    assert (await http.delete(f"/auth/passkeys/{added['id']}", headers=bearer(token))).status_code == 204
    refused = await http.post("/auth/passkeys/login", json={"credential": device.authenticate(options)})
    assert refused.status_code == 403 and "not registered" in refused.json()["detail"]
    assert await passkey_rows(service) == []


async def test_someone_elses_passkey_cannot_be_removed(http, service):
    _, mine = await signed_up(http)
    _, theirs = await signed_up(http, "BUYER")
    added = await registered(http, theirs, SoftAuthenticator(ORIGIN))
    refused = await http.delete(f"/auth/passkeys/{added['id']}", headers=bearer(mine))
    assert refused.status_code == 404
    assert len(await passkey_rows(service)) == 1


async def test_a_registration_for_someone_elses_account_is_refused(http, service):
    """A registration challenge issued to one account cannot add a passkey to another."""
    _, victim = await signed_up(http)
    _, attacker = await signed_up(http, "BUYER")
    device = SoftAuthenticator(ORIGIN)
    options = (await http.post("/auth/passkeys/register/options", headers=bearer(attacker))).json()["options"]
    forged = copy.deepcopy(options)
    refused = await http.post("/auth/passkeys/register", headers=bearer(victim),
                              json={"name": "Mine now", "credential": device.register(forged)})
    assert refused.status_code == 422 and refused.json()["code"] == "invalid_passkey"
    assert await passkey_rows(service) == []
    # the attacker's own challenge is still theirs to use: it was not spent by the refused attempt
    ok = await http.post("/auth/passkeys/register", headers=bearer(attacker),
                         json={"name": "Mine", "credential": device.register(options)})
    assert ok.status_code == 201


async def test_a_registration_cannot_be_replayed(http, service):
    _, token = await signed_up(http)
    device = SoftAuthenticator(ORIGIN)
    options = (await http.post("/auth/passkeys/register/options", headers=bearer(token))).json()["options"]
    credential = device.register(options)
    assert (await http.post("/auth/passkeys/register", headers=bearer(token),
                            json={"name": "A", "credential": credential})).status_code == 201
    again = await http.post("/auth/passkeys/register", headers=bearer(token),
                            json={"name": "B", "credential": credential})
    assert again.status_code == 422 and "expired or was already used" in again.json()["detail"]
    assert len(await passkey_rows(service)) == 1


async def test_user_verification_is_required(http, service):
    _, token = await signed_up(http)
    device = SoftAuthenticator(ORIGIN)
    await registered(http, token, device)
    refused = await http.post("/auth/passkeys/login", json={
        "credential": device.authenticate(await login_options(http), verified=False)})
    assert refused.status_code == 403 and refused.json()["code"] == "passkey_login_failed"


async def test_malformed_credentials_are_422s_not_500s(http):
    for bad in ({}, {"credential": {"id": "x", "rawId": "x", "type": "public-key", "response": {}}},
                {"credential": {"id": "!!", "rawId": "x", "type": "public-key",
                                "response": {"clientDataJSON": "e30", "authenticatorData": "AA", "signature": "AA"}}}):
        assert (await http.post("/auth/passkeys/login", json=bad)).status_code == 422
    garbage = {"credential": {"id": "AAAA", "rawId": "AAAA", "type": "public-key",
                              "response": {"clientDataJSON": "e30", "authenticatorData": "AA", "signature": "AA"}}}
    refused = await http.post("/auth/passkeys/login", json=garbage)
    assert refused.status_code == 403 and refused.json()["code"] == "passkey_login_failed"


async def test_an_expired_challenge_is_refused(http, service):
    _, token = await signed_up(http)
    device = SoftAuthenticator(ORIGIN)
    await registered(http, token, device)
    options = await login_options(http)
    async with service.db.transaction() as s:
        await s.execute(text("UPDATE webauthn_challenges SET expires_at = now() - interval '1 second'"))
    refused = await http.post("/auth/passkeys/login", json={"credential": device.authenticate(options)})
    assert refused.status_code == 403 and "expired or was already used" in refused.json()["detail"]
