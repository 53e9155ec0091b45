"""Issue 30: the gateway's upstream clients are shared by everyone it serves, so they keep no cookies. A service's
`Set-Cookie` reaches the browser that asked and nowhere else; a request that carried no cookie reaches the service
with none. Tried in both runs: the embedded one (services in-process behind httpx's ASGI transport, addressed as
`http://service`) and the distributed one (services over HTTP behind aiohttp), with the services addressed by host
name: aiohttp keeps no cookie for an IP address, which hid the leak on 127.0.0.1, so a resolver sends made-up
names (as Kubernetes or compose would give) to 127.0.0.1.

Each browser is its own httpx client with its own cookie jar, talking to the gateway as a browser does."""

import contextlib
import socket
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

import aiohttp
import httpx
import pytest
from aiohttp.abc import AbstractResolver, ResolveResult
from cryptography.fernet import Fernet
from fastapi import FastAPI, Request, Response
from pinbid_gateway.app import Gateway
from pinbid_gateway.settings import GatewaySettings
from pinbid_gateway.upstreams import HttpUpstream, Upstream, Upstreams
from pinbid_kit.envelope import Envelope
from pinbid_kit.events.identity import UserRegistered
from pinbid_kit.runtime import Service
from pinbid_kit.tokens import TokenSigner, TokenVerifier, generate_keypair
from pinbid_social.app import build as build_social
from pinbid_social.settings import SocialSettings
from pinbid_testing import free_port, running, serving
from sqlalchemy import text

PUBLIC = "http://pinbid.test"
OWNER_SAYS = "You are signed in as the post's owner"
NOT_OWNER = "signed in to this sandbox Instagram"


class MadeUpNames(AbstractResolver):
    """Resolves every host name to 127.0.0.1, as a cluster's DNS resolves a service's name to its address."""

    async def resolve(self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
                      ) -> list[ResolveResult]:
        return [ResolveResult(hostname=host, host="127.0.0.1", port=port, family=socket.AF_INET, proto=0,
                              flags=socket.AI_NUMERICHOST)]

    async def close(self) -> None:
        return None


class NamedHostUpstream(HttpUpstream):
    """The distributed run's upstream, its service addressed by a host name."""

    def _connector(self) -> aiohttp.TCPConnector:
        return aiohttp.TCPConnector(limit=self.max_connections, keepalive_timeout=30, resolver=MadeUpNames())


def cookie_service() -> FastAPI:
    """Stands in for a service that sets a cookie (content's place in the routing: /blog is public) and says which
    cookies each request brought."""
    app = FastAPI()

    @app.get("/blog/remember")
    async def remember(who: str, response: Response) -> dict:
        response.set_cookie("pinbid_who", who, httponly=True, samesite="lax", path="/")
        return {"remembered": who}

    @app.get("/blog/seen")
    async def seen(request: Request) -> dict:
        return {"cookie": request.headers.get("cookie")}

    return app


