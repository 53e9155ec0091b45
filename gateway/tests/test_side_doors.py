"""The gateway cannot be walked around: a path that could be read two ways is refused before routing, in
both run modes (services in-process behind the ASGI upstream, and over HTTP behind aiohttp), and what is
forwarded is exactly the path that was routed and checked."""

import asyncio
import json
from urllib.parse import unquote_to_bytes

import pytest
from fastapi import APIRouter, FastAPI, Request
from pinbid_gateway.app import Gateway
from pinbid_gateway.routing import ROUTES
from pinbid_gateway.settings import GatewaySettings
from pinbid_gateway.upstreams import Upstreams
from pinbid_kit.errors import install_error_handlers
from pinbid_kit.path_guard import is_refused
from pinbid_kit.tokens import TokenVerifier
from pinbid_testing import free_port, serving

SERVICES = ("identity", "marketplace", "payments", "social", "content")

# Sent byte for byte (as `curl --path-as-is` would). Each one either walked around the route checks, reached a
# service's operator endpoints, or crashed the forwarding before.
REFUSED = [
    "/api/payments/webhook/../../influencer/payout-settings",
    "/api/payments/webhook/../../internal/token-versions",
    "/api/payments/webhook/../../metrics",
    "/api/payments/webhook/../../readyz",
    "/api/payments/webhook/../../healthz",
    "/api/payments/webhook/../../docs",
    "/api/payments/webhook/../../openapi.json",
    "/api/blog/%2e%2e/influencer/payout-settings",
    "/api/blog/%2E%2E/%2e%2e/internal/token-versions",
    "/api/blog/%252e%252e/%252e%252e/metrics",
    "/api/payments/sandbox/..%2f..%2finfluencer/payout-settings",
    "/api/payments/webhook%2F..%2F..%2Finfluencer%2Fpayout-settings",
    "/api/payments/webhook/..\\..\\influencer/payout-settings",
    "/api/payments/webhook/%5c..%5cinfluencer",
    "/api/./marketplace/slots",
    "/api/marketplace/./slots",
    "/api//marketplace/slots",
    "/api/marketplace//slots",
    "/api/marketplace/slots/",
    "/api/marketplace/slots/%00",
    "/api/marketplace/slots/abc%0d%0aX-Injected:%201",
    "/api/marketplace/slots/%7f",
    "/api/marketplace/slots/%e2%80%ae",
    "/api/marketplace/slots/abc%3Fx=1",
    "/api/marketplace/slots/abc%23top",
    "/api/marketplace/slots/%25",
]
OPERATOR_PATHS = ("/internal", "/metrics", "/healthz", "/readyz", "/docs", "/openapi.json")


def echo_service(seen: list[str]) -> FastAPI:
    app = FastAPI()
    router = APIRouter()

    @router.api_route("/{path:path}", methods=["GET", "POST", "PUT", "DELETE"])
    async def echo(path: str, request: Request) -> dict:
        seen.append(request.scope["path"])
        return {"path": request.scope["path"], "rawPath": request.scope["raw_path"].decode("latin-1")}

    app.include_router(router)
    return app


def make_gateway(tmp_path, upstreams: Upstreams, **settings) -> Gateway:
    dist = tmp_path / "dist"
    dist.mkdir(exist_ok=True)
    (dist / "index.html").write_text("<!doctype html><title>Pinbid app</title>")
    return Gateway(GatewaySettings(web_dist=dist, jwt_public_key_file=tmp_path / "none.pub", **settings),
                   upstreams, TokenVerifier.from_file(tmp_path / "none.pub"))


