import uuid

import pytest
from fastapi import APIRouter, FastAPI, Request
from pinbid_gateway.app import Gateway
from pinbid_gateway.settings import GatewaySettings
from pinbid_gateway.upstreams import Upstreams
from pinbid_identity.app import build
from pinbid_kit.tokens import TokenVerifier
from pinbid_testing import client, running


def echo_service() -> FastAPI:
    """Stands in for a routed service: answers with what the gateway forwarded."""
    app = FastAPI()
    router = APIRouter()

    @router.api_route("/{path:path}", methods=["GET", "POST", "PUT"])
    async def echo(path: str, request: Request) -> dict:
        return {"path": "/" + path, "query": str(request.query_params), "body": (await request.body()).decode(),
                "forwardedFor": request.headers.get("x-forwarded-for"),
                "requestId": request.headers.get("x-request-id"),
                "authorization": request.headers.get("authorization")}

    app.include_router(router)
    return app


@pytest.fixture
async def stack(identity_settings, tmp_path):
    identity = build(identity_settings())
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><title>Pinbid app</title>")
    (dist / "assets" / "app.js").write_text("console.log('pinbid')")
    gateway_settings = GatewaySettings(web_dist=dist, max_body_bytes=2048, cors_origins=["http://localhost:5173"],
                                       jwt_public_key_file=tmp_path / "k.pub")
    upstreams = Upstreams.in_process({"identity": identity.app, "marketplace": echo_service()}, timeout=10)
    gateway = Gateway(gateway_settings, upstreams, TokenVerifier.from_file(tmp_path / "k.pub"))
    async with running(identity) as bus:
        gateway.attach(bus)
        async with client(gateway.app) as http:
            yield http, gateway, identity


async def session(http, role: str = "BUYER") -> tuple[str, dict]:
    body = {"name": "Test User", "email": f"u-{uuid.uuid4().hex[:8]}@example.com", "password": "long enough",
            "role": role}
    if role == "INFLUENCER":
        body["instagramHandle"] = "maya.makes"
    response = await http.post("/api/auth/register", json=body)
    assert response.status_code == 201, response.text
    return response.json()["token"], body


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