@dataclass
class Site:
    """The gateway in front of social (sandbox Instagram) and a cookie-setting service, and the browsers."""

    gateway: Gateway
    social: Service
    signer: TokenSigner
    upstreams: dict[str, Upstream]

    def browser(self) -> httpx.AsyncClient:
        """A browser of its own: its own cookie jar, nothing shared with any other."""
        transport = httpx.ASGITransport(app=self.gateway.app, raise_app_exceptions=False)
        return httpx.AsyncClient(transport=transport, base_url=PUBLIC)

    def auth(self, user_id: uuid.UUID, role: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.signer.sign(user_id, role, 0)}"}

    async def person(self, role: str, handle: str | None = None) -> uuid.UUID:
        user_id = uuid.uuid4()
        event = UserRegistered(user_id=user_id, email=f"{user_id.hex[:8]}@example.com", name="Test Person",
                               role=role, instagram_handle=handle,
                               business_name="Northwind" if role == "BUYER" else None)
        await self.social.consumers.dispatch(Envelope(type=event.event_type, source="identity",
                                                      data=event.payload()), {})
        return user_id

    async def start(self, browser: httpx.AsyncClient, user_id: uuid.UUID, role: str) -> str:
        """The person presses "Connect Instagram": the sandbox's authorize URL (the state cookie, to the browser)."""
        started = await browser.get("/api/instagram/connect", headers=self.auth(user_id, role))
        assert started.status_code == 200, started.text
        assert "pinbid_ig_state" in started.headers.get("set-cookie", "")
        return started.json()["url"]

    @staticmethod
    async def authorize(browser: httpx.AsyncClient, url: str, username: str) -> str:
        """Allow on the sandbox's authorize page, as `username`: the callback URL Instagram sends the browser to."""
        parts = urlsplit(url)
        allowed = await browser.post(f"{parts.path}?{parts.query}", content=f"action=approve&username={username}",
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert allowed.status_code == 303, allowed.text
        location = allowed.headers["location"]
        assert parse_qs(urlsplit(location).query).get("code"), location
        return location

    @staticmethod
    async def visit(browser: httpx.AsyncClient, url: str) -> httpx.Response:
        parts = urlsplit(url)
        return await browser.get(f"{parts.path}?{parts.query}")

    async def connected_account(self, user_id: uuid.UUID, role: str) -> str | None:
        async with self.browser() as anyone:
            status = (await anyone.get("/api/instagram/connection", headers=self.auth(user_id, role))).json()
        return status.get("username") if status["connected"] else None

    async def first_post_with_a_comment(self, username: str) -> tuple[str, str]:
        async with self.social.db.transaction() as session:
            row = (await session.execute(text(
                "SELECT m.id, c.id FROM sandbox_media m JOIN sandbox_accounts a ON a.id = m.account_id "
                "JOIN sandbox_comments c ON c.media_id = m.id WHERE a.username = :u ORDER BY m.id, c.id LIMIT 1"),
                {"u": username})).one()
        return row[0], row[1]


@pytest.fixture(params=["embedded", "distributed"])
async def site(request, new_database, clock, tmp_path) -> AsyncIterator[Site]:
    generate_keypair(tmp_path / "jwt.pem", tmp_path / "jwt.pub")
    signer = TokenSigner((tmp_path / "jwt.pem").read_bytes(), ttl_seconds=3600)
    social = build_social(SocialSettings(
        database_url=new_database("pinbid_social"), jwt_public_key_file=tmp_path / "jwt.pub",
        object_store_dir=tmp_path / "objects", encryption_keys=Fernet.generate_key().decode(), public_url=PUBLIC,
        log_json=False, sandbox_posts_per_account=2), clock=clock)
    social.jobs = []
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / "index.html").write_text("<!doctype html><title>Pinbid app</title>")
    settings = GatewaySettings(web_dist=dist, jwt_public_key_file=tmp_path / "jwt.pub", public_url=PUBLIC)
    verifier = TokenVerifier.from_file(tmp_path / "jwt.pub")
    async with running(social), contextlib.AsyncExitStack() as stack:
        apps = {"social": social.app, "content": cookie_service()}
        upstreams: dict[str, Upstream]
        if request.param == "embedded":
            upstreams = dict(Upstreams.in_process(apps, timeout=10).upstreams)
        else:
            upstreams = {}
            for name, app in apps.items():
                port = free_port()
                await stack.enter_async_context(serving(app, port))
                upstreams[name] = NamedHostUpstream(f"http://{name}.pinbid.internal:{port}", timeout=10)
        gateway = Gateway(settings, Upstreams(upstreams), verifier)
        try:
            yield Site(gateway, social, signer, upstreams)
        finally:
            await gateway.upstreams.close()


