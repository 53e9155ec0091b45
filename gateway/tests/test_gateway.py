import gzip

from pinbid_gateway.routing import Access, route_for
from pinbid_kit.web_rules import web_rules
from pinbid_testing import eventually

from .conftest import bearer, session


def test_longest_prefix_decides_owner_and_access():
    assert route_for("/auth/login").access is Access.PUBLIC
    assert route_for("/auth/me").access is Access.SIGNED_IN
    assert route_for("/auth/passkeys/login").access is route_for("/auth/passkeys/login/options").access \
        is Access.PUBLIC  # a passkey alone signs in
    assert route_for("/auth/passkeys").access is route_for("/auth/passkeys/register/options").access \
        is route_for("/auth/step-up").access is Access.SIGNED_IN
    assert route_for("/influencer/pin-slots/123/end-auction").service == "marketplace"
    assert route_for("/influencer/pin-comment/9").service == "social"
    assert route_for("/payments/webhook").access is Access.PUBLIC
    assert route_for("/payments/create-checkout-session").access is Access.BUYER
    assert route_for("/authx") is None and route_for("/internal/token-versions") is None


async def test_identity_calls_go_through(stack):
    http, _, _ = stack
    token, body = await session(http)
    me = await http.get("/api/auth/me", headers=bearer(token))
    assert me.status_code == 200 and me.json()["email"] == body["email"]


async def test_roles_are_checked_before_forwarding(stack):
    http, _, _ = stack
    buyer, _ = await session(http)
    creator, _ = await session(http, "INFLUENCER")
    wrong = await http.get("/api/influencer/pin-slots/active", headers=bearer(buyer))
    assert wrong.status_code == 403 and wrong.json()["code"] == "wrong_role"
    anonymous = await http.get("/api/marketplace/slots")
    assert anonymous.status_code == 403
    right = await http.get("/api/influencer/pin-slots/active?x=1", headers=bearer(creator))
    assert right.status_code == 200 and right.json()["path"] == "/influencer/pin-slots/active"
    assert right.json()["query"] == "x=1" and right.json()["authorization"] == f"Bearer {creator}"


async def test_forwarding_adds_client_address_and_request_id(stack):
    http, _, _ = stack
    token, _ = await session(http)
    echoed = await http.get("/api/marketplace/slots", headers={**bearer(token), "x-request-id": "trace-me-1",
                                                               "x-forwarded-for": "203.0.113.1"})
    assert echoed.json()["requestId"] == "trace-me-1" and echoed.headers["x-request-id"] == "trace-me-1"
    assert echoed.json()["forwardedFor"].startswith("203.0.113.1, ")


async def test_unknown_paths_and_internal_calls_are_404(stack):
    http, _, _ = stack
    assert (await http.get("/api/nothing-here")).status_code == 404
    internal = await http.get("/api/internal/token-versions")
    assert internal.status_code == 404 and internal.json()["code"] == "not_found"


async def test_a_service_that_does_not_exist_yet_answers_503(stack):
    http, _, _ = stack
    token, _ = await session(http)
    response = await http.post("/api/payments/create-checkout-session", json={"bidId": "x"}, headers=bearer(token))
    assert response.status_code == 503
    assert response.json() == {"detail": "The payments service is not available yet. Please try again later.",
                               "code": "service_unavailable"}
    dashboard = await http.get("/api/buyer/dashboard", headers=bearer(token))
    assert dashboard.status_code == 503


async def test_revoked_tokens_are_refused_at_the_gateway(stack):
    http, gateway, _ = stack
    token, body = await session(http)
    changed = await http.post("/api/auth/change-password", headers=bearer(token),
                              json={"currentPassword": body["password"], "newPassword": "another password"})
    new_token = changed.json()["token"]

    async def revoked() -> bool:
        return (await http.get("/api/marketplace/slots", headers=bearer(token))).status_code == 403

    await eventually(revoked)
    assert (await http.get("/api/marketplace/slots", headers=bearer(new_token))).status_code == 200


async def test_gateway_learns_earlier_revocations_at_start(stack):
    http, gateway, _ = stack
    token, body = await session(http)
    await http.post("/api/auth/change-password", headers=bearer(token),
                    json={"currentPassword": body["password"], "newPassword": "another password"})
    gateway.revocations.forget()  # as after a restart of the gateway
    await gateway.load_revocations(attempts=1)
    assert (await http.get("/api/marketplace/slots", headers=bearer(token))).status_code == 403


async def test_oversized_bodies_are_413(stack):
    http, _, _ = stack
    big = "x" * 5000
    declared = await http.post("/api/auth/login", json={"email": big, "password": "x"})
    assert declared.status_code == 413 and declared.json()["code"] == "payload_too_large"

    async def chunks():
        for _ in range(10):
            yield b"x" * 1000

    streamed = await http.post("/api/auth/login", content=chunks(), headers={"content-type": "application/json"})
    assert streamed.status_code == 413


