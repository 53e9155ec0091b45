import asyncio
import re
from email import message_from_bytes, policy
from urllib.parse import parse_qs, urlparse

from pinbid_testing import client, eventually, running
from sqlalchemy import text

CHECK_INBOX = {"detail": "Check your inbox to confirm your subscription."}
PUBLIC_URL = "http://pinbid.test"  # as in conftest.py
LINK = re.compile(r"http://pinbid\.test/api/newsletter/(confirm|unsubscribe)\?token=(\S+)")


async def mails(service, to: str) -> list[tuple[str, str]]:
    async with service.db.transaction() as session:
        rows = await session.execute(text("SELECT subject, body FROM mail_queue WHERE to_address = :to ORDER BY id"),
                                     {"to": to})
        return [(r.subject, r.body) for r in rows]


async def subscriber(service, email: str):
    async with service.db.transaction() as session:
        return (await session.execute(text("SELECT * FROM subscribers WHERE email = :e"), {"e": email})).first()


async def age_last_mail(service, email: str, minutes: int) -> None:
    """Moves the throttle clock instead of sleeping: the last mail is now `minutes` old."""
    async with service.db.transaction() as session:
        await session.execute(text("UPDATE subscribers SET last_mail_at = now() - make_interval(mins => :m) "
                                   "WHERE email = :e"), {"m": minutes, "e": email})


def link(body: str, kind: str) -> str:
    found = [token for k, token in LINK.findall(body) if k == kind]
    assert len(found) == 1, body
    return found[0]


async def test_double_opt_in_then_unsubscribe(make_service, articles_dir):
    service = make_service(articles_dir)
    async with client(service.app) as http:
        response = await http.post("/newsletter/subscribe", json={"email": "  Ana@Example.COM "})
        assert (response.status_code, response.json()) == (202, CHECK_INBOX)
        [(subject, body)] = await mails(service, "ana@example.com")
        assert "Confirm" in subject and "48 hours" in body
        assert (await subscriber(service, "ana@example.com")).status == "PENDING"
        token = link(body, "confirm")
        assert token not in str(await subscriber(service, "ana@example.com"))  # only its digest is kept

        confirmed = await http.get("/newsletter/confirm", params={"token": token})
        assert confirmed.status_code == 303
        assert confirmed.headers["location"] == f"{PUBLIC_URL}/blog?subscribed=1"
        assert (await subscriber(service, "ana@example.com")).status == "CONFIRMED"
        again = await http.get("/newsletter/confirm", params={"token": token})  # a second click is not an error
        assert again.headers["location"] == f"{PUBLIC_URL}/blog?subscribed=1"

        sent = await mails(service, "ana@example.com")
        assert len(sent) == 2  # the confirmation and one welcome, not two
        unsubscribe = link(sent[1][1], "unsubscribe")
        gone = await http.get("/newsletter/unsubscribe", params={"token": unsubscribe})
        assert (gone.status_code, gone.headers["location"]) == (303, f"{PUBLIC_URL}/blog?unsubscribed=1")
        assert (await subscriber(service, "ana@example.com")).status == "UNSUBSCRIBED"
        twice = await http.get("/newsletter/unsubscribe", params={"token": unsubscribe})
        assert twice.headers["location"] == f"{PUBLIC_URL}/blog?unsubscribed=1"
        stale = await http.get("/newsletter/confirm", params={"token": token})  # cannot resubscribe silently
        assert stale.headers["location"] == f"{PUBLIC_URL}/blog?subscribed=invalid"
        assert (await subscriber(service, "ana@example.com")).status == "UNSUBSCRIBED"


async def test_bad_links_redirect_as_invalid(make_service, articles_dir):
    service = make_service(articles_dir)
    async with client(service.app) as http:
        for path, kind in (("/newsletter/confirm", "subscribed"), ("/newsletter/unsubscribe", "unsubscribed")):
            for params in ({}, {"token": "nope"}, {"token": "x" * 5000},
                           {"token": "0" * 32 + "." + "f" * 40}):
                response = await http.get(path, params=params)
                assert response.status_code == 303, (path, params)
                assert response.headers["location"] == f"{PUBLIC_URL}/blog?{kind}=invalid"


async def test_confirmation_link_expires(make_service, articles_dir):
    service = make_service(articles_dir)
    async with client(service.app) as http:
        await http.post("/newsletter/subscribe", json={"email": "late@example.com"})
        token = link((await mails(service, "late@example.com"))[0][1], "confirm")
        async with service.db.transaction() as session:
            await session.execute(text("UPDATE subscribers SET confirm_expires_at = now() - interval '1 second'"))
        response = await http.get("/newsletter/confirm", params={"token": token})
    assert response.headers["location"] == f"{PUBLIC_URL}/blog?subscribed=invalid"
    assert (await subscriber(service, "late@example.com")).status == "PENDING"


