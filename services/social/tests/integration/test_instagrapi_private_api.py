"""The pinning adapter with the REAL instagrapi.Client against a locally served private API
(fake_private_api.py): the calls asserted here were built by the installed library, not by a stand-in."""

import json

import pytest
from pinbid_social.adapters.instagrapi_pinning import InstagrapiPinning, default_client
from pinbid_social.ports import LoginProblem, MediaRef, ProviderError, SessionExpired

from .fake_private_api import CAA, Account, FakePrivateApi, route_to

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
PERMALINK = "https://www.instagram.com/p/DAbCdEfGhIj/"
MEDIA_PK = sum(ALPHABET.index(c) * 64 ** i for i, c in enumerate(reversed("DAbCdEfGhIj")))  # shortcode → pk
COMMENT = 17850000000000001
MAYA, TWO_FACTOR, CHALLENGED = 4242, 4343, 4444


@pytest.fixture(scope="module")
def fake():
    api = FakePrivateApi()
    server = api.serve()
    yield api
    server.shutdown()
    server.server_close()


@pytest.fixture
def api(fake):
    fake.accounts = {"maya.makes": Account("maya.makes", "the-password", MAYA),
                     "two.factor": Account("two.factor", "the-password", TWO_FACTOR, two_factor_code="123456"),
                     "challenged": Account("challenged", "the-password", CHALLENGED, challenge=True)}
    fake.caa_login, fake.any_comment = True, False
    fake.comments, fake.pinned, fake.calls = {MEDIA_PK: {COMMENT, 17850000000000002}}, {}, []
    return fake


def pinning(fake: FakePrivateApi) -> InstagrapiPinning:
    return InstagrapiPinning(timeout=10, client_factory=lambda: route_to(default_client(0), fake))


def logged_in_user(session: str) -> str:
    return json.loads(session)["authorization_data"]["ds_user_id"]


async def test_login_through_the_caa_flow_keeps_only_the_session_then_pins_and_unpins_with_it(api):
    adapter = pinning(api)
    session = await adapter.login("maya.makes", "the-password", None)
    assert "the-password" not in session and logged_in_user(session) == str(MAYA)
    settings = json.loads(session)
    assert settings["authorization_data"]["sessionid"] in api.sessions
    assert api.paths() == [
        "/graphql_www", CAA + "bloks.caa.login.process_client_data_and_redirect/",
        "/api/v1/attestation/create_android_keystore/", CAA + "caa.login.oauth.token.fetch.async/",
        "/api/v1/qe/sync/", CAA + "bloks.caa.login.async.send_login_request/",
        "/api/v1/feed/reels_tray/", "/api/v1/feed/timeline/"]
    send = api.call(CAA + "bloks.caa.login.async.send_login_request/")
    sent = json.loads(send.form["params"])["client_input_params"]
    assert send.host == "b.i.instagram.com" and sent["contact_point"] == "maya.makes"
    assert sent["password"].startswith("#PWD_INSTAGRAM:4:") and api.decrypt(sent["password"]) == "the-password"
    assert sent["aac"] == "AAC-1" and "CHALLENGE-NONCE" in send.headers["x-ig-attest-params"]
    assert all("the-password" not in json.dumps(c.form) for c in api.calls)

    api.calls.clear()
    media = MediaRef("17900000000000001", PERMALINK)
    await adapter.pin(session, media, str(COMMENT))
    (pin,) = api.calls  # the kept session is used as is: no new login
    assert (pin.host, pin.method, pin.path) == ("i.instagram.com", "POST",
                                                f"/api/v1/media/{MEDIA_PK}/pin_comment/{COMMENT}/")
    assert pin.form["_uid"] == MAYA and pin.form["_uuid"] == settings["uuids"]["uuid"]
    assert pin.headers["authorization"].startswith("Bearer IGT:2:")
    assert api.pinned[MEDIA_PK] == {COMMENT}
    assert await adapter.pinned_comment_ids(session, media) == {str(COMMENT)}
    assert api.calls[-1].method == "GET" and api.calls[-1].path == f"/api/v1/media/{MEDIA_PK}/comments/"
    assert api.calls[-1].query["can_support_threading"] == "true"

    await adapter.unpin(session, media, str(COMMENT))
    assert api.calls[-1].path == f"/api/v1/media/{MEDIA_PK}/unpin_comment/{COMMENT}/"
    assert api.pinned[MEDIA_PK] == set() and await adapter.pinned_comment_ids(session, media) == set()


