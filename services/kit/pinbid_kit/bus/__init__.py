"""Event buses: the same interface over RabbitMQ (distributed) and in-process (embedded default)."""

from .base import Bus, Handler, matches
from .inprocess import InProcessBus
from .rabbit import RabbitBus

__all__ = ["Bus", "Handler", "InProcessBus", "RabbitBus", "matches", "create_bus"]


def create_bus(kind: str, *, amqp_url: str, max_deliveries: int, prefix: str = "", prefetch: int = 8) -> Bus:
    if kind == "rabbitmq":
        return RabbitBus(amqp_url, max_deliveries=max_deliveries, prefix=prefix, prefetch=prefetch)
    return InProcessBus(max_deliveries=max_deliveries)
