"""/healthz (the process is alive) and /readyz (its database answers; the broker is a metric, not a probe). Both
name the service that answers, so a readiness wait can tell its process from another one on the same port."""

from collections.abc import Awaitable, Callable

from fastapi import APIRouter
from fastapi.responses import JSONResponse

Check = Callable[[], Awaitable[bool]]


def health_router(checks: dict[str, Check], service: str) -> APIRouter:
    router = APIRouter()

    @router.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        return {"status": "ok", "service": service}

    @router.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        results = {name: await check() for name, check in checks.items()}
        ready = all(results.values())
        body = {"status": "ready" if ready else "not ready", "service": service,
                "checks": {name: "ok" if ok else "failing" for name, ok in results.items()}}
        return JSONResponse(body, status_code=200 if ready else 503)

    return router
