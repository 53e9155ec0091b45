"""Forwards an /api request to the service that owns it, after the token and role checks."""

import httpx
from fastapi import Request, Response
from pinbid_kit import context
from pinbid_kit.auth import principal_from
from pinbid_kit.errors import BadGateway, Forbidden, NotFound, ServiceUnavailable
from pinbid_kit.tokens import TokenVerifier

from .routing import Access, route_for
from .upstreams import UpstreamResponse, Upstreams, UpstreamTimeout, UpstreamUnreachable

HOP_BY_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
              "transfer-encoding", "upgrade", "host", "content-length"}
WRONG_ROLE = "This page is not available for your account type."


def check_access(request: Request, access: Access, verifier: TokenVerifier) -> None:
    if access is Access.PUBLIC:
        return
    principal = principal_from(request, verifier)  # refuses expired and revoked tokens
    if access in (Access.INFLUENCER, Access.BUYER) and principal.role != access.value:
        raise Forbidden(WRONG_ROLE, code="wrong_role")


def forwarded_headers(request: Request) -> dict[str, str]:
    headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP}
    client = request.client.host if request.client else "unknown"
    previous = request.headers.get("x-forwarded-for")
    headers["x-forwarded-for"] = f"{previous}, {client}" if previous else client
    headers["x-forwarded-proto"] = request.url.scheme
    headers["x-request-id"] = context.request_id.get() or ""
    return headers


async def forward(request: Request, path: str, upstreams: Upstreams, verifier: TokenVerifier) -> Response:
    """`path` has passed the kit's PathGuard, so it is routed and forwarded exactly as it is."""
    route = route_for(path)
    if route is None:
        raise NotFound("Not found.")
    check_access(request, route.access, verifier)
    upstream = await call(upstreams, route.service, request, request.method, path,
                          params=request.query_params.multi_items(), body=await request.body())
    response = Response(content=upstream.body, status_code=upstream.status)
    for name, value in upstream.headers:
        if name.lower() not in HOP_BY_HOP:
            response.headers.append(name, value)
    return response


async def call(upstreams: Upstreams, service: str, request: Request, method: str, path: str, *,
               params: list[tuple[str, str]] | None = None, body: bytes = b"") -> UpstreamResponse:
    """One call to a service on behalf of `request`, with the errors a person can read when it fails."""
    if not upstreams.has(service):
        raise ServiceUnavailable(f"The {service} service is not available yet. Please try again later.")
    try:
        return await upstreams.call(service, method, path, params=params, body=body,
                                    headers=forwarded_headers(request))
    except UpstreamTimeout:
        raise BadGateway(f"The {service} service took too long to answer.", code="upstream_timeout") from None
    except (UpstreamUnreachable, httpx.HTTPError):
        raise ServiceUnavailable(f"The {service} service cannot be reached. Please try again later.") from None