async def test_login_through_the_legacy_accounts_endpoint(api):
    api.caa_login = False  # the CAA answer routes the client back to accounts/login/
    session = await pinning(api).login("maya.makes", "the-password", None)
    assert logged_in_user(session) == str(MAYA)
    assert CAA + "bloks.caa.login.async.send_login_request/" in api.paths()
    login = api.call("/api/v1/accounts/login/")
    assert login.form["username"] == "maya.makes" and api.decrypt(login.form["enc_password"]) == "the-password"
    assert login.form["phone_id"] == json.loads(session)["uuids"]["phone_id"]
    assert api.paths()[-2:] == ["/api/v1/feed/reels_tray/", "/api/v1/feed/timeline/"]


async def test_two_factor_login_is_answered_by_a_second_login_with_the_code(api):
    adapter = pinning(api)
    with pytest.raises(LoginProblem) as asked:
        await adapter.login("two.factor", "the-password", None)
    assert asked.value.kind == "two_factor_required"
    assert api.paths()[-1] == "/api/v1/accounts/login/"
    with pytest.raises(LoginProblem) as wrong:
        await adapter.login("two.factor", "the-password", "000000")
    assert wrong.value.kind == "bad_verification_code"
    api.calls.clear()
    session = await adapter.login("two.factor", "the-password", "123456")
    assert logged_in_user(session) == str(TWO_FACTOR)
    answer = api.call("/api/v1/accounts/two_factor_login/")
    assert (answer.form["verification_code"], answer.form["two_factor_identifier"], answer.form["username"]) == (
        "123456", f"2FA-{TWO_FACTOR}", "two.factor")


async def test_a_challenge_is_reported_without_trying_to_resolve_it(api):
    with pytest.raises(LoginProblem) as problem:
        await pinning(api).login("challenged", "the-password", None)
    assert problem.value.kind == "challenge_required" and "This was me" in problem.value.detail
    assert api.paths()[-1] == "/api/v1/accounts/login/"  # no challenge/ calls, no input() prompt


async def test_a_wrong_password_is_reported_as_such(api):
    with pytest.raises(LoginProblem) as problem:
        await pinning(api).login("maya.makes", "not-it", None)
    assert problem.value.kind == "bad_password"
    assert api.paths().count("/api/v1/accounts/login/") == 1


async def test_pin_errors_from_the_private_api(api):
    adapter = pinning(api)
    session = await adapter.login("maya.makes", "the-password", None)
    with pytest.raises(ProviderError, match="refused the request"):
        await adapter.pin(session, MediaRef("1", PERMALINK), "999")  # not a comment of this post
    assert api.calls[-1].path == f"/api/v1/media/{MEDIA_PK}/pin_comment/999/" and not api.pinned.get(MEDIA_PK)
    with pytest.raises(ProviderError, match="no longer exists"):
        await adapter.pin(session, MediaRef("1", "https://www.instagram.com/p/BBBBBBBBBBB/"), str(COMMENT))
    api.sessions.clear()  # Instagram ended the session
    with pytest.raises(SessionExpired):
        await adapter.pin(session, MediaRef("1", PERMALINK), str(COMMENT))
    with pytest.raises(SessionExpired):
        await adapter.pinned_comment_ids(session, MediaRef("1", PERMALINK))
