"""The distributed run: one service, or the gateway, as its own process, configured by environment."""

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import uvicorn
from fastapi import FastAPI
from pinbid_gateway import SERVICE as GATEWAY
from pinbid_gateway.app import build as build_gateway
from pinbid_gateway.settings import GatewaySettings
from pinbid_kit.bus import create_bus
from pinbid_kit.logs import configure_logging
from pinbid_kit.migrations import upgrade
from pinbid_kit.pooler import fit_for_pooler
from pinbid_kit.serving import HttpProtocol
from pinbid_kit.telemetry import configure_tracing

from . import collector, services

log = logging.getLogger("pinbid.standalone")


def serve_service(name: str, settings) -> None:
    """`settings`: the service's, checked (configuration.py)."""
    module = services.get(name)
    configure_logging(level=settings.log_level, json_format=settings.log_json)
    configure_tracing(f"pinbid-{name}")
    if settings.migrate_on_start:
        upgrade(settings.database_url, module.package)
    service = module.build(settings)
    fit_for_pooler(service.db, settings)
    bus = _bus(settings)
    service.attach(bus, relay_batch_size=settings.relay_batch_size, relay_idle_seconds=settings.relay_idle_seconds,
                   outbox_retention_days=settings.outbox_retention_days, listen_url=settings.listen_url(),
                   events_at_once=settings.events_at_once())

    _run_on_bus(service.app, bus, service, close=service.db.dispose,
                serving=(name, settings.host, settings.port))
    # keep-alive longer than the gateway's pool keeps idle connections, so it never reuses a closed one
    uvicorn.run(service.app, host=settings.host, port=settings.port, log_config=None,
                timeout_graceful_shutdown=10, timeout_keep_alive=75, http=HttpProtocol)


def _bus(settings):
    return create_bus(settings.bus, amqp_url=settings.amqp_url, max_deliveries=settings.bus_max_deliveries,
                      prefix=settings.bus_prefix, prefetch=settings.bus_prefetch)


def _run_on_bus(app: FastAPI, bus, runner, *, close: Callable[[], Awaitable[None]],
                serving: tuple[str, str, int] | None = None) -> None:
    """The app's lifespan: the bus up, then the runner's (a service's or the gateway's) background work; going down,
    the reverse, then `close` (what the runner holds open)."""

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI):
        await _start_bus(bus)
        await runner.start_background()
        if serving:
            log.info("%s is serving on %s:%d", *serving)
        yield
        await runner.stop_background()
        await bus.stop()
        await close()

    app.router.lifespan_context = lifespan
    collector.started()


async def _start_bus(bus, attempts: int = 30) -> None:
    """The broker may come up after us (compose, k8s): keep trying for a while, then give up loudly."""
    for attempt in range(1, attempts + 1):
        try:
            await bus.start()
            return
        except Exception as exc:
            if attempt == attempts:
                raise
            log.warning("broker not reachable yet (%r); retrying", exc)
            await asyncio.sleep(min(attempt, 5))


def serve_gateway(settings: GatewaySettings) -> None:
    configure_logging(level=settings.log_level, json_format=settings.log_json)
    configure_tracing(f"pinbid-{GATEWAY}")
    gateway = build_gateway(settings)
    bus = _bus(settings)
    gateway.attach(bus)
    _run_on_bus(gateway.app, bus, gateway, close=gateway.upstreams.close)
    # proxy_headers=False: the gateway's own middleware decides
    public = uvicorn.Server(uvicorn.Config(gateway.app, host=settings.host, port=settings.port, log_config=None,
                                           timeout_graceful_shutdown=10, timeout_keep_alive=75, access_log=False,
                                           proxy_headers=False, http=HttpProtocol))
    if settings.operator_port is None:
        public.run()
        return
    operator = uvicorn.Server(uvicorn.Config(gateway.operator_app(), host=settings.host, port=settings.operator_port,
                                             log_config=None, lifespan="off", proxy_headers=False,
                                             http=HttpProtocol))
    asyncio.run(_serve_together(public, operator))


async def _serve_together(*servers: uvicorn.Server) -> None:
    """Both servers stop when either does (uvicorn's signal handling stops the one that installed it)."""
    tasks = [asyncio.create_task(server.serve()) for server in servers]
    await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for server in servers:
        server.should_exit = True
    await asyncio.gather(*tasks)
