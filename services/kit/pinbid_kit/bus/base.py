from collections.abc import Awaitable, Callable
from functools import lru_cache
from typing import Protocol

from ..envelope import Envelope

# A handler gets the envelope and the transport headers (traceparent travels there).
Handler = Callable[[Envelope, dict[str, str]], Awaitable[None]]


@lru_cache(maxsize=4096)  # patterns and event types are a few dozen each, and every delivery asks again
def matches(pattern: str, routing_key: str) -> bool:
    """AMQP topic matching: '*' is exactly one word, '#' is zero or more words."""

    def match(p: list[str], k: list[str]) -> bool:
        if not p:
            return not k
        if p[0] == "#":
            return any(match(p[1:], k[i:]) for i in range(len(k) + 1))
        return bool(k) and (p[0] == "*" or p[0] == k[0]) and match(p[1:], k[1:])

    return match(pattern.split("."), routing_key.split("."))


async def publish_in_turn(publish: Callable[[Envelope, dict[str, str]], Awaitable[None]],
                          items: list[tuple[Envelope, dict[str, str]]]) -> list[Exception | None]:
    """`publish_batch` for a bus that publishes one event at a time: in order; after a failure the rest are not
    tried and get its error."""
    outcomes: list[Exception | None] = []
    for envelope, headers in items:
        if outcomes and outcomes[-1] is not None:
            outcomes.append(outcomes[-1])
            continue
        try:
            await publish(envelope, headers)
            outcomes.append(None)
        except Exception as exc:
            outcomes.append(exc)
    return outcomes


class Bus(Protocol):
    """Subscriptions are made before `start`. `publish` returns once the bus has taken the event
    (RabbitMQ: publisher confirm; in-process: every subscriber has handled or dead-lettered it)."""

    def subscribe(self, queue: str, patterns: list[str], handler: Handler) -> None:
        """A durable, shared queue: each event reaches one instance of the service."""

    def subscribe_broadcast(self, patterns: list[str], handler: Handler, *, never_fails: bool = False) -> None:
        """Every running instance receives the event (for in-memory caches such as revocations). `never_fails`:
        the handler catches its own errors (the live hub), so a delivery needs no retry and may be counted done as
        it is handed over."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def publish(self, envelope: Envelope, headers: dict[str, str]) -> None: ...

    async def publish_batch(self, items: list[tuple[Envelope, dict[str, str]]]) -> list[Exception | None]:
        """Publish several events in order; the outcome of each (None when the bus has taken it)."""

    async def ping(self) -> bool: ...

    async def dead_letter_depths(self) -> dict[str, int]:
        """Messages waiting in the dead-letter queue of each queue this bus subscribed, by queue name."""
