"""Prometheus metrics: request counts and latency per service and route template, plus `/metrics`."""

import time

from fastapi import APIRouter, Response
from prometheus_client import CONTENT_TYPE_LATEST, Counter, Histogram, generate_latest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .asgi import HttpMiddleware

REQUESTS = Counter("pinbid_http_requests_total", "HTTP requests", ["service", "method", "route", "status"])
LATENCY = Histogram(
    "pinbid_http_request_duration_seconds", "HTTP request latency", ["service", "method", "route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
EVENTS_HANDLED = Counter("pinbid_events_handled_total", "Integration events handled", ["service", "type", "result"])

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
def metrics() -> Response:
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)


class MetricsMiddleware(HttpMiddleware):
    def __init__(self, app: ASGIApp, service: str):
        super().__init__(app)
        self.service = service

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        start = time.perf_counter()
        status = 500

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            route = scope.get("route")
            template = getattr(route, "path", None) or "unmatched"
            method = scope["method"]
            REQUESTS.labels(self.service, method, template, str(status)).inc()
            LATENCY.labels(self.service, method, template).observe(time.perf_counter() - start)


def record_event(service: str, event_type: str, result: str) -> None:
    EVENTS_HANDLED.labels(service, event_type, result).inc()