async def test_same_answer_whoever_asks_and_one_mail_per_interval(make_service, articles_dir):
    service = make_service(articles_dir)
    async with client(service.app) as http:
        await http.post("/newsletter/subscribe", json={"email": "known@example.com"})
        token = link((await mails(service, "known@example.com"))[0][1], "confirm")
        await http.get("/newsletter/confirm", params={"token": token})
        await http.post("/newsletter/subscribe", json={"email": "pending@example.com"})

        answers = [await http.post("/newsletter/subscribe", json={"email": email})
                   for email in ("known@example.com", "pending@example.com", "new@example.com")]
        assert {(r.status_code, r.text) for r in answers} == {(202, answers[0].text)}
        assert len(await mails(service, "known@example.com")) == 2       # within the interval: no new mail
        assert len(await mails(service, "pending@example.com")) == 1
        assert len(await mails(service, "new@example.com")) == 1

        await age_last_mail(service, "known@example.com", 11)
        await age_last_mail(service, "pending@example.com", 11)
        await http.post("/newsletter/subscribe", json={"email": "known@example.com"})
        await http.post("/newsletter/subscribe", json={"email": "pending@example.com"})
        known = await mails(service, "known@example.com")
        pending = await mails(service, "pending@example.com")
    assert len(known) == 3 and "already subscribed" in known[2][0]
    assert "/api/newsletter/unsubscribe?token=" in known[2][1] and "confirm?token" not in known[2][1]
    assert (await subscriber(service, "known@example.com")).status == "CONFIRMED"
    assert len(pending) == 2 and link(pending[1][1], "confirm") != link(pending[0][1], "confirm")


async def test_concurrent_subscribes_send_one_mail(make_service, articles_dir):
    service = make_service(articles_dir)
    async with client(service.app) as http:
        responses = await asyncio.gather(*(http.post("/newsletter/subscribe", json={"email": "rush@example.com"})
                                           for _ in range(25)))
    assert all(r.status_code == 202 for r in responses)
    assert len(await mails(service, "rush@example.com")) == 1
    async with service.db.transaction() as session:
        assert await session.scalar(text("SELECT count(*) FROM subscribers")) == 1


async def test_concurrent_confirms_send_one_welcome(make_service, articles_dir):
    service = make_service(articles_dir)
    async with client(service.app) as http:
        await http.post("/newsletter/subscribe", json={"email": "click@example.com"})
        token = link((await mails(service, "click@example.com"))[0][1], "confirm")
        responses = await asyncio.gather(*(http.get("/newsletter/confirm", params={"token": token})
                                           for _ in range(10)))
    assert {r.headers["location"] for r in responses} == {f"{PUBLIC_URL}/blog?subscribed=1"}
    assert len(await mails(service, "click@example.com")) == 2


async def test_bad_subscribe_input_is_422(make_service, articles_dir):
    service = make_service(articles_dir)
    async with client(service.app) as http:
        for body in ({"email": "not-an-email"}, {"email": ""}, {}, {"email": "a@example.com", "name": "x"},
                     {"email": "a" * 300 + "@example.com"}, {"email": "x" * 100_000}, {"email": 5}):
            response = await http.post("/newsletter/subscribe", json=body)
            assert response.status_code == 422, body
            assert response.json()["code"] in ("validation_error", "invalid_email") and response.json()["errors"]
        assert (await http.post("/newsletter/subscribe", content=b"{oops",
                                headers={"content-type": "application/json"})).status_code == 422
    async with service.db.transaction() as session:
        assert await session.scalar(text("SELECT count(*) FROM mail_queue")) == 0


async def test_running_service_loads_articles_and_sends_mail(make_service, shipped_articles, tmp_path):
    service = make_service(shipped_articles)
    async with running(service):
        async with client(service.app) as http:
            async def loaded() -> bool:
                return (await http.get("/blog/articles")).json()["total"] >= 6

            await eventually(loaded)
            await http.post("/newsletter/subscribe", json={"email": "reader@example.com"})

            def delivered() -> list:
                return sorted((tmp_path / "mail").glob("*.eml")) if (tmp_path / "mail").exists() else []

            async def sent() -> bool:
                return len(delivered()) == 1

            await eventually(sent)
            message = message_from_bytes(delivered()[0].read_bytes(), policy=policy.default)
            assert message["To"] == "reader@example.com"
            token = link(message.get_content(), "confirm")
            response = await http.get("/newsletter/confirm", params={"token": token})
            assert parse_qs(urlparse(response.headers["location"]).query) == {"subscribed": ["1"]}


async def test_housekeeping_forgets_long_expired_unconfirmed_addresses(make_service, articles_dir):
    from pinbid_content.newsletter import housekeeping

    service = make_service(articles_dir)
    async with client(service.app) as http:
        for email in ("stale@example.com", "fresh@example.com", "kept@example.com"):
            await http.post("/newsletter/subscribe", json={"email": email})
        token = link((await mails(service, "kept@example.com"))[0][1], "confirm")
        await http.get("/newsletter/confirm", params={"token": token})
    async with service.db.transaction() as session:
        await session.execute(text("UPDATE subscribers SET confirm_expires_at = now() - interval '8 days' "
                                   "WHERE email IN ('stale@example.com', 'kept@example.com')"))
    await housekeeping(service.db)
    assert await subscriber(service, "stale@example.com") is None
    assert (await subscriber(service, "fresh@example.com")).status == "PENDING"
    assert (await subscriber(service, "kept@example.com")).status == "CONFIRMED"
