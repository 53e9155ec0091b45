"""The FastAPI application every service (and the gateway) starts from."""

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from fastapi import APIRouter, FastAPI
from starlette.middleware.gzip import GZipMiddleware

from .errors import install_error_handlers
from .health import Check, health_router
from .metrics import MetricsMiddleware
from .metrics import router as metrics_router
from .path_guard import PathGuard
from .requests import RequestIdMiddleware
from .security_headers import SecurityHeaders

# FastAPI's own OpenTelemetry: a server span per request once a tracer provider is configured (see
# pinbid_kit.telemetry). Metrics are Prometheus's (metrics.py), logs our own; probes and scrapes make no span.
TELEMETRY = {"metrics": False, "logs": False, "operation_spans": False,
             "exclude": lambda scope: scope.get("path") in ("/healthz", "/readyz", "/metrics")}
# A service's answer is gzipped when the caller accepts gzip and it is at least this long: below it the gzip header
# and the CPU cost more than the bytes saved. Level 6: zlib's default, nearly level 9's size for a third of its CPU.
# Starlette's middleware leaves alone what is already encoded, partial content, event streams and images.
COMPRESS_MIN_BYTES = 1024
COMPRESS_LEVEL = 6


def create_app(
    service: str,
    *,
    routers: Sequence[APIRouter] = (),
    checks: dict[str, Check] | None = None,
    lifespan: Callable[[FastAPI], AbstractAsyncContextManager[Any]] | None = None,
    description: str = "",
    operator_routes: bool = True,
    state: Mapping[str, Any] | None = None,
    compress: bool = True,
) -> FastAPI:
    """`operator_routes`: whether /metrics, /docs and /openapi.json are served by this app (the gateway serves
    them on a separate port in production). `state`: what the routes' dependencies read (`pinbid_kit.deps`).
    `compress`: gzip answers of `COMPRESS_MIN_BYTES` or more to a caller that accepts it (the services; the gateway
    passes their bytes through as they are and compresses nothing itself)."""
    app = FastAPI(title=f"Pinbid {service}", description=description, version="1.0.0", lifespan=lifespan,
                  redirect_slashes=False, docs_url="/docs" if operator_routes else None, redoc_url=None,
                  openapi_url="/openapi.json" if operator_routes else None, telemetry=TELEMETRY)
    for name, value in (state or {}).items():
        setattr(app.state, name, value)
    install_error_handlers(app)
    for router in routers:
        app.include_router(router)
    app.include_router(health_router(checks or {}, service))
    if operator_routes:
        app.include_router(metrics_router)
    if compress:  # innermost: the metrics and the request id see the answer as sent
        app.add_middleware(GZipMiddleware, minimum_size=COMPRESS_MIN_BYTES, compresslevel=COMPRESS_LEVEL)
    app.add_middleware(MetricsMiddleware, service=service)
    app.add_middleware(RequestIdMiddleware)
    app.add_middleware(PathGuard)
    app.add_middleware(SecurityHeaders)
    return app
