"""`/buyer/campaigns/{id}/fund` goes to payments (a campaign's money), every other `/buyer/campaigns` path to
marketplace; BUYER only; odd paths never reach payments as a fund call."""

import pytest
from fastapi import APIRouter, FastAPI, Request
from pinbid_gateway.app import Gateway
from pinbid_gateway.routing import Access, matches, route_for
from pinbid_gateway.settings import GatewaySettings
from pinbid_gateway.upstreams import Upstreams
from pinbid_identity.app import build
from pinbid_kit.tokens import TokenVerifier
from pinbid_testing import client, running

from .conftest import bearer, session
from .test_side_doors import asgi_request

CAMPAIGN = "0b6f3c2e-7d1a-4f7e-9a53-1c2d3e4f5a6b"


def owner(path: str) -> tuple[str, Access] | None:
    route = route_for(path)
    return (route.service, route.access) if route else None


def test_the_fund_path_goes_to_payments_and_the_rest_of_campaigns_to_marketplace():
    assert owner(f"/buyer/campaigns/{CAMPAIGN}/fund") == ("payments", Access.BUYER)
    assert owner("/buyer/campaigns/{campaign_id}/fund") == ("payments", Access.BUYER)  # the OpenAPI path
    for path in ("/buyer/campaigns", f"/buyer/campaigns/{CAMPAIGN}", f"/buyer/campaigns/{CAMPAIGN}/pause",
                 f"/buyer/campaigns/{CAMPAIGN}/end", f"/buyer/campaigns/{CAMPAIGN}/funding",
                 f"/buyer/campaigns/{CAMPAIGN}/fundx", "/buyer/campaigns/fund"):
        assert owner(path) == ("marketplace", Access.BUYER), path


def test_odd_paths_do_not_make_a_fund_route_of_an_empty_or_extra_segment():
    assert owner("/buyer/campaigns//fund") == ("marketplace", Access.BUYER)  # "*" never matches an empty segment
    assert owner("/buyer/campaigns/fund/") == ("marketplace", Access.BUYER)
    assert owner(f"/buyer/campaigns/{CAMPAIGN}/x/fund") == ("marketplace", Access.BUYER)
    # deeper paths stay with the fund route's owner (a prefix continues with "/"): payments has no such route
    assert owner(f"/buyer/campaigns/{CAMPAIGN}/fund/..") == ("payments", Access.BUYER)
    assert owner("/buyer/campaignsx/1/fund") is None
    assert owner("/Buyer/campaigns/1/fund") is None


def test_a_star_matches_one_whole_segment():
    assert matches("/a/*/c", "/a/b/c") and matches("/a/*/c", "/a/b/c/d")
    assert not matches("/a/*/c", "/a//c") and not matches("/a/*/c", "/a/b") and not matches("/a/*/c", "/a/b/cd")
    assert not matches("/a/*/c", "/a/b/x/c") and not matches("/a/*/c", "/x/b/c")
    assert matches("/a/b", "/a/b") and matches("/a/b", "/a/b/c") and not matches("/a/b", "/a/bc")


def tagged(name: str) -> FastAPI:
    app = FastAPI()
    router = APIRouter()

    @router.api_route("/{path:path}", methods=["GET", "POST"])
    async def echo(path: str, request: Request) -> dict:
        return {"service": name, "path": "/" + path}

    app.include_router(router)
    return app


@pytest.fixture
async def routed(identity_settings, tmp_path):
    """A gateway before identity and two stand-ins that say who they are."""
    identity = build(identity_settings())
    upstreams = Upstreams.in_process({"identity": identity.app, "marketplace": tagged("marketplace"),
                                      "payments": tagged("payments")}, timeout=10)
    gateway = Gateway(GatewaySettings(web_dist=tmp_path, jwt_public_key_file=tmp_path / "k.pub"), upstreams,
                      TokenVerifier.from_file(tmp_path / "k.pub"))
    async with running(identity) as bus:
        gateway.attach(bus)
        async with client(gateway.app) as http:
            yield http, gateway


async def test_through_the_gateway_buyers_reach_payments_and_odd_paths_are_refused(routed):
    http, gateway = routed
    buyer, _ = await session(http)
    creator, _ = await session(http, "INFLUENCER")
    funded = await http.post(f"/api/buyer/campaigns/{CAMPAIGN}/fund", headers=bearer(buyer))
    assert funded.status_code == 200 and funded.json() == {"service": "payments",
                                                           "path": f"/buyer/campaigns/{CAMPAIGN}/fund"}
    listed = await http.get("/api/buyer/campaigns", headers=bearer(buyer))
    assert listed.json()["service"] == "marketplace"
    wrong_role = await http.post(f"/api/buyer/campaigns/{CAMPAIGN}/fund", headers=bearer(creator))
    anonymous = await http.post(f"/api/buyer/campaigns/{CAMPAIGN}/fund")
    assert wrong_role.status_code == anonymous.status_code == 403
    # sent byte for byte (httpx would normalise them): refused before any routing
    for odd in ("/api/buyer/campaigns//fund", f"/api/buyer/campaigns/{CAMPAIGN}/fund/..",
                f"/api/buyer/campaigns/{CAMPAIGN}/./fund", f"/api/buyer/campaigns/x/../{CAMPAIGN}/fund",
                "/api/buyer/campaigns/a%2Fb/fund", "/api/buyer/campaigns/a%2fb/fund",
                "/api/buyer/campaigns/a%5Cb/fund", f"/api/buyer/campaigns/{CAMPAIGN}%00/fund",
                "/api/buyer/campaigns/%252F/fund", f"/api/buyer/campaigns/{CAMPAIGN}/fund/"):
        status, _, body = await asgi_request(gateway.app, "POST", odd)
        assert (status, body.get("code")) == (404, "not_found"), odd
