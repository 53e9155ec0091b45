"""`python -m pinbid_launcher replay-outbox PRODUCER --to CONSUMER [--days N]`: sends CONSUMER the events
PRODUCER wrote in the last N days (default: the whole retention), from PRODUCER's own outbox, for a consumer
added to an existing install or restored from a backup. Run it with PRODUCER's settings (its database,
AMQP_URL and BUS_PREFIX), e.g. in one of its pods; CONSUMER must have started once (its queue exists)."""

import asyncio
from datetime import UTC, datetime, timedelta

from pinbid_kit.db import Database
from pinbid_kit.outbox_replay import replay_outbox
from pinbid_kit.pooler import fit_for_pooler

from . import services
from .failures import one_line_on_failure

NO_DATABASE = "postgresql://replay@127.0.0.1:1/replay"  # the consumer is built only to read its subscriptions


def consumer_patterns(name: str) -> list[str]:
    module = services.get(name)
    return module.build(module.settings(database_url=NO_DATABASE)).consumers.patterns


def replay(producer: str, consumer: str, days: float | None) -> None:
    """Exits with status 1 and one line when the database, the broker or the consumer's queue is missing."""
    settings = services.get(producer).settings()
    since = datetime.now(UTC) - timedelta(days=days if days is not None else settings.outbox_retention_days)

    async def run() -> int:
        db = Database(settings.database_url)
        fit_for_pooler(db, settings)
        try:
            return await replay_outbox(db, settings.amqp_url, queue=consumer, patterns=consumer_patterns(consumer),
                                       since=since, prefix=settings.bus_prefix)
        finally:
            await db.dispose()

    with one_line_on_failure(f"Replaying {producer}'s outbox to {consumer}"):
        sent = asyncio.run(run())
    print(f"{producer} -> {consumer}: {sent} event(s) since {since.isoformat(timespec='seconds')} replayed")
