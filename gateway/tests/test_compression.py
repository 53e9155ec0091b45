"""Issue 31: `/api/blog/articles` went uncompressed. A service gzips an answer of `COMPRESS_MIN_BYTES` or more when
the browser accepts gzip (pinbid_kit.http); the gateway passes those bytes through unread, with their
`Content-Encoding`, in both runs (in-process behind httpx, over HTTP behind aiohttp, neither decoding nor
compressing again); the calls whose answers the gateway reads itself (the sitemap, the dashboards) ask for them
uncompressed, whatever the browser accepts; the live stream is never compressed."""

import contextlib
import gzip
import json
import uuid
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import APIRouter
from pinbid_gateway.app import Gateway
from pinbid_gateway.settings import GatewaySettings
from pinbid_gateway.upstreams import HttpUpstream, Upstreams
from pinbid_kit.http import COMPRESS_MIN_BYTES, create_app
from pinbid_kit.tokens import TokenSigner, TokenVerifier, generate_keypair
from pinbid_testing import client, free_port, serving

ARTICLES = 40  # about 9 KB of JSON, as the blog's first page is
SMALL = {"articles": [], "total": 0, "totalPages": 0, "page": 2}


def content_service():
    """Stands in for the content service, built on the kit's app as every service is: its article list (the
    first page large, the second empty) and a creator's figures for the dashboard."""
    router = APIRouter()

    @router.get("/blog/articles")
    async def articles(page: int = 1) -> dict:
        if page > 1:
            return SMALL
        return {"articles": [{"slug": f"post-{i}", "title": f"How pinned comments sell, part {i}",
                              "excerpt": "A pinned comment is the first thing a viewer reads under a post. " * 2,
                              "publishedAt": "2026-09-01"} for i in range(ARTICLES)],
                "total": ARTICLES, "totalPages": 1, "page": 1}

    @router.get("/buyer/dashboard-figures")
    async def figures() -> dict:
        return {"activeBids": 1, "wonAuctions": 2, "padding": "x" * (2 * COMPRESS_MIN_BYTES)}

    @router.get("/buyer/total-spent")
    async def spent() -> dict:
        return {"totalSpent": 65.5, "padding": "y" * (2 * COMPRESS_MIN_BYTES)}

    return create_app("content", routers=[router])


@pytest.fixture(params=["in-process", "over-http"])
async def site(request, tmp_path) -> AsyncIterator[tuple[httpx.AsyncClient, TokenSigner]]:
    generate_keypair(tmp_path / "k.pem", tmp_path / "k.pub")
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / "index.html").write_text("<!doctype html><title>Pinbid app</title>")
    settings = GatewaySettings(web_dist=dist, jwt_public_key_file=tmp_path / "k.pub")
    async with contextlib.AsyncExitStack() as stack:
        if request.param == "in-process":
            upstream = content_service()
            upstreams = Upstreams.in_process({"content": upstream, "marketplace": upstream, "payments": upstream},
                                             timeout=10)
        else:
            port = free_port()
            await stack.enter_async_context(serving(content_service(), port))
            url = f"http://127.0.0.1:{port}"
            upstreams = Upstreams({name: HttpUpstream(url, timeout=10) for name in ("content", "marketplace",
                                                                                    "payments")})
        stack.push_async_callback(upstreams.close)
        gateway = Gateway(settings, upstreams, TokenVerifier.from_file(tmp_path / "k.pub"))
        http = await stack.enter_async_context(client(gateway.app))
        yield http, TokenSigner((tmp_path / "k.pem").read_bytes(), ttl_seconds=600)


async def raw_get(http: httpx.AsyncClient, path: str, headers: dict[str, str]) -> tuple[httpx.Response, bytes]:
    """The answer's bytes as they arrived (httpx would otherwise decode them)."""
    async with http.stream("GET", path, headers=headers) as response:
        return response, b"".join([chunk async for chunk in response.aiter_raw()])


async def test_a_large_json_answer_is_gzipped_once_and_passed_through(site):
    http, _ = site
    plain, plain_bytes = await raw_get(http, "/api/blog/articles", {"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and "content-encoding" not in plain.headers
    assert len(plain_bytes) > 8 * COMPRESS_MIN_BYTES and json.loads(plain_bytes)["total"] == ARTICLES

    zipped, zipped_bytes = await raw_get(http, "/api/blog/articles", {"Accept-Encoding": "gzip, deflate, br"})
    assert zipped.status_code == 200 and zipped.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in zipped.headers["vary"].lower()
    assert int(zipped.headers["content-length"]) == len(zipped_bytes) < len(plain_bytes) / 4
    assert gzip.decompress(zipped_bytes) == plain_bytes  # compressed once: one gunzip gives the JSON
    assert (await http.get("/api/blog/articles", headers={"Accept-Encoding": "gzip"})).json()["total"] == ARTICLES

    # a browser that says nothing about encodings gets the JSON as it is (no client's default is offered for it)
    request = http.build_request("GET", "/api/blog/articles")
    del request.headers["accept-encoding"]
    unsaid = await http.send(request, stream=True)
    unsaid_bytes = b"".join([chunk async for chunk in unsaid.aiter_raw()])
    await unsaid.aclose()
    assert "content-encoding" not in unsaid.headers and unsaid_bytes == plain_bytes


async def test_a_small_answer_stays_as_it_is(site):
    http, _ = site
    small, small_bytes = await raw_get(http, "/api/blog/articles?page=2", {"Accept-Encoding": "gzip"})
    assert small.status_code == 200 and "content-encoding" not in small.headers
    assert json.loads(small_bytes) == SMALL


async def test_what_the_gateway_reads_itself_comes_uncompressed_whatever_the_browser_accepts(site):
    http, signer = site
    sitemap = await http.get("/sitemap.xml", headers={"Accept-Encoding": "gzip"})
    assert sitemap.status_code == 200 and "<loc>http://test/blog/post-39</loc>" in sitemap.text
    token = signer.sign(uuid.uuid4(), "BUYER", 0)
    dashboard, body = await raw_get(http, "/api/buyer/dashboard", {"Accept-Encoding": "gzip",
                                                                  "Authorization": f"Bearer {token}"})
    assert dashboard.status_code == 200 and "content-encoding" not in dashboard.headers  # the gateway's own JSON
    assert json.loads(body) == {"activeBids": 1, "wonAuctions": 2, "totalSpent": 65.5}
