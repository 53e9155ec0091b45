import email
import re
import uuid
from pathlib import Path

import pytest
from pinbid_identity.app import build
from pinbid_identity.settings import IdentitySettings
from pinbid_testing import client, running


def settings_on(database_url: str, folder: Path) -> IdentitySettings:
    return IdentitySettings(
        database_url=database_url,
        jwt_private_key_file=folder / "keys" / "jwt.pem",
        jwt_public_key_file=folder / "keys" / "jwt.pub",
        mail_folder=folder / "mail",
        login_failures_per_email_and_client=3,
        login_failures_per_client=10,
        login_failures_per_email=6,
        argon2_time_cost=1,
        argon2_memory_kib=1024,
    )


@pytest.fixture
def settings(new_database, tmp_path):
    return settings_on(new_database("pinbid_identity"), tmp_path)


@pytest.fixture
async def service(settings):
    service = build(settings)
    async with running(service) as bus:
        service.state["bus"] = bus
        yield service


@pytest.fixture
async def http(service):
    async with client(service.app) as http:
        yield http


@pytest.fixture(scope="module")
async def shared_service(run_databases, tmp_path_factory):
    """One running identity for the tests of a module that change nothing in it (refusals; each still checks
    that nothing changed)."""
    database_url = run_databases.new_shared("pinbid_identity")
    try:
        service = build(settings_on(database_url, tmp_path_factory.mktemp("identity")))
        async with running(service) as bus:
            service.state["bus"] = bus
            yield service
    finally:
        run_databases.release_shared(database_url)


@pytest.fixture(scope="module")
async def shared_http(shared_service):
    async with client(shared_service.app) as http:
        yield http


@pytest.fixture
async def quiet(settings, clock):
    """The service without its bus or background jobs: a test delivers events and runs jobs itself, on `clock`."""
    service = build(settings, clock=clock)
    yield service
    await service.db.dispose()


@pytest.fixture
async def web(quiet):
    async with client(quiet.app) as http:
        yield http


def signup(role="BUYER", **extra):
    body = {"name": "Leo Brand", "email": f"leo-{uuid.uuid4().hex[:8]}@example.com", "password": "correct horse",
            "role": role}
    if role == "INFLUENCER":
        body["instagramHandle"] = "maya.makes"
    body.update(extra)
    return body


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def login_status(http, email: str, password: str) -> int:
    return (await http.post("/auth/login", json={"email": email, "password": password})).status_code


def mails(folder: Path) -> list[email.message.Message]:
    return [email.message_from_bytes(p.read_bytes()) for p in sorted(folder.glob("*.eml"))] if folder.exists() else []


def reset_token(message: email.message.Message) -> str:
    return re.search(r"/reset-password/([A-Za-z0-9_-]+)", message.get_payload(decode=True).decode()).group(1)
