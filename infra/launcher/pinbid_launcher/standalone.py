"""The distributed run: one service, or the gateway, as its own process, configured by environment."""

import asyncio
import contextlib
import logging

import uvicorn
from fastapi import FastAPI
from pinbid_gateway import SERVICE as GATEWAY
from pinbid_gateway.app import build as build_gateway
from pinbid_gateway.settings import GatewaySettings
from pinbid_kit.bus import create_bus
from pinbid_kit.logs import configure_logging
from pinbid_kit.migrations import upgrade
from pinbid_kit.pooler import fit_for_pooler
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
    bus = create_bus(settings.bus, amqp_url=settings.amqp_url, max_deliveries=settings.bus_max_deliveries,
                     prefix=settings.bus_prefix, prefetch=settings.events_at_once())
    service.attach(bus, relay_batch_size=settings.relay_batch_size, relay_idle_seconds=settings.relay_idle_seconds,
                   outbox_retention_days=settings.outbox_retention_days, listen_url=settings.listen_url())

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI):
        await _start_bus(bus)
        await service.start_background()
        log.info("%s is serving on %s:%d", name, settings.host, settings.port)
        yield
        await service.stop_background()
        await bus.stop()
        await service.db.dispose()

    service.app.router.lifespan_context = lifespan
    collector.started()
    # keep-alive longer than the gateway's pool keeps idle connections, so it never reuses a closed one
    uvicorn.run(service.app, host=settings.host, port=settings.port, log_config=None,
                timeout_graceful_shutdown=10, timeout_keep_alive=75)


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
    bus = create_bus(settings.bus, amqp_url=settings.amqp_url, max_deliveries=settings.bus_max_deliveries,
                     prefix=settings.bus_prefix, prefetch=settings.events_at_once())
    gateway.attach(bus)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI):
        await _start_bus(bus)
        await gateway.start_background()
        yield
        await gateway.stop_background()
        await bus.stop()
        await gateway.upstreams.close()

    gateway.app.router.lifespan_context = lifespan
    collector.started()
    public = uvicorn.Server(uvicorn.Config(gateway.app, host=settings.host, port=settings.port, log_config=None,
                                           timeout_graceful_shutdown=10, timeout_keep_alive=75, access_log=False,
                                           proxy_headers=False))  # the gateway's own middleware decides
    if settings.operator_port is None:
        public.run()
        return
    operator = uvicorn.Server(uvicorn.Config(gateway.operator_app(), host=settings.host, port=settings.operator_port,
                                             log_config=None, lifespan="off", proxy_headers=False))
    asyncio.run(_serve_together(public, operator))


async def _serve_together(*servers: uvicorn.Server) -> None:
    """Both servers stop when either does (uvicorn's signal handling stops the one that installed it)."""
    tasks = [asyncio.create_task(server.serve()) for server in servers]
    await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for server in servers:
        server.should_exit = True
    await asyncio.gather(*tasks)
