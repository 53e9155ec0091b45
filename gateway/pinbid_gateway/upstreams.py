"""Calls to the services: over HTTP (aiohttp) in the distributed run, in-process (ASGI, through httpx) in the
embedded default. The gateway code above them is the same either way. The httpx and aiohttp
instrumentations (pinbid_kit.telemetry) make each call a client span and send its trace context along.

Neither decodes a compressed answer: a service gzips what is large when the caller accepts it (pinbid_kit.http),
and the bytes go back as they came, with their `Content-Encoding`. A call asks for compression only when its
headers say so (the proxy forwards the browser's `Accept-Encoding`); any other call asks for `identity`, since the
gateway reads its answer (dashboards, the sitemap, a post's page, revocations).

Both clients are shared by every person the gateway serves, so neither keeps a cookie: a service's `Set-Cookie`
goes back in the answer to the browser that asked (proxy.py) and is never stored here, and a request carries the
`Cookie` header its browser sent, or none (docs/decisions/security.md)."""

from dataclasses import dataclass
from typing import Protocol
from urllib.parse import quote

import aiohttp
import httpx
import yarl
from fastapi import FastAPI
from pinbid_kit.no_cookies import cookieless_jar
from pinbid_kit.telemetry import exporting


@dataclass(frozen=True)
class UpstreamResponse:
    status: int
    headers: list[tuple[str, str]]
    body: bytes


class UpstreamTimeout(Exception):
    pass


class UpstreamUnreachable(Exception):
    pass


PATH_SAFE = "/:@!$&'()*+,;=-._~"  # RFC 3986 pchar and "/"
# what a call takes unless its headers say otherwise: the answer as it is (both clients would otherwise offer gzip)
NOT_ENCODED = "identity"


class Upstream(Protocol):
    async def send(self, method: str, target: str, body: bytes, headers: dict[str, str]) -> UpstreamResponse: ...

    async def close(self) -> None: ...


def _traced_aiohttp() -> list | None:
    """The instrumentation's trace config when spans are made (imported only then)."""
    if not exporting():
        return None
    from opentelemetry.instrumentation.aiohttp_client import create_trace_config

    return [create_trace_config()]


class HttpUpstream:
    """aiohttp: its connection pool stays cheap with hundreds of requests in flight (httpx's does not)."""

    def __init__(self, base_url: str, *, timeout: float, max_connections: int = 256):
        self.base_url = base_url.rstrip("/")
        self.timeout = aiohttp.ClientTimeout(total=timeout)
        self.max_connections = max_connections
        self._session: aiohttp.ClientSession | None = None

    def _connector(self) -> aiohttp.TCPConnector:
        return aiohttp.TCPConnector(limit=self.max_connections, keepalive_timeout=30)

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None:  # made lazily: a session belongs to the running event loop
            self._session = aiohttp.ClientSession(connector=self._connector(), timeout=self.timeout,
                                                  cookie_jar=aiohttp.DummyCookieJar(),  # keeps no one's cookies
                                                  auto_decompress=False, skip_auto_headers=("User-Agent",),
                                                  trace_configs=_traced_aiohttp())
        return self._session

    async def send(self, method: str, target: str, body: bytes, headers: dict[str, str]) -> UpstreamResponse:
        try:
            url = yarl.URL(self.base_url + target, encoded=True)  # as given: yarl would otherwise resolve dot segments
            async with self._client().request(method, url, data=body or None, headers=headers,
                                              allow_redirects=False) as response:
                content = await response.read()
                return UpstreamResponse(response.status, list(response.headers.items()), content)
        except TimeoutError as exc:
            raise UpstreamTimeout(str(exc)) from exc
        except aiohttp.ClientError as exc:
            raise UpstreamUnreachable(str(exc)) from exc

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()


class AsgiUpstream:
    def __init__(self, app: FastAPI, *, timeout: float):
        # raise_app_exceptions=False: the service has answered its own 500 (and logged it); Starlette re-raises
        # afterwards, which would otherwise surface here as a second, gateway-side error
        transport: httpx.AsyncBaseTransport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        if exporting():  # the instrumentation is imported only when spans are made
            from opentelemetry.instrumentation.httpx import AsyncOpenTelemetryTransport

            transport = AsyncOpenTelemetryTransport(transport)
        self.client = httpx.AsyncClient(transport=transport, base_url="http://service", timeout=timeout,
                                        follow_redirects=False, cookies=cookieless_jar())  # keeps no one's cookies

    async def send(self, method: str, target: str, body: bytes, headers: dict[str, str]) -> UpstreamResponse:
        try:
            request = self.client.build_request(method, target, content=body, headers=headers)
            response = await self.client.send(request, stream=True)
            try:  # the raw bytes: `response.content` would be decoded while the headers still say gzip
                content = b"".join([chunk async for chunk in response.aiter_raw()])
            finally:
                await response.aclose()
        except (TimeoutError, httpx.TimeoutException) as exc:
            raise UpstreamTimeout(str(exc)) from exc
        return UpstreamResponse(response.status_code, list(response.headers.multi_items()), content)

    async def close(self) -> None:
        await self.client.aclose()


class Upstreams:
    def __init__(self, upstreams: dict[str, Upstream]):
        self.upstreams = upstreams

    @classmethod
    def over_http(cls, urls: dict[str, str], *, timeout: float) -> "Upstreams":
        return cls({name: HttpUpstream(url, timeout=timeout) for name, url in urls.items()})

    @classmethod
    def in_process(cls, apps: dict[str, FastAPI], *, timeout: float) -> "Upstreams":
        return cls({name: AsgiUpstream(app, timeout=timeout) for name, app in apps.items()})

    def has(self, service: str) -> bool:
        return service in self.upstreams

    async def call(self, service: str, method: str, path: str, *, query: str = "", body: bytes = b"",
                   headers: dict[str, str] | None = None) -> UpstreamResponse:
        """`query`: the raw query string, already encoded (a request's own, forwarded as it came). `headers` in
        lower case; without `accept-encoding` the answer comes uncompressed."""
        upstream = self.upstreams[service]
        target = quote(path, safe=PATH_SAFE)  # percent-encoded once here, so neither client re-reads it
        if query:
            target += "?" + query
        return await upstream.send(method, target, body, {"accept-encoding": NOT_ENCODED, **(headers or {})})

    async def close(self) -> None:
        for upstream in self.upstreams.values():
            await upstream.close()
