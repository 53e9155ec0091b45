"""A NUL or a bidi override in the pinning login or in the OAuth callback's parameters is a 422 naming the
field, never a 500, and stores nothing."""

import pytest


async def stored(social) -> tuple:
    sessions = await social.sql("SELECT count(*) FROM pin_sessions")
    events = await social.sql("SELECT count(*) FROM outbox")
    return sessions[0][0], events[0][0]


@pytest.mark.parametrize(("field", "value"), [("username", "maya\x00makes"), ("username", "maya\u202emakes"),
                                              ("verificationCode", "12\x0034")])
async def test_a_pinning_login_with_a_control_character_is_a_422(social, field, value):
    creator = await social.user(handle="maya.makes")
    await social.connect(creator, username="maya.makes")
    before = await stored(social)
    body = {"username": "maya.makes", "password": "sandbox", field: value}
    response = await social.http.post("/influencer/instagram-login", json=body, headers=social.auth(creator))
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["field"] == field
    assert await stored(social) == before


@pytest.mark.parametrize("param", ["code", "state", "error"])
async def test_a_nul_in_the_oauth_callback_is_a_422(social, param):
    before = await stored(social)
    response = await social.http.get("/instagram/callback", params={param: "abc\x00def"})
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["field"] == param
    assert await stored(social) == before


async def test_a_nul_in_the_sandbox_authorize_form_is_a_400_page(social):
    creator = await social.user(handle="maya.makes")
    url, _ = await social.start_connect(creator)
    parts = url.split("/api", 1)[1]
    codes = await social.sql("SELECT count(*) FROM sandbox_codes")
    response = await social.http.post(parts, content="action=approve&username=maya%00makes",
                                      headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert response.status_code == 400 and "Invalid request" in response.text
    assert await social.sql("SELECT count(*) FROM sandbox_codes") == codes
