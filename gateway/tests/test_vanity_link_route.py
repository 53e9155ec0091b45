"""`/go/<code>` is public, outside /api, and goes to social with the visitor's address and browser."""

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from pinbid_gateway.app import Gateway
from pinbid_gateway.settings import GatewaySettings
from pinbid_gateway.upstreams import Upstreams
from pinbid_kit.tokens import TokenVerifier, generate_keypair
from pinbid_testing import client


def social_links() -> FastAPI:
    app = FastAPI()
    seen: list[tuple[str, str, str]] = []
    app.state.seen = seen

    @app.api_route("/go/{code}", methods=["GET", "HEAD"])
    async def follow(code: str, request: Request):
        seen.append((request.method, request.headers.get("user-agent", ""),
                     request.headers.get("x-forwarded-for", "")))
        if code != "AbC1234":
            return HTMLResponse("<h1>This link does not exist</h1>", status_code=404)
        return RedirectResponse("https://northwind.coffee/?utm_source=pinbid", status_code=302,
                                headers={"Cache-Control": "no-store", "Set-Cookie": "x=1"})

    return app


async def test_the_short_link_is_public_and_redirects_without_the_services_other_headers(tmp_path):
    generate_keypair(tmp_path / "k.pem", tmp_path / "k.pub")
    social = social_links()
    gateway = Gateway(GatewaySettings(web_dist=tmp_path, jwt_public_key_file=tmp_path / "k.pub"),
                      Upstreams.in_process({"social": social}, timeout=5), TokenVerifier.from_file(tmp_path / "k.pub"))
    async with client(gateway.app) as http:
        found = await http.get("/go/AbC1234", headers={"user-agent": "Safari"}, follow_redirects=False)
        assert found.status_code == 302 and found.headers["location"] == "https://northwind.coffee/?utm_source=pinbid"
        assert found.headers["cache-control"] == "no-store" and "set-cookie" not in found.headers
        missing = await http.get("/go/nope")
        assert missing.status_code == 404 and "This link does not exist" in missing.text
        assert (await http.head("/go/AbC1234")).status_code == 302
        assert (await http.post("/go/AbC1234")).status_code == 405
    method, agent, forwarded = social.state.seen[0]
    assert (method, agent) == ("GET", "Safari") and forwarded  # the visitor's address goes along
