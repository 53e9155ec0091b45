"""`python -m pinbid_launcher dlq list|replay NAME`: a service's dead-letter queue on RabbitMQ. `list` shows what is
there and takes nothing away; `replay` puts every dead letter back on the service's queue, once the cause of the
failures is fixed.

The broker and the prefix of its names are the run's the command belongs to, as `make up` wires them: the
service's own `<SERVICE>_AMQP_URL` and `<SERVICE>_BUS_PREFIX` when they are set (a pod, compose, an operator who
exported them); else `PINBID_AMQP_URL` and `PINBID_DB_PREFIX` (the `make up` run of this shell); else the prefix
of the last `make up` run from this var/ folder; else the plain names. So on a broker shared by several
deployments it never reads or replays another one's queue."""

import asyncio
import os

from pinbid_kit.bus.dead_letters import list_dead_letters, replay_dead_letters
from pinbid_kit.bus.rabbit import prefixed

from . import local, services
from .failures import one_line_on_failure


def bus_of(name: str):
    """The service's settings with the run's broker and prefix."""
    module = services.get(name)
    settings = module.settings()
    overrides = {}
    if "amqp_url" not in settings.model_fields_set and "PINBID_AMQP_URL" in os.environ:
        overrides["amqp_url"] = os.environ["PINBID_AMQP_URL"]
    if "bus_prefix" not in settings.model_fields_set:
        prefix = os.environ.get("PINBID_DB_PREFIX")
        if prefix is None:
            prefix = local.recorded_bus_prefix()
        if prefix:
            overrides["bus_prefix"] = prefix
    return module.settings(**overrides) if overrides else settings


def dead_letters(action: str, name: str) -> None:
    """Exits with status 1 and one line when the broker or the queue cannot be reached, or the prefix is not a
    valid one."""
    with one_line_on_failure(f"Dead letters of {name}"):
        settings = bus_of(name)
        queue = f"{prefixed(settings.bus_prefix, name)}.dlq"
        if action == "list":
            letters = asyncio.run(list_dead_letters(settings.amqp_url, name, prefix=settings.bus_prefix,
                                                    max_deliveries=settings.bus_max_deliveries))
            for letter in letters:
                print(f"{letter.occurred_at.isoformat()}  {letter.event_type}  {letter.event_id}  {letter.reason}")
            print(f"{name}: {len(letters)} dead letter(s) in {queue}")
        else:
            replayed = asyncio.run(replay_dead_letters(settings.amqp_url, name, prefix=settings.bus_prefix))
            print(f"{name}: {replayed} dead letter(s) put back on the queue (from {queue})")
