from pinbid_testing import eventually
from sqlalchemy import text

from .conftest import bearer, login_status, mails, reset_token, signup

SENT = "If an account with that email exists, you will receive a password reset link."


async def test_forgot_password_answers_the_same_and_mails_only_real_users(http, settings, service):
    body = signup(email="reset-me@example.com")
    await http.post("/auth/register", json=body)
    known = await http.post("/auth/forgot-password", json={"email": " Reset-Me@example.com"})
    unknown = await http.post("/auth/forgot-password", json={"email": "nobody@example.com"})
    assert known.status_code == unknown.status_code == 202
    assert known.json() == unknown.json() == {"detail": SENT}

    async def one_mail() -> bool:
        return len(mails(settings.mail_folder)) == 1

    await eventually(one_mail)
    message = mails(settings.mail_folder)[0]
    assert message["To"] == "reset-me@example.com" and message["Subject"] == "Reset your Pinbid password"
    async with service.db.transaction() as s:
        stored = await s.scalar(text("SELECT token_hash FROM password_resets"))
        assert stored != reset_token(message) and len(stored) == 64  # stored hashed

    async def link_gone_from_the_queue() -> bool:  # the mailer clears the body when it commits the sending
        async with service.db.transaction() as s:
            return await s.scalar(text("SELECT body FROM mail_queue")) == ""

    await eventually(link_gone_from_the_queue)


async def test_reset_sets_the_password_once_and_revokes_sessions(http, settings):
    body = signup(email="once@example.com")
    old_token = (await http.post("/auth/register", json=body)).json()["token"]
    await http.post("/auth/forgot-password", json={"email": "once@example.com"})

    async def mailed() -> bool:
        return bool(mails(settings.mail_folder))

    await eventually(mailed)
    token = reset_token(mails(settings.mail_folder)[0])
    mismatch = await http.post("/auth/reset-password", json={"token": token, "newPassword": "short"})
    assert mismatch.status_code == 422
    done = await http.post("/auth/reset-password", json={"token": token, "newPassword": "a fresh password"})
    assert done.status_code == 200
    assert done.json()["detail"] == "Your password has been reset. You can now log in with your new password."
    again = await http.post("/auth/reset-password", json={"token": token, "newPassword": "another password"})
    assert again.status_code == 422 and again.json()["code"] == "invalid_reset_token"
    assert (await http.get("/auth/me", headers=bearer(old_token))).status_code == 403
    login = await http.post("/auth/login", json={"email": "once@example.com", "password": "a fresh password"})
    assert login.status_code == 200


async def test_expired_or_unknown_reset_tokens_are_refused(http, settings, service):
    body = signup(email="late@example.com")
    await http.post("/auth/register", json=body)
    await http.post("/auth/forgot-password", json={"email": "late@example.com"})

    async def mailed() -> bool:
        return bool(mails(settings.mail_folder))

    await eventually(mailed)
    token = reset_token(mails(settings.mail_folder)[0])
    async with service.db.transaction() as s:
        await s.execute(text("UPDATE password_resets SET expires_at = now() - interval '1 second'"))
    expired = await http.post("/auth/reset-password", json={"token": token, "newPassword": "a fresh password"})
    unknown = await http.post("/auth/reset-password", json={"token": "made-up", "newPassword": "a fresh password"})
    assert expired.status_code == unknown.status_code == 422
    assert await login_status(http, "late@example.com", body["password"]) == 200
