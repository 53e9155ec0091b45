"""`python -m pinbid_launcher dlq list|replay NAME`: a service's dead-letter queue on RabbitMQ, read with the
service's own settings (AMQP_URL, BUS_PREFIX). `list` shows what is there and takes nothing away; `replay`
puts every dead letter back on the service's queue, once the cause of the failures is fixed."""

import asyncio

from pinbid_kit.bus.dead_letters import list_dead_letters, replay_dead_letters

from . import services
from .failures import one_line_on_failure


def dead_letters(action: str, name: str) -> None:
    """Exits with status 1 and one line when the broker or the queue cannot be reached."""
    module = services.get(name)
    settings = module.settings()
    with one_line_on_failure(f"Dead letters of {name}"):
        if action == "list":
            letters = asyncio.run(list_dead_letters(settings.amqp_url, name, prefix=settings.bus_prefix,
                                                    max_deliveries=settings.bus_max_deliveries))
            for letter in letters:
                print(f"{letter.occurred_at.isoformat()}  {letter.event_type}  {letter.event_id}  {letter.reason}")
            print(f"{name}: {len(letters)} dead letter(s)")
        else:
            replayed = asyncio.run(replay_dead_letters(settings.amqp_url, name, prefix=settings.bus_prefix))
            print(f"{name}: {replayed} dead letter(s) put back on the queue")
