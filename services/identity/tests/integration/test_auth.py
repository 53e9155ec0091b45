import asyncio

from sqlalchemy import text

from .conftest import bearer, login_status, signup


async def test_register_login_and_me(http):
    body = signup("INFLUENCER", email="  Maya@Example.com ")
    registered = await http.post("/auth/register", json=body)
    assert registered.status_code == 201
    user = registered.json()["user"]
    assert user["email"] == "maya@example.com" and user["role"] == "INFLUENCER"
    assert user["instagramHandle"] == "maya.makes" and user["instagramConnected"] is False
    assert user["influencerProfile"] == {"avgViews": 0, "followers": 0, "avgEngagement": 0.0, "verified": False}
    assert "instagramToken" not in user and "passwordHash" not in user

    login = await http.post("/auth/login", json={"email": "MAYA@example.com", "password": "correct horse"})
    assert login.status_code == 200
    me = await http.get("/auth/me", headers=bearer(login.json()["token"]))
    assert me.json()["id"] == user["id"]


async def test_buyer_gets_no_influencer_profile(http):
    response = await http.post("/auth/register", json=signup("BUYER", businessName="Northwind"))
    assert response.json()["user"]["influencerProfile"] is None
    assert response.json()["user"]["businessName"] == "Northwind"


async def test_same_email_twice_is_a_conflict_even_at_once(http, service):
    body = signup(email="twice@example.com")
    responses = await asyncio.gather(*(http.post("/auth/register", json={**body, "email": e})
                                       for e in ["twice@example.com", " TWICE@example.com", "Twice@Example.com "]))
    assert sorted(r.status_code for r in responses) == [201, 409, 409]
    conflict = next(r for r in responses if r.status_code == 409)
    assert conflict.json() == {"detail": "An account with this email already exists.", "code": "email_taken"}
    async with service.db.transaction() as s:
        assert await s.scalar(text("SELECT count(*) FROM users")) == 1
        assert await s.scalar(text("SELECT count(*) FROM outbox WHERE type = 'identity.user.registered.v1'")) == 1


async def test_bad_signups_are_422_and_store_nothing(http, service):
    cases = [
        signup(role="ADMIN"),
        signup(password="short"),
        signup(name="<b>Boss</b>"),
        signup(email="not-an-email"),
        signup("INFLUENCER", instagramHandle=None),
        signup(unknownField=1),
        signup(name="x" * 301),
        {**signup(), "password": 12345678},
    ]
    for body in cases:
        response = await http.post("/auth/register", json=body)
        assert response.status_code == 422, body
        assert response.json()["code"] == "validation_error" and response.json()["errors"]
    malformed = await http.post("/auth/register", content=b'{"name": ', headers={"content-type": "application/json"})
    assert malformed.status_code == 422
    async with service.db.transaction() as s:
        assert await s.scalar(text("SELECT count(*) FROM users")) == 0


async def test_wrong_password_and_unknown_email_look_the_same(http):
    body = signup()
    await http.post("/auth/register", json=body)
    wrong = await http.post("/auth/login", json={"email": body["email"], "password": "wrong password"})
    unknown = await http.post("/auth/login", json={"email": "nobody@example.com", "password": "wrong password"})
    assert wrong.status_code == unknown.status_code == 403
    assert wrong.json() == unknown.json() == {"detail": "Invalid email or password.", "code": "login_failed"}


async def test_me_without_or_with_a_bad_token_is_403(http):
    assert (await http.get("/auth/me")).status_code == 403
    assert (await http.get("/auth/me", headers=bearer("not.a.token"))).status_code == 403
    assert (await http.get("/auth/me", headers={"Authorization": "Basic abc"})).status_code == 403


async def test_change_password_revokes_earlier_tokens(http):
    body = signup()
    old = (await http.post("/auth/register", json=body)).json()["token"]
    other_old = (await http.post("/auth/login", json={"email": body["email"], "password": body["password"]})).json()[
        "token"]
    wrong = await http.post("/auth/change-password", json={"currentPassword": "not it!", "newPassword": "brand new pw"},
                            headers=bearer(old))
    assert wrong.status_code == 422 and wrong.json()["errors"][0]["field"] == "currentPassword"
    short = await http.post("/auth/change-password", json={"currentPassword": body["password"], "newPassword": "short"},
                            headers=bearer(old))
    assert short.status_code == 422
    changed = await http.post("/auth/change-password",
                              json={"currentPassword": body["password"], "newPassword": "brand new pw"},
                              headers=bearer(old))
    assert changed.status_code == 200
    new = changed.json()["token"]
    assert (await http.get("/auth/me", headers=bearer(old))).status_code == 403
    assert (await http.get("/auth/me", headers=bearer(other_old))).status_code == 403
    assert (await http.get("/auth/me", headers=bearer(new))).status_code == 200
    assert await login_status(http, body["email"], "brand new pw") == 200
