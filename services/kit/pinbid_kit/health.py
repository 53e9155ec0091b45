"""/healthz (the process is alive) and /readyz (its database answers; the broker is a metric, not a probe)."""

from collections.abc import Awaitable, Callable

from fastapi import APIRouter
from fastapi.responses import JSONResponse

Check = Callable[[], Awaitable[bool]]


def health_router(checks: dict[str, Check]) -> APIRouter:
    router = APIRouter()

    @router.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @router.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        results = {name: await check() for name, check in checks.items()}
        ready = all(results.values())
        body = {"status": "ready" if ready else "not ready",
                "checks": {name: "ok" if ok else "failing" for name, ok in results.items()}}
        return JSONResponse(body, status_code=200 if ready else 503)

    return router
