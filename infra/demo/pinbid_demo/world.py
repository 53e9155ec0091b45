"""The demo world seeded into running services, as the embedded run does before its jobs start.

Two passes in the plan's order, each service's part done through its own use cases (`identity.py`, `social.py`,
`marketplace.py`, `payments.py` beside this file): first `seed` (people, accounts and posts, slots and their
auctions, payments), then `finish`, which needs later services' work first (pins after payments, payouts after
pins). Each part waits for the events of the parts before it, so the order is the plan's, not a race."""

import logging
import time
from collections.abc import Awaitable, Callable, Mapping

from pinbid_kit.runtime import Service

from . import identity, marketplace, payments, social

log = logging.getLogger("pinbid.demo")

Step = Callable[[Service], Awaitable[int]]
# (service, step), in seeding order: the demo data of later services is made from the events of earlier ones
STEPS: tuple[tuple[str, str, Step], ...] = (
    ("identity", "seed", identity.seed),
    ("social", "seed", social.seed),
    ("marketplace", "seed", marketplace.seed),
    ("payments", "seed", payments.seed),
    ("social", "finish", social.finish),
    ("payments", "finish", payments.finish),
)
SERVICES = frozenset(name for name, _, _ in STEPS)


async def seed(services: Mapping[str, Service]) -> None:
    """Seeds what is missing (a second run adds nothing). `services`: the running services by name, attached to
    one bus, their relays started and their jobs not yet (they would race the replayed history)."""
    missing = SERVICES - set(services)
    if missing:
        raise ValueError(f"the demo world needs {sorted(missing)} running too")
    started = time.perf_counter()
    for name, step, run in STEPS:
        began = time.perf_counter()
        created = await run(services[name])
        if created:
            log.info("demo: %d records in %s (%s, %.1fs)", created, name, step, time.perf_counter() - began)
    log.info("demo world ready in %.1fs", time.perf_counter() - started)


def add_background_bidding(services: Mapping[str, Service]) -> None:
    """The demo brands bidding now and then on the demo's open slots (a job of marketplace's, started with its
    other jobs), so a visitor sees prices move."""
    services["marketplace"].jobs.extend(marketplace.background_jobs(services["marketplace"]))
