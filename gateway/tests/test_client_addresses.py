"""The client address that login throttling counts by is the real one: X-Forwarded-For is believed only
from GATEWAY_TRUSTED_PROXIES, so clients behind one proxy are counted apart and nobody can pick the address
they are counted under."""

import uuid

import httpx
import pytest
from pinbid_gateway.app import Gateway
from pinbid_gateway.settings import GatewaySettings
from pinbid_gateway.upstreams import Upstreams
from pinbid_identity.app import build
from pinbid_kit.tokens import TokenVerifier
from pinbid_testing import running

from .conftest import bearer, echo_service

PROXY = "10.1.0.5"  # the ingress, inside the trusted network
ALICE, BOB = "198.51.100.1", "198.51.100.2"  # two clients behind it
OUTSIDER = "203.0.113.50"  # connects directly, untrusted


@pytest.fixture
async def gateway(identity_settings, tmp_path):
    identity = build(identity_settings(login_failures_per_email_and_client=3, login_failures_per_client=5))
    settings = GatewaySettings(web_dist=tmp_path / "dist", jwt_public_key_file=tmp_path / "k.pub",
                               trusted_proxies=["10.1.0.0/16"])
    upstreams = Upstreams.in_process({"identity": identity.app, "marketplace": echo_service()}, timeout=10)
    async with running(identity):
        yield Gateway(settings, upstreams, TokenVerifier.from_file(tmp_path / "k.pub"))


def connection(gateway: Gateway, address: str) -> httpx.AsyncClient:
    """A client whose TCP connection comes from `address`."""
    transport = httpx.ASGITransport(app=gateway.app, client=(address, 40000), raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url="http://test")


def via_proxy(client: str, sent_by_client: str | None = None) -> dict[str, str]:
    """What the proxy forwards: whatever the client sent, then the address it saw."""
    return {"x-forwarded-for": f"{sent_by_client}, {client}" if sent_by_client else client}


async def register(http: httpx.AsyncClient, headers: dict[str, str]) -> dict:
    body = {"name": "Test User", "email": f"u-{uuid.uuid4().hex[:8]}@example.com", "password": "long enough",
            "role": "BUYER"}
    response = await http.post("/api/auth/register", json=body, headers=headers)
    assert response.status_code == 201, response.text
    return {**body, "token": response.json()["token"]}


async def login(http: httpx.AsyncClient, email: str, password: str, headers: dict[str, str]) -> httpx.Response:
    return await http.post("/api/auth/login", json={"email": email, "password": password}, headers=headers)


async def test_services_see_the_client_behind_a_trusted_proxy_and_the_sender_otherwise(gateway):
    async with connection(gateway, PROXY) as proxy, connection(gateway, OUTSIDER) as outsider:
        user = await register(proxy, via_proxy(ALICE))
        seen = await proxy.get("/api/marketplace/slots", headers={**bearer(user["token"]),
                                                                  **via_proxy(ALICE, sent_by_client="6.6.6.6")})
        assert seen.json()["forwardedFor"].split(", ")[-1] == ALICE
        spoofed = await outsider.get("/api/marketplace/slots", headers={**bearer(user["token"]), **via_proxy(BOB)})
        assert spoofed.json()["forwardedFor"].split(", ")[-1] == OUTSIDER


async def test_two_clients_behind_one_trusted_proxy_are_throttled_separately(gateway):
    async with connection(gateway, PROXY) as proxy:
        bob = await register(proxy, via_proxy(BOB))
        for i in range(5):  # Alice guesses at five accounts: her address is now throttled
            assert (await login(proxy, f"x{i}@example.com", "guess guess", via_proxy(ALICE))).status_code == 403
        throttled = await login(proxy, bob["email"], "guess guess", via_proxy(ALICE))
        assert throttled.status_code == 429 and int(throttled.headers["retry-after"]) >= 1
        # Bob, behind the same proxy, is not: neither his own login nor his own typo is refused
        assert (await login(proxy, bob["email"], "typo typo", via_proxy(BOB))).status_code == 403
        assert (await login(proxy, bob["email"], bob["password"], via_proxy(BOB))).status_code == 200


async def test_an_untrusted_sender_cannot_choose_its_address(gateway):
    async with connection(gateway, PROXY) as proxy, connection(gateway, OUTSIDER) as outsider:
        bob = await register(proxy, via_proxy(BOB))
        # a fresh made-up X-Forwarded-For on every try does not escape the per-address limit...
        statuses = [(await login(outsider, f"x{i}@example.com", "guess guess",
                                 {"x-forwarded-for": f"192.0.2.{i}"})).status_code for i in range(6)]
        assert statuses == [403] * 5 + [429]
        # ...nor does hiding behind a made-up entry when coming through the proxy
        for i in range(3):
            made_up = via_proxy(ALICE, sent_by_client=f"192.0.2.{100 + i}")
            assert (await login(proxy, bob["email"], "guess guess", made_up)).status_code == 403
        assert (await login(proxy, bob["email"], "guess guess", via_proxy(ALICE, "192.0.2.200"))).status_code == 429
        # and claiming Bob's address does not throttle Bob
        for _ in range(4):
            await login(outsider, bob["email"], "guess guess", via_proxy(BOB))
        assert (await login(proxy, bob["email"], bob["password"], via_proxy(BOB))).status_code == 200