async def asgi_request(app, method: str, raw_path: str) -> tuple[int, dict[str, str], dict]:
    """One request straight into the ASGI app, with the path exactly as given (httpx would normalise it)."""
    path_bytes, _, query = raw_path.encode().partition(b"?")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": unquote_to_bytes(path_bytes).decode("utf-8", "replace"), "raw_path": path_bytes,
             "query_string": query, "root_path": "", "headers": [(b"host", b"pinbid.test")],
             "client": ("203.0.113.9", 5000), "server": ("pinbid.test", 80)}
    messages: list[dict] = []
    requested = False

    async def receive() -> dict:
        nonlocal requested
        if requested:  # as a server does: the next message is the client going away, which it never does here
            await asyncio.Event().wait()
        requested = True
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        messages.append(message)

    await app(scope, receive, send)
    start = next(m for m in messages if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")
    headers = {k.decode(): v.decode() for k, v in start["headers"]}
    return start["status"], headers, json.loads(body) if body.startswith(b"{") else {}


async def socket_request(port: int, method: str, raw_path: str) -> tuple[int, dict]:
    """An HTTP/1.1 request over a real socket with the path as given."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"{method} {raw_path} HTTP/1.1\r\nHost: pinbid.test\r\nConnection: close\r\n\r\n".encode("latin-1"))
    await writer.drain()
    response = await reader.read()
    writer.close()
    head, _, body = response.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, json.loads(body) if body.startswith(b"{") else {}


@pytest.fixture
def in_process(tmp_path):
    seen: list[str] = []
    echo = echo_service(seen)
    gateway = make_gateway(tmp_path, Upstreams.in_process({name: echo for name in SERVICES}, timeout=5))
    return gateway, seen


@pytest.fixture
async def over_http(tmp_path):
    seen: list[str] = []
    service_port, gateway_port = free_port(), free_port()
    upstreams = Upstreams.over_http({name: f"http://127.0.0.1:{service_port}" for name in SERVICES}, timeout=5)
    gateway = make_gateway(tmp_path, upstreams)
    async with serving(echo_service(seen), service_port), serving(gateway.app, gateway_port):
        yield gateway_port, seen
    await upstreams.close()


@pytest.mark.parametrize("raw_path", REFUSED)
async def test_ambiguous_paths_are_refused_in_process(in_process, raw_path):
    gateway, seen = in_process
    status, _, body = await asgi_request(gateway.app, "PUT", raw_path)
    assert status == 404 and body == {"detail": "Not found.", "code": "not_found"}
    assert seen == []


async def test_ambiguous_paths_are_refused_over_http(over_http):
    port, seen = over_http
    for raw_path in REFUSED:
        status, body = await socket_request(port, "PUT", raw_path)
        assert (status, body.get("code")) == (404, "not_found"), raw_path
    assert seen == []


@pytest.mark.parametrize("raw_path,forwarded", [
    ("/api/blog/articles/caf%C3%A9-notes", "/blog/articles/caf%C3%A9-notes"),
    ("/api/blog/articles/with%20space", "/blog/articles/with%20space"),
    ("/api/blog/articles/a:b@c!d$e&f'g(h)i*j+k,l;m=n~o", "/blog/articles/a:b@c!d$e&f'g(h)i*j+k,l;m=n~o"),
    ("/api/blog/articles?q=%2F..%2F&page=2", "/blog/articles"),
])
async def test_what_is_routed_is_what_is_forwarded(in_process, over_http, raw_path, forwarded):
    gateway, _ = in_process
    port, _ = over_http
    status, _, body = await asgi_request(gateway.app, "GET", raw_path)
    assert status == 200 and body["rawPath"] == forwarded
    status, body = await socket_request(port, "GET", raw_path)
    assert status == 200 and body["rawPath"] == forwarded


def test_no_route_reaches_a_services_operator_endpoints():
    for route in ROUTES:
        assert not any(route.prefix == p or route.prefix.startswith(p + "/") for p in OPERATOR_PATHS), route


def test_the_guard_refuses_each_form():
    assert not is_refused("/") and not is_refused("/api/marketplace/slots/1f0c")
    for path in ["/a/../b", "/a/./b", "/a//b", "/a/", "/a\\b", "/a%b", "/a?b", "/a#b", "/a\x00", "/a\u202eb",
                 "/a\u200bb", "relative"]:
        assert is_refused(path), path
    assert is_refused("/a/b", b"/a%2Fb") and is_refused("/a\\b", b"/a%5cb")
    assert not is_refused("/a", b"/a?next=%2Fb")


async def test_unlisted_methods_on_existing_paths_are_405(in_process):
    gateway, seen = in_process
    for method, path in [("POST", "/api/health"), ("DELETE", "/api/buyer/dashboard"),
                         ("PUT", "/api/influencer/dashboard"), ("POST", "/dashboard")]:
        status, _, body = await asgi_request(gateway.app, method, path)
        assert status == 405 and body["code"] == "method_not_allowed", path
    assert seen == []


async def test_operator_routes_move_off_the_public_port(tmp_path):
    upstreams = Upstreams.in_process({}, timeout=5)
    public = make_gateway(tmp_path, upstreams)
    assert (await asgi_request(public.app, "GET", "/metrics"))[0] == 200
    production = make_gateway(tmp_path, upstreams, operator_port=9464)
    for path in ("/metrics", "/docs"):
        status, headers, _ = await asgi_request(production.app, "GET", path)
        assert status == 200 and headers["content-type"].startswith("text/html"), path  # the web app, not them
    status, headers, _ = await asgi_request(production.app, "GET", "/openapi.json")
    assert status == 404 and headers["content-type"].startswith("text/html")  # names a file the build does not have
    operator = production.operator_app()
    assert (await asgi_request(operator, "GET", "/metrics"))[0] == 200
    status, _, spec = await asgi_request(operator, "GET", "/openapi.json")
    assert status == 200 and "/api/health" in spec["paths"]


async def test_web_pages_answer_head(in_process):
    gateway, _ = in_process
    status, headers, _ = await asgi_request(gateway.app, "HEAD", "/dashboard")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert "script-src 'self';" in headers["content-security-policy"]


async def test_an_error_inside_an_in_process_service_is_its_own_500(tmp_path, caplog):
    failing = FastAPI()

    @failing.get("/blog/articles")
    async def broken() -> dict:
        raise RuntimeError("broken inside the service")

    install_error_handlers(failing)
    gateway = make_gateway(tmp_path, Upstreams.in_process({"content": failing}, timeout=5))
    with caplog.at_level("ERROR"):
        status, _, body = await asgi_request(gateway.app, "GET", "/api/blog/articles")
    assert status == 500 and body["code"] == "internal_error"
    assert [r.name for r in caplog.records if r.levelname == "ERROR"] == ["pinbid.errors"]  # once, by the service