async def test_runtime_config_and_the_web_app(stack):
    http, _, _ = stack
    config = await http.get("/runtime-config.json")
    assert config.json() == {"apiBase": "/api", "rules": web_rules()}
    assert config.headers["cache-control"] == "no-store"
    page = await http.get("/dashboard")
    assert page.status_code == 200 and "Pinbid app" in page.text
    asset = await http.get("/assets/app.js")
    assert "pinbid" in asset.text and "immutable" in asset.headers["cache-control"]
    big = await http.get("/api/blog/articles", headers={"accept-encoding": "gzip"})
    assert big.status_code == 503  # content is not part of this stack; a short JSON answer is not compressed
    assert "content-encoding" not in big.headers
    escape = await http.get("/..%2F..%2Fetc%2Fpasswd")
    assert "root:" not in escape.text
    assert (await http.get("/api/unknown")).headers["content-type"].startswith("application/json")


async def test_prerendered_pages_are_served_as_built_and_every_other_path_gets_the_shell(stack):
    """A build that prerenders: `index.html` is the landing page, `<route>/index.html` a public page, `app.html`
    the empty shell every other path gets (and the 404 of names that look like files stays)."""
    http, gateway, _ = stack
    dist = gateway.settings.web_dist
    (dist / "index.html").write_text("<!doctype html><title>landing</title>")
    (dist / "app.html").write_text("<!doctype html><title>shell</title>")
    (dist / "login").mkdir()
    (dist / "login" / "index.html").write_text("<!doctype html><title>login</title>" + "<p>Sign in</p>" * 200)
    (dist / "login" / "index.html.gz").write_bytes(gzip.compress((dist / "login" / "index.html").read_bytes()))
    assert "landing" in (await http.get("/")).text
    page = await http.get("/login", headers={"accept-encoding": "gzip"})
    assert page.status_code == 200 and "<title>login</title>" in page.text
    assert page.headers["content-encoding"] == "gzip" and page.headers["cache-control"] == "no-cache"
    assert page.headers["content-type"].startswith("text/html")
    for path in ("/dashboard", "/blog/some-post", "/login/more", "/assets"):
        page = await http.get(path)
        assert page.status_code == 200 and "<title>shell</title>" in page.text, path
    assert (await http.get("/assets/gone-1234.js")).status_code == 404
    assert "root:" not in (await http.get("/..%2F..%2Fetc%2Fpasswd")).text


async def test_cors_from_settings(stack):
    http, _, _ = stack
    preflight = await http.options("/api/auth/login", headers={"Origin": "http://localhost:5173",
                                                               "Access-Control-Request-Method": "POST"})
    assert preflight.headers["access-control-allow-origin"] == "http://localhost:5173"
    other = await http.options("/api/auth/login", headers={"Origin": "http://evil.example",
                                                           "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in other.headers


async def test_assets_are_served_as_the_build_compressed_them_never_compressed_per_request(stack):
    http, gateway, _ = stack
    assets = gateway.settings.web_dist / "assets"
    (assets / "bundle.js").write_text("console.log('pinbid');\n" * 400)
    (assets / "bundle.js.gz").write_bytes(gzip.compress((assets / "bundle.js").read_bytes()))
    zipped = await http.get("/assets/bundle.js", headers={"accept-encoding": "gzip, br"})
    assert zipped.headers["content-encoding"] == "gzip" and zipped.text.startswith("console.log")
    assert zipped.headers["content-type"].startswith("text/javascript") and "Accept-Encoding" in zipped.headers["vary"]
    plain = await http.get("/assets/bundle.js", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.text.startswith("console.log")
    (assets / "other.js").write_text("console.log('no copy');\n" * 400)  # no .gz beside it: sent as it is
    assert "content-encoding" not in (await http.get("/assets/other.js", headers={"accept-encoding": "gzip"})).headers


async def test_browser_hardening_headers(stack):
    http, _, _ = stack
    page = await http.get("/dashboard")
    policy = page.headers["content-security-policy"]
    assert "script-src 'self';" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy and page.headers["x-frame-options"] == "DENY"
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["referrer-policy"] == "strict-origin-when-cross-origin"

    token, _ = await session(http)
    answer = await http.get("/api/auth/me", headers=bearer(token))
    assert answer.headers["content-security-policy"] == "default-src 'none'; frame-ancestors 'none'"
    assert answer.headers["cache-control"] == "no-store"
    assert answer.headers.get_list("x-frame-options") == ["DENY"]  # the service's and the gateway's: one copy
    assert "no-store" not in (await http.get("/api/health")).headers.get("cache-control", "")
