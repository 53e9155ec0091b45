"""A stolen session cannot take the account over: a new email needs the current password, is told to the
old address, and signs every earlier session out."""

import asyncio

from pinbid_testing import eventually
from sqlalchemy import text

from .conftest import bearer, login_status, mails, signup


async def account(http) -> tuple[dict, str, str]:
    """A user with two sessions (as on two devices)."""
    body = signup()
    first = (await http.post("/auth/register", json=body)).json()["token"]
    second = (await http.post("/auth/login", json={"email": body["email"], "password": body["password"]})).json()[
        "token"]
    return body, first, second


async def stored(service, email: str) -> tuple:
    async with service.db.transaction() as s:
        user = (await s.execute(text("SELECT name, email, token_version, password_hash FROM users WHERE email = :e"),
                                {"e": email})).one()
        events = await s.scalar(text("SELECT count(*) FROM outbox"))
        queued = await s.scalar(text("SELECT count(*) FROM mail_queue"))
        return tuple(user), events, queued


async def test_changing_only_the_name_needs_no_password_and_keeps_sessions(http):
    body, token, other = await account(http)
    changed = await http.put("/auth/profile", json={"name": " New  Name ", "email": body["email"].upper()},
                             headers=bearer(token))
    assert changed.status_code == 200
    assert changed.json()["name"] == "New Name" and changed.json()["email"] == body["email"]
    assert changed.json()["token"] is None
    assert (await http.get("/auth/me", headers=bearer(other))).json()["name"] == "New Name"


async def test_a_new_email_without_the_right_password_is_refused_and_changes_nothing(http, service, settings):
    body, token, other = await account(http)
    before = await stored(service, body["email"])
    attempts = [
        {"name": "Taken Over", "email": "thief@example.com"},
        {"name": "Taken Over", "email": "thief@example.com", "currentPassword": ""},
        {"name": "Taken Over", "email": "thief@example.com", "currentPassword": "not the password"},
        {"name": "Taken Over", "email": "thief@example.com", "currentPassword": body["password"].upper()},
    ]
    for attempt in attempts:
        refused = await http.put("/auth/profile", json=attempt, headers=bearer(token))
        assert refused.status_code == 422, attempt
        assert refused.json()["code"] == "wrong_password"
        assert refused.json()["errors"] == [{"field": "currentPassword", "message": refused.json()["detail"]}]
        assert await stored(service, body["email"]) == before
        assert (await http.get("/auth/me", headers=bearer(other))).json()["email"] == body["email"]
    missing = await http.put("/auth/profile", json=attempts[0], headers=bearer(token))
    assert missing.json()["detail"] == "Enter your current password to change your email address."
    wrong = await http.put("/auth/profile", json=attempts[2], headers=bearer(token))
    assert wrong.json()["detail"] == "Your current password is incorrect."
    assert await login_status(http, "thief@example.com", body["password"]) == 403
    assert not mails(settings.mail_folder)


async def test_bad_input_is_a_422_and_changes_nothing(http, service):
    body, token, _ = await account(http)
    before = await stored(service, body["email"])
    cases = [
        {"name": "X", "email": "new@example.com", "currentPassword": 12345678},
        {"name": "X", "email": "new@example.com", "currentPassword": "x" * 2000},
        {"name": "X", "email": "not-an-email", "currentPassword": body["password"]},
        {"name": "", "email": "new@example.com", "currentPassword": body["password"]},
        {"name": "X", "email": "new@example.com", "password": body["password"]},
    ]
    for case in cases:
        response = await http.put("/auth/profile", json=case, headers=bearer(token))
        assert response.status_code == 422, case
        assert response.json()["errors"] and response.json()["detail"]
        assert await stored(service, body["email"]) == before


async def test_a_new_email_with_the_password_revokes_sessions_and_tells_the_old_address(http, service, settings):
    body, token, other = await account(http)
    changed = await http.put("/auth/profile", headers=bearer(token), json={
        "name": body["name"], "email": " Moved@Example.com ", "currentPassword": body["password"]})
    assert changed.status_code == 200
    assert changed.json()["email"] == "moved@example.com" and changed.json()["token"]
    assert (await http.get("/auth/me", headers=bearer(token))).status_code == 403
    assert (await http.get("/auth/me", headers=bearer(other))).status_code == 403
    assert (await http.get("/auth/me", headers=bearer(changed.json()["token"]))).json()["email"] == "moved@example.com"
    assert await login_status(http, body["email"], body["password"]) == 403
    assert await login_status(http, "moved@example.com", body["password"]) == 200

    async with service.db.transaction() as s:
        types = (await s.scalars(text("SELECT type FROM outbox WHERE type LIKE 'identity.user.%' ORDER BY seq"))).all()
    assert types[-2:] == ["identity.user.updated.v1", "identity.user.sessions_revoked.v1"]

    async def mailed() -> bool:
        return bool(mails(settings.mail_folder))

    await eventually(mailed)
    [notice] = mails(settings.mail_folder)
    assert notice["To"] == body["email"] and notice["Subject"] == "Your Pinbid email address was changed"
    text_of_mail = notice.get_payload(decode=True).decode()
    assert "m•••@example.com" in text_of_mail and "moved@example.com" not in text_of_mail


async def test_a_taken_email_is_a_conflict_and_changes_nothing(http, service):
    body, token, _ = await account(http)
    other = signup()
    await http.post("/auth/register", json=other)
    before = await stored(service, body["email"])
    taken = await http.put("/auth/profile", headers=bearer(token), json={
        "name": "X", "email": other["email"].upper(), "currentPassword": body["password"]})
    assert taken.status_code == 409 and taken.json()["code"] == "email_taken"
    assert await stored(service, body["email"]) == before
    assert (await http.get("/auth/me", headers=bearer(token))).status_code == 200


async def test_two_accounts_moving_to_one_address_at_once(http, service):
    first, first_token, _ = await account(http)
    second, second_token, _ = await account(http)
    answers = await asyncio.gather(*(
        http.put("/auth/profile", headers=bearer(token), json={
            "name": "X", "email": "wanted@example.com", "currentPassword": body["password"]})
        for body, token in [(first, first_token), (second, second_token)]))
    assert sorted(a.status_code for a in answers) == [200, 409]
    async with service.db.transaction() as s:
        assert await s.scalar(text("SELECT count(*) FROM users WHERE email = 'wanted@example.com'")) == 1
        assert await s.scalar(text("SELECT count(*) FROM mail_queue")) == 1


async def test_a_stolen_session_cannot_guess_the_password_without_limit(http, service):
    body, token, _ = await account(http)
    before = await stored(service, body["email"])
    thief = {**bearer(token), "x-forwarded-for": "203.0.113.66"}
    guesses = [await http.put("/auth/profile", headers=thief, json={
        "name": "X", "email": "thief@example.com", "currentPassword": f"guess number {n}"}) for n in range(3)]
    guesses += [await http.post("/auth/change-password", headers=thief, json={
        "currentPassword": body["password"], "newPassword": "thief's password"})]
    assert [g.status_code for g in guesses] == [422, 422, 422, 429]
    assert int(guesses[-1].headers["retry-after"]) >= 1
    assert await stored(service, body["email"]) == before
    owner = await http.post("/auth/login", json={"email": body["email"], "password": body["password"]},
                            headers={"x-forwarded-for": "198.51.100.7"})
    assert owner.status_code == 200
