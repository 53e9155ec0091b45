"""Login throttling cannot be turned against an account's owner (limits of the test settings: 3 failures
per email and client address, 10 per client address, 6 per email alone). Identity reads the client address
from the last X-Forwarded-For entry, the one the gateway appends."""

import asyncio

from pinbid_testing import eventually
from sqlalchemy import text

from .conftest import mails, reset_token, signup

STRANGER = {"x-forwarded-for": "203.0.113.9"}
OWNER = {"x-forwarded-for": "198.51.100.7"}


def address(client: str) -> dict[str, str]:
    return {"x-forwarded-for": client}


async def attempt(http, email: str, password: str, headers: dict[str, str]):
    return await http.post("/auth/login", json={"email": email, "password": password}, headers=headers)


async def counters(service) -> dict[str, int]:
    async with service.db.transaction() as s:
        rows = await s.execute(text("SELECT split_part(key, ':', 1), sum(count) FROM login_throttle GROUP BY 1"))
        return {kind: int(total) for kind, total in rows}


async def test_a_strangers_failures_throttle_the_stranger_not_the_owner(http, service):
    owner = signup()
    await http.post("/auth/register", json=owner)
    for _ in range(3):
        assert (await attempt(http, owner["email"], "guess guess", STRANGER)).status_code == 403
    for password in ["guess again", owner["password"]]:  # once throttled, even the right password is refused
        blocked = await attempt(http, owner["email"], password, STRANGER)
        assert blocked.status_code == 429 and blocked.json()["code"] == "too_many_requests"
        assert 1 <= int(blocked.headers["retry-after"]) <= 900
    for _ in range(10):  # refused attempts count toward nothing, so they cannot reach the per-email cap
        assert (await attempt(http, owner["email"], "guess guess", STRANGER)).status_code == 429

    assert (await attempt(http, owner["email"], owner["password"], OWNER)).status_code == 200
    assert (await attempt(http, owner["email"], "guess guess", STRANGER)).status_code == 429
    assert await counters(service) == {"client": 3, "email": 3, "pair": 3}


async def test_successful_logins_never_count(http, service):
    owner = signup()
    await http.post("/auth/register", json=owner)
    for _ in range(12):  # more than every limit
        assert (await attempt(http, owner["email"], owner["password"], OWNER)).status_code == 200
    assert await counters(service) == {"client": 0, "email": 0}
    # the owner's own typos are forgotten at the next success; their address keeps its count
    for _ in range(2):
        assert (await attempt(http, owner["email"], "typo typo", OWNER)).status_code == 403
    assert (await attempt(http, owner["email"], owner["password"], OWNER)).status_code == 200
    for _ in range(3):
        assert (await attempt(http, owner["email"], "typo typo", OWNER)).status_code == 403
    assert (await attempt(http, owner["email"], owner["password"], OWNER)).status_code == 429
    assert await counters(service) == {"client": 5, "email": 5, "pair": 3}


async def test_one_address_guessing_at_many_accounts_is_throttled(http):
    owner = signup()
    await http.post("/auth/register", json=owner)
    statuses = [(await attempt(http, f"x{i}@example.com", "whatever1", STRANGER)).status_code for i in range(11)]
    assert statuses == [403] * 10 + [429]
    assert (await attempt(http, owner["email"], owner["password"], STRANGER)).status_code == 429
    assert (await attempt(http, owner["email"], owner["password"], OWNER)).status_code == 200


async def test_guessing_from_many_addresses_meets_the_per_email_cap(http, service, settings):
    owner = signup()
    await http.post("/auth/register", json=owner)
    for i in range(6):
        assert (await attempt(http, owner["email"], "guess guess", address(f"192.0.2.{i}"))).status_code == 403
    assert (await attempt(http, owner["email"], "guess guess", address("192.0.2.99"))).status_code == 429
    capped = await attempt(http, owner["email"], owner["password"], OWNER)
    assert capped.status_code == 429 and int(capped.headers["retry-after"]) <= 3600
    # the way out of the last resort is a password reset, which forgets every counter of the email
    await http.post("/auth/forgot-password", json={"email": owner["email"]})

    async def mailed() -> bool:
        return bool(mails(settings.mail_folder))

    await eventually(mailed)
    token = reset_token(mails(settings.mail_folder)[0])
    assert (await http.post("/auth/reset-password", json={"token": token, "newPassword": "new password"})).is_success
    assert await counters(service) == {"client": 6}
    assert (await attempt(http, owner["email"], "new password", OWNER)).status_code == 200


async def test_simultaneous_guesses_get_exactly_the_allowed_number_of_tries(http, service):
    owner = signup()
    await http.post("/auth/register", json=owner)
    answers = await asyncio.gather(*(attempt(http, owner["email"], f"guess {i:04}", STRANGER) for i in range(20)))
    assert sorted(a.status_code for a in answers) == [403] * 3 + [429] * 17
    assert await counters(service) == {"client": 3, "email": 3, "pair": 3}
