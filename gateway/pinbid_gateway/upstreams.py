"""HTTP clients for the services: over the network in the distributed run, in-process (ASGI) in the
embedded default. The gateway code above them is the same either way."""

import httpx
from fastapi import FastAPI
from opentelemetry.instrumentation.httpx import HTTPXClientInstrumentor


def _client(**kwargs) -> httpx.AsyncClient:
    client = httpx.AsyncClient(follow_redirects=False, **kwargs)
    HTTPXClientInstrumentor.instrument_client(client)
    return client


class Upstreams:
    def __init__(self, clients: dict[str, httpx.AsyncClient]):
        self.clients = clients

    @classmethod
    def over_http(cls, urls: dict[str, str], *, timeout: float) -> "Upstreams":
        limits = httpx.Limits(max_connections=200, max_keepalive_connections=100)
        return cls({name: _client(base_url=url, timeout=timeout, limits=limits) for name, url in urls.items()})

    @classmethod
    def in_process(cls, apps: dict[str, FastAPI], *, timeout: float) -> "Upstreams":
        return cls({
            name: _client(transport=httpx.ASGITransport(app=app), base_url=f"http://{name}", timeout=timeout)
            for name, app in apps.items()
        })

    def get(self, service: str) -> httpx.AsyncClient | None:
        return self.clients.get(service)

    async def close(self) -> None:
        for client in self.clients.values():
            await client.aclose()
