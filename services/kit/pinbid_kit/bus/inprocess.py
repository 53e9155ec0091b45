import asyncio
import logging

from ..envelope import Envelope
from ..telemetry import context_of
from .base import Handler, matches, publish_in_turn

log = logging.getLogger("pinbid.bus")


class InProcessBus:
    """The embedded default's bus. `publish` runs every matching handler before it returns, so the
    outbox relay marks a row sent only once it was handled: a crash re-delivers from the outbox,
    and the inbox makes that harmless. A failing handler is retried with backoff up to
    `max_deliveries` times, then the event is dead-lettered (kept in `dead_letters` and logged)."""

    def __init__(self, *, max_deliveries: int = 5, retry_base_seconds: float = 0.05):
        self.max_deliveries = max_deliveries
        self.retry_base_seconds = retry_base_seconds
        self._subscriptions: list[tuple[str, list[str], Handler]] = []
        self.dead_letters: list[tuple[str, Envelope, str]] = []
        self._running = False

    def subscribe(self, queue: str, patterns: list[str], handler: Handler) -> None:
        self._subscriptions.append((queue, patterns, handler))

    def subscribe_broadcast(self, patterns: list[str], handler: Handler, *, never_fails: bool = False) -> None:
        self._subscriptions.append(("broadcast", patterns, handler))

    async def start(self) -> None:
        self._running = True

    async def stop(self) -> None:
        self._running = False

    async def ping(self) -> bool:
        return self._running

    async def dead_letter_depths(self) -> dict[str, int]:
        depths = {queue: 0 for queue, _, _ in self._subscriptions if queue != "broadcast"}
        for queue, _, _ in self.dead_letters:
            depths[queue] = depths.get(queue, 0) + 1
        return depths

    async def publish(self, envelope: Envelope, headers: dict[str, str]) -> None:
        if not self._running:
            raise ConnectionError("the in-process bus is not running")
        for queue, patterns, handler in self._subscriptions:
            if any(matches(p, envelope.type) for p in patterns):
                await self._deliver(queue, handler, envelope, headers)

    async def publish_batch(self, items: list[tuple[Envelope, dict[str, str]]]) -> list[Exception | None]:
        """One after the other (each runs its handlers inline); after a failure the rest are not tried."""
        return await publish_in_turn(self.publish, items)

    async def _deliver(self, queue: str, handler: Handler, envelope: Envelope, headers: dict[str, str]) -> None:
        for attempt in range(1, self.max_deliveries + 1):
            try:
                with context_of(headers):  # as the RabbitMQ middleware does: the handler joins the producer's trace
                    await handler(envelope, {**headers, "x-delivery-count": str(attempt - 1)})
                return
            except Exception as exc:
                if attempt == self.max_deliveries:
                    log.error(
                        "dead-lettered %s (%s) for %s after %d deliveries: %r",
                        envelope.type, envelope.id, queue, attempt, exc,
                    )
                    self.dead_letters.append((queue, envelope, repr(exc)))
                    return
                await asyncio.sleep(self.retry_base_seconds * 2 ** (attempt - 1))
