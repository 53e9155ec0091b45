"""The gateway: /api routing with token and role checks, the dashboards, the runtime config and the web app."""

import asyncio
import json
import logging
import mimetypes
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

from fastapi import APIRouter, Depends, FastAPI, Query, Request, Response
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from pinbid_kit.auth import principal_from
from pinbid_kit.errors import Forbidden, NotFound
from pinbid_kit.http import create_app
from pinbid_kit.tokens import Principal, TokenVerifier
from pinbid_kit.web_rules import web_rules
from starlette.middleware import Middleware

from . import dashboards
from .clients import trust_proxies
from .limits import BodySizeLimit
from .live import Hub, open_stream
from .proxy import WRONG_ROLE, ApiProxy, call
from .settings import GatewaySettings
from .upstreams import Upstreams

log = logging.getLogger("pinbid.gateway")
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"]


class Gateway:
    def __init__(self, settings: GatewaySettings, upstreams: Upstreams, verifier: TokenVerifier,
                 ready_checks: dict[str, Callable[[], Awaitable[bool]]] | None = None):
        self.settings = settings
        self.upstreams = upstreams
        self.verifier = verifier
        self.revocations = verifier.revocations
        # the live streams of this process; the launcher subscribes it to live.PATTERNS
        self.hub = Hub(self.revocations)
        self.ready_checks = ready_checks or {}
        self.app = self._build()

    async def load_revocations(self, *, attempts: int | None = None, delay: float = 2.0) -> None:
        """Ask identity once for recent revocations; retried until identity answers."""
        tries = 0
        while attempts is None or tries < attempts:
            tries += 1
            if not self.upstreams.has("identity"):
                return
            try:
                response = await self.upstreams.call("identity", "GET", "/internal/token-versions")
                if response.status != 200:
                    raise RuntimeError(f"identity answered {response.status}")
                for row in json.loads(response.body):
                    self.revocations.apply(uuid.UUID(row["userId"]), int(row["tokenVersion"]))
                return
            except Exception as exc:
                log.warning("could not load revocations from identity yet: %r", exc)
                await asyncio.sleep(delay)

    def _role(self, role: str) -> Callable[[Request], Principal]:
        async def dependency(request: Request) -> Principal:
            principal = principal_from(request, self.verifier)
            if principal.role != role:
                raise Forbidden(WRONG_ROLE, code="wrong_role")
            return principal

        return dependency

    def _build(self) -> FastAPI:
        settings = self.settings
        api = APIRouter(prefix=settings.api_base)

        @api.get("/health", tags=["health"], openapi_extra={"security": []})  # public
        async def health() -> dict[str, str]:
            return {"status": "ok"}

        @api.get("/influencer/dashboard", tags=["dashboards"], response_model=dashboards.InfluencerDashboard)
        async def influencer_dashboard(request: Request, _: Principal = Depends(self._role("INFLUENCER"))):
            return await dashboards.influencer(self.upstreams, request)

        @api.get("/buyer/dashboard", tags=["dashboards"], response_model=dashboards.BuyerDashboard)
        async def buyer_dashboard(request: Request, _: Principal = Depends(self._role("BUYER"))):
            return await dashboards.buyer(self.upstreams, request)

        @api.get("/events/stream", tags=["live"], response_class=Response, responses={200: {
            "description": "Server-Sent Events: `ready`, then `slot`, `bid` and `notification` as they happen, a "
                           "`: ping` comment every 15 s, and `end` when the token expires or is revoked.",
            "content": {"text/event-stream": {"schema": {"type": "string"}}}}})
        async def events_stream(request: Request, slots: str | None = Query(
                default=None, max_length=4000, description="Slot ids to watch (at most 100), separated by commas.")):
            return open_stream(request, self.hub, self.verifier, slots, settings.live_heartbeat_seconds)

        own_paths = {route.path.removeprefix(settings.api_base) for route in api.routes}
        app = create_app("gateway", routers=[api], checks=self.ready_checks,
                         description="The public /api of Pinbid.", operator_routes=settings.operator_port is None)
        # innermost of the middleware (the last of the list), so that every other one applies to it
        app.user_middleware.append(Middleware(ApiProxy, api_base=settings.api_base, own_paths=own_paths,
                                              upstreams=self.upstreams, verifier=self.verifier))

        @app.get("/runtime-config.json", include_in_schema=False)
        async def runtime_config() -> JSONResponse:
            return JSONResponse({"apiBase": settings.api_base, "rules": web_rules(settings.platform_fee_percent)},
                                headers={"Cache-Control": "no-store"})

        @app.api_route("/go/{code}", methods=["GET", "HEAD"], include_in_schema=False)
        async def vanity_link(code: str, request: Request) -> Response:
            """A placement's short link (social counts the click and says where to go)."""
            upstream = await call(self.upstreams, "social", request, request.method, f"/go/{code}")
            headers = {k: v for k, v in upstream.headers if k.lower() in ("location", "cache-control",
                                                                         "content-type", "referrer-policy")}
            return Response(upstream.body, status_code=upstream.status, headers=headers)

        self._mount_web(app, settings.web_dist)
        app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
        if settings.cors_origins:
            app.add_middleware(CORSMiddleware, allow_origins=settings.cors_origins, allow_credentials=False,
                               allow_methods=METHODS, allow_headers=["Authorization", "Content-Type", "X-Request-Id"],
                               expose_headers=["X-Request-Id"])
        trust_proxies(app, settings.trusted_proxies)
        return app

    def operator_app(self) -> FastAPI:
        """/metrics, /docs and /openapi.json of the public API, for the operator port (GATEWAY_OPERATOR_PORT)."""
        app = create_app("gateway-operator", checks=self.ready_checks, description="The public /api of Pinbid.")
        app.openapi = self.app.openapi  # type: ignore[method-assign]
        return app

    def _mount_web(self, app: FastAPI, dist: Path) -> None:
        """The built React app with an SPA fallback: any non-/api path without a file gets index.html."""
        root = dist.resolve()

        @app.api_route("/{path:path}", methods=["GET", "HEAD"], include_in_schema=False)
        async def web(path: str, request: Request) -> Response:
            if path.startswith(self.settings.api_base.strip("/") + "/"):
                raise NotFound("Not found.")
            index = root / "index.html"
            if not index.exists():
                return HTMLResponse(NOT_BUILT, status_code=503)
            candidate = (root / path).resolve()
            if path and candidate.is_file() and candidate.is_relative_to(root):
                cache = "public, max-age=31536000, immutable" if path.startswith("assets/") else "no-cache"
                return static_file(candidate, request, cache)
            return static_file(index, request, "no-cache")


def static_file(path: Path, request: Request, cache: str) -> FileResponse:
    """The file, or the gzip copy the web build made beside it when the browser accepts gzip: compressed
    once at build time, never per request."""
    headers = {"Cache-Control": cache, "Vary": "Accept-Encoding"}
    compressed = path.with_name(path.name + ".gz")
    if "gzip" in request.headers.get("accept-encoding", "") and compressed.is_file():
        media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return FileResponse(compressed, media_type=media_type, headers={**headers, "Content-Encoding": "gzip"})
    return FileResponse(path, headers=headers)


NOT_BUILT = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Pinbid</title>
<body style="font-family:system-ui;margin:4rem auto;max-width:40rem">
<h1>Pinbid</h1><p>The web app is not built yet. Run <code>make web</code> (or <code>make run</code>, which builds it)
and reload this page. The API is served under <a href="/api/health">/api</a>.</p></body></html>"""
