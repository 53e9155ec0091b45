"""The gateway: /api routing with token and role checks, the dashboards, the runtime config and the web app.

Built like a service (`build(settings)`, then `attach(bus)`, `start_background()`, `stop_background()`), so both
runs assemble it the same way: the distributed run with upstreams over HTTP, the embedded one with the services'
apps in-process (`build(settings, upstreams=..., ready_checks=...)`)."""

import asyncio
import json
import logging
import uuid
from collections.abc import Awaitable, Callable

from fastapi import APIRouter, FastAPI
from fastapi.middleware.cors import CORSMiddleware
from pinbid_kit.bus import Bus
from pinbid_kit.http import create_app
from pinbid_kit.revocations import EVENT as SESSIONS_REVOKED
from pinbid_kit.runtime import cancel_all, watch_broker
from pinbid_kit.tokens import TokenVerifier
from starlette.middleware import Middleware

from . import SERVICE, api
from .clients import trust_proxies
from .limits import BodySizeLimit
from .live import PATTERNS as LIVE_PATTERNS
from .live import Hub, LiveStreams
from .proxy import ApiProxy
from .routing import UPLOAD_PREFIXES
from .settings import GatewaySettings
from .upstreams import Upstreams

log = logging.getLogger("pinbid.gateway")
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"]


def build(settings: GatewaySettings | None = None, *, upstreams: Upstreams | None = None,
          ready_checks: dict[str, Callable[[], Awaitable[bool]]] | None = None) -> "Gateway":
    """The gateway of either run: its upstreams over HTTP from the settings unless given (the embedded run gives
    the services' apps in-process), its token verifier from the settings' public key. No readiness checks of its
    own: it has no database, and a broker outage must not take it out of its Service; the embedded run passes the
    services' databases."""
    settings = settings or GatewaySettings()
    if upstreams is None:
        upstreams = Upstreams.over_http(settings.service_urls(), timeout=settings.upstream_timeout_seconds)
    return Gateway(settings, upstreams, TokenVerifier.from_file(settings.jwt_public_key_file), ready_checks)


class Gateway:
    def __init__(self, settings: GatewaySettings, upstreams: Upstreams, verifier: TokenVerifier,
                 ready_checks: dict[str, Callable[[], Awaitable[bool]]] | None = None):
        self.settings = settings
        self.upstreams = upstreams
        self.verifier = verifier
        self.revocations = verifier.revocations
        # the live streams of this process, fed by the bus it is attached to
        self.hub = Hub(self.revocations)
        self.ready_checks = ready_checks or {}
        self.bus: Bus | None = None
        self._tasks: list[asyncio.Task] = []
        self.app = self._build()

    def attach(self, bus: Bus) -> None:
        """Subscribe (before the bus starts) this process's copy of the revocations and of the live events."""
        self.bus = bus
        bus.subscribe_broadcast([SESSIONS_REVOKED], self.revocations.on_event)
        bus.subscribe_broadcast(LIVE_PATTERNS, self.hub.on_event, never_fails=True)

    async def start_background(self, *, revocation_attempts: int | None = None) -> None:
        """The broker's metrics, and the revocations identity already knows. With `revocation_attempts` they are
        read before this returns (the embedded run, identity in the same process); without, identity may come up
        later, so they are read in the background until it answers."""
        assert self.bus is not None, "attach() the gateway to a bus first"
        self._tasks.append(asyncio.create_task(watch_broker(SERVICE, self.bus), name=f"{SERVICE}.broker"))
        if revocation_attempts is None:
            self._tasks.append(asyncio.create_task(self.load_revocations(), name=f"{SERVICE}.revocations"))
        else:
            await self.load_revocations(attempts=revocation_attempts)

    async def stop_background(self) -> None:
        await cancel_all(self._tasks)

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

    def _build(self) -> FastAPI:
        settings = self.settings
        under_base = APIRouter(prefix=settings.api_base)
        under_base.include_router(api.base)
        own_paths = {route.path for route in api.base.routes}  # the paths under the base the proxy leaves alone
        state = {"settings": settings, "upstreams": self.upstreams, "hub": self.hub, "verifier": self.verifier,
                 "web_root": settings.web_dist.resolve()}
        # compress=False: the services compress their own answers, which the proxy passes through as they are
        # (docs/decisions/api.md); static files are compressed at build time, a post's page per request
        app = create_app(SERVICE, routers=[under_base, api.side], checks=self.ready_checks, state=state,
                         description="The public /api of Pinbid.", operator_routes=settings.operator_port is None,
                         compress=False)
        # innermost of the middleware (the last of the list), so that every other one applies to them: the proxy,
        # then the live stream (both plain ASGI, below FastAPI's routing)
        app.user_middleware.append(Middleware(ApiProxy, api_base=settings.api_base, own_paths=own_paths,
                                              upstreams=self.upstreams, verifier=self.verifier))
        app.user_middleware.append(Middleware(LiveStreams, path=f"{settings.api_base}/events/stream", hub=self.hub,
                                              verifier=self.verifier,
                                              heartbeat_seconds=settings.live_heartbeat_seconds))
        app.include_router(api.web)  # last: its catch-all answers every path no other route took
        app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes,
                           upload_max_bytes=settings.upload_max_body_bytes,
                           upload_prefixes=tuple(f"{settings.api_base}{p}/" for p in UPLOAD_PREFIXES))
        if settings.cors_origins:
            app.add_middleware(CORSMiddleware, allow_origins=settings.cors_origins, allow_credentials=False,
                               allow_methods=METHODS, allow_headers=["Authorization", "Content-Type", "X-Request-Id"],
                               expose_headers=["X-Request-Id"])
        trust_proxies(app, settings.trusted_proxies)
        return app

    def operator_app(self) -> FastAPI:
        """/metrics, /docs and /openapi.json of the public API, for the operator port (GATEWAY_OPERATOR_PORT)."""
        app = create_app("gateway-operator", checks=self.ready_checks, description="The public /api of Pinbid.",
                         compress=False)
        app.openapi = self.app.openapi  # type: ignore[method-assign]
        return app
