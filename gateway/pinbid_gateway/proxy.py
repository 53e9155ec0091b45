"""Forwards an /api request to the service that owns it, after the token and role checks.

`ApiProxy` does it as plain ASGI, below FastAPI's routing: it sits inside the kit's middleware (security headers,
path guard, request id, metrics) and the gateway's body limit, which apply to it as to every request, and takes
every /api path but the gateway's own routes (health, dashboards, the live stream), which go on to FastAPI (the
live stream through `live.LiveStreams` first)."""

from types import SimpleNamespace

import httpx
from fastapi import Request
from opentelemetry import trace
from pinbid_kit import context
from pinbid_kit.auth import principal_from
from pinbid_kit.errors import ApiError, BadGateway, Forbidden, NotFound, ServiceUnavailable, api_error_response
from pinbid_kit.telemetry import exporting
from pinbid_kit.tokens import TokenVerifier
from starlette.types import ASGIApp, Receive, Scope, Send

from .routing import ROUTES, Access, route_for
from .upstreams import UpstreamResponse, Upstreams, UpstreamTimeout, UpstreamUnreachable

HOP_BY_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
              "transfer-encoding", "upgrade", "host", "content-length"}
WRONG_ROLE = "This page is not available for your account type."


def check_access(request: Request, access: Access, verifier: TokenVerifier) -> None:
    if access is Access.PUBLIC:
        return
    principal = principal_from(request, verifier)  # refuses expired and revoked tokens
    if access in (Access.INFLUENCER, Access.BUYER, Access.OPERATOR) and principal.role != access.value:
        raise Forbidden(WRONG_ROLE, code="wrong_role")


def forwarded_headers(request: Request, *, passed_through: bool = False) -> dict[str, str]:
    """`passed_through`: the answer goes back to the browser as it comes (the proxy), so the browser's
    `Accept-Encoding` goes along and a service may compress; otherwise the gateway reads the answer, which then
    comes uncompressed."""
    headers = {name.decode("latin-1"): value.decode("latin-1") for name, value in request.scope["headers"]}
    for name in HOP_BY_HOP.intersection(headers):
        del headers[name]
    if not passed_through:
        headers.pop("accept-encoding", None)
    client = request.client.host if request.client else "unknown"
    previous = headers.get("x-forwarded-for")
    headers["x-forwarded-for"] = f"{previous}, {client}" if previous else client
    headers["x-forwarded-proto"] = request.scope.get("scheme", "http")
    headers["x-request-id"] = context.request_id.get() or ""
    return headers


class ApiProxy:
    def __init__(self, app: ASGIApp, *, api_base: str, own_paths: set[str], upstreams: Upstreams,
                 verifier: TokenVerifier):
        self.app = app
        self.api_base = api_base
        self.own_paths = own_paths  # below api_base
        self.upstreams = upstreams
        self.verifier = verifier
        # what the request metrics are labelled with: the route's prefix, never the path itself
        self.labels = {route.prefix: SimpleNamespace(path=f"{api_base}{route.prefix}/…") for route in ROUTES}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        full_path: str = scope.get("path", "")
        path = full_path[len(self.api_base):]
        if scope["type"] != "http" or not full_path.startswith(self.api_base + "/") or path in self.own_paths:
            await self.app(scope, receive, send)
            return
        try:
            upstream = await self._forward(Request(scope, receive), path)
        except ApiError as refused:
            await api_error_response(refused)(scope, receive, send)
            return
        headers = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in upstream.headers
                   if name.lower() not in HOP_BY_HOP]
        headers.append((b"content-length", str(len(upstream.body)).encode()))
        await send({"type": "http.response.start", "status": upstream.status, "headers": headers})
        await send({"type": "http.response.body", "body": upstream.body})

    async def _forward(self, request: Request, path: str) -> UpstreamResponse:
        """`path` has passed the kit's PathGuard, so it is routed and forwarded exactly as it is."""
        route = route_for(path)
        if route is None:
            raise NotFound("Not found.")
        label = self.labels[route.prefix]
        request.scope["route"] = label
        if exporting():  # FastAPI's server span is open around us, named by a route only FastAPI's routing sets
            span = trace.get_current_span()
            span.update_name(f"{request.scope['method']} {label.path}")
            span.set_attribute("http.route", label.path)
        check_access(request, route.access, self.verifier)
        return await call(self.upstreams, route.service, request, request.scope["method"], path,
                          query=request.scope["query_string"].decode("latin-1"), body=await request.body(),
                          passed_through=True)


async def call(upstreams: Upstreams, service: str, request: Request, method: str, path: str, *,
               query: str = "", body: bytes = b"", passed_through: bool = False) -> UpstreamResponse:
    """One call to a service on behalf of `request`, with the errors a person can read when it fails.
    `passed_through`: the answer's bytes go back to the browser unread, so they may come compressed."""
    if not upstreams.has(service):
        raise ServiceUnavailable(f"The {service} service is not available yet. Please try again later.")
    try:
        return await upstreams.call(service, method, path, query=query, body=body,
                                    headers=forwarded_headers(request, passed_through=passed_through))
    except UpstreamTimeout:
        raise BadGateway(f"The {service} service took too long to answer.", code="upstream_timeout") from None
    except (UpstreamUnreachable, httpx.HTTPError):
        raise ServiceUnavailable(f"The {service} service cannot be reached. Please try again later.") from None
