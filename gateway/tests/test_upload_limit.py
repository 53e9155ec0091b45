"""Screenshot uploads may be larger than other bodies (5 MB and the form around it), nothing else may; and the
placement routes go to social for the right role."""

import httpx
from pinbid_gateway.limits import BodySizeLimit
from pinbid_gateway.routing import UPLOAD_PREFIXES, Access, route_for
from pinbid_gateway.settings import GatewaySettings
from starlette.responses import JSONResponse


async def app(scope, receive, send) -> None:
    """Reads the whole body, as the proxy does, and says how long it was."""
    size, more = 0, True
    while more:
        message = await receive()
        size += len(message.get("body", b""))
        more = message.get("more_body", False)
    await JSONResponse({"bytes": size})(scope, receive, send)


def client() -> httpx.AsyncClient:
    limited = BodySizeLimit(app, max_bytes=1024, upload_max_bytes=8192,
                            upload_prefixes=tuple(f"/api{p}/" for p in UPLOAD_PREFIXES))
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=limited), base_url="http://gw")


async def test_a_screenshot_upload_gets_the_larger_limit_and_only_it():
    async with client() as http:
        ok = await http.post(f"/api/influencer/pin-comment/{'1' * 8}/confirm", content=b"x" * 6000)
        assert ok.status_code == 200 and ok.json() == {"bytes": 6000}
        answer = await http.post("/api/influencer/placements/abc/screenshot", content=b"x" * 8000)
        assert answer.status_code == 200
        over = await http.post("/api/influencer/placements/abc/screenshot", content=b"x" * 9000)
        assert over.status_code == 413 and "8 KB" in over.json()["detail"]
        other = await http.post("/api/buyer/bids", content=b"x" * 2000)
        assert other.status_code == 413

        async def chunks():
            for _ in range(10):
                yield b"x" * 1000

        streamed = await http.post("/api/influencer/placements/abc/screenshot", content=chunks())
        assert streamed.status_code == 413


def test_the_default_upload_limit_fits_a_5_mb_screenshot():
    assert GatewaySettings().upload_max_body_bytes > 5 * 1024 * 1024


def test_placement_routes_go_to_social_for_their_role():
    assert (route_for("/buyer/placements/1/accept").service, route_for("/buyer/placements/1/accept").access) == (
        "social", Access.BUYER)
    found = route_for("/influencer/placements/1/screenshot")
    assert (found.service, found.access) == ("social", Access.INFLUENCER)
