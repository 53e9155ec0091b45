"""A NUL, another control character or a bidi override in any text field is a 422 naming the field, never a
500, and changes nothing."""

import pytest
from sqlalchemy import text

from .conftest import bearer, signup

BAD = ["Maya\x00Makes", "Maya\x1bMakes", "Maya \u202eekaM", "Maya\u2066Makes", "Maya\nMakes"]


async def counts(service) -> tuple:
    async with service.db.transaction() as session:
        return tuple([await session.scalar(text(f"SELECT count(*) FROM {table}"))
                      for table in ("users", "outbox", "mail_queue")])


@pytest.mark.parametrize("bad", BAD)
@pytest.mark.parametrize(("field", "role"), [("name", "BUYER"), ("businessName", "BUYER"), ("email", "BUYER"),
                                            ("instagramHandle", "INFLUENCER")])
async def test_signup_with_a_control_character_is_a_422_and_makes_no_account(shared_http, shared_service, field, role,
                                                                          bad):
    body = signup(role)
    body[field] = bad if field != "email" else bad.replace(" ", "") + "@example.com"
    before = await counts(shared_service)
    response = await shared_http.post("/auth/register", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["code"] and field in {e["field"] for e in response.json()["errors"]}
    assert await counts(shared_service) == before


async def test_login_and_forgotten_password_with_a_nul_in_the_email_are_422(http, service):
    body = signup()
    assert (await http.post("/auth/register", json=body)).status_code == 201
    before = await counts(service)
    for path, payload in (("/auth/login", {"email": body["email"] + "\x00", "password": body["password"]}),
                          ("/auth/login", {"email": "\x00" + body["email"], "password": "wrong"}),
                          ("/auth/forgot-password", {"email": body["email"] + "\x00"})):
        response = await http.post(path, json=payload)
        assert response.status_code == 422, response.text
        assert response.json()["errors"][0]["field"] == "email"
    assert await counts(service) == before
    owner = await http.post("/auth/login", json={"email": body["email"], "password": body["password"]})
    assert owner.status_code == 200  # nothing was counted against the account


@pytest.mark.parametrize("bad", BAD)
async def test_a_profile_name_with_a_control_character_is_a_422_and_changes_nothing(http, service, bad):
    registered = (await http.post("/auth/register", json=signup())).json()
    headers = bearer(registered["token"])
    before = (await http.get("/auth/me", headers=headers)).json()
    response = await http.put("/auth/profile", json={"name": bad, "email": before["email"]}, headers=headers)
    assert response.status_code == 422 and response.json()["errors"][0]["field"] == "name"
    assert (await http.get("/auth/me", headers=headers)).json() == before