async def test_a_cookie_a_service_sets_reaches_only_the_browser_that_asked(site):
    async with site.browser() as alice, site.browser() as bob, site.browser() as anonymous:
        remembered = await alice.get("/api/blog/remember", params={"who": "alice"})
        assert remembered.status_code == 200 and "pinbid_who=alice" in remembered.headers["set-cookie"]
        await bob.get("/api/blog/remember", params={"who": "bob"})
        for _ in range(2):  # on a kept-alive connection as on a new one
            assert (await anonymous.get("/api/blog/seen")).json() == {"cookie": None}
            assert (await alice.get("/api/blog/seen")).json() == {"cookie": "pinbid_who=alice"}
            assert (await bob.get("/api/blog/seen")).json() == {"cookie": "pinbid_who=bob"}
            said = await anonymous.get("/api/blog/seen", headers={"Cookie": "theme=dark"})
            assert said.json() == {"cookie": "theme=dark"}  # a browser's own cookie, and nothing added to it


async def test_an_anonymous_visitor_cannot_act_as_the_creator_who_connected(site):
    """The issue's `curl` with no cookie, after the creator connected: `action=unpin` on the creator's sandbox post
    page answered 303 "Comment unpinned." and the page said "You are signed in as the post's owner"."""
    creator = await site.person("INFLUENCER", handle="maya.makes")
    async with site.browser() as creators, site.browser() as anonymous:
        callback = await site.authorize(creators, await site.start(creators, creator, "INFLUENCER"), "maya.makes")
        back = await site.visit(creators, callback)
        assert back.status_code == 303 and back.headers["location"] == f"{PUBLIC}/post-manager?connected=1"
        assert "pinbid_sandbox_owner=" in back.headers["set-cookie"]  # to the creator's browser
        media, comment = await site.first_post_with_a_comment("maya.makes")
        page = f"/api/instagram/sandbox/p/{media}"
        pinned = await creators.post(page, data={"comment": comment, "action": "pin"})
        assert pinned.status_code == 303 and "Comment+pinned" in pinned.headers["location"]

        seen = await anonymous.get(page)
        assert seen.status_code == 200 and OWNER_SAYS not in seen.text and "<button" not in seen.text
        for action in ("unpin", "hide", "delete"):
            refused = await anonymous.post(page, data={"comment": comment, "action": action})
            assert refused.status_code == 403 and NOT_OWNER in refused.text, action
        assert OWNER_SAYS in (await creators.get(page)).text  # the owner's own browser still is


async def test_one_connections_state_cannot_complete_another(site):
    """Bob's connection was started in Bob's browser; its callback, with Instagram's code for someone else's account,
    opened in a browser that carries no state cookie (or another person's), connects nothing. Before the fix, the
    gateway's jar held the last state cookie any connection set and sent it along."""
    alice = await site.person("INFLUENCER", handle="alice.makes")
    bob = await site.person("INFLUENCER", handle="bob.makes")
    async with site.browser() as alices, site.browser() as bobs, site.browser() as strangers:
        await site.start(alices, alice, "INFLUENCER")
        bobs_url = await site.start(bobs, bob, "INFLUENCER")
        for browser in (strangers, alices):  # Bob's state, with a code for the stranger's own Instagram account
            callback = await site.authorize(browser, bobs_url, "stranger.account")
            refused = await site.visit(browser, callback)
            assert refused.status_code == 303
            assert refused.headers["location"] == f"{PUBLIC}/post-manager?error=state_mismatch"
            assert "pinbid_sandbox_owner" not in refused.headers.get("set-cookie", "")
        assert await site.connected_account(bob, "INFLUENCER") is None
        assert await site.connected_account(alice, "INFLUENCER") is None
        done = await site.visit(bobs, await site.authorize(bobs, bobs_url, "bob.makes"))  # Bob's own browser can
        assert done.headers["location"] == f"{PUBLIC}/post-manager?connected=1"
        assert await site.connected_account(bob, "INFLUENCER") == "bob.makes"
