"""`python -m pinbid_launcher replay-outbox`: a consumer that missed events gets, from the producer's own
outbox, exactly the ones it subscribes to, on its own queue, in the order they were written."""

import os
import subprocess
import sys
import uuid
from datetime import UTC, datetime

import aio_pika
import pytest
from pinbid_kit import outbox
from pinbid_kit.db import Database
from pinbid_kit.envelope import Envelope
from pinbid_kit.events.marketplace import BidApproved, BidOutbid

pytestmark = pytest.mark.slow  # run first (pinbid_testing.plugin)


def replay(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pinbid_launcher", "replay-outbox", "marketplace", *args],
                          env={**os.environ, **env}, capture_output=True, text=True, timeout=60)


def approved(title: str) -> BidApproved:
    return BidApproved(bid_id=uuid.uuid4(), slot_id=uuid.uuid4(), slot_title=title, creator_id=uuid.uuid4(),
                       buyer_id=uuid.uuid4(), final_price_cents=5_000)


async def test_a_consumer_gets_what_it_missed_and_only_that(new_database, amqp_url, tmp_path):
    db = Database(new_database("pinbid_marketplace"))
    first, second = approved("First reel"), approved("Second reel")
    async with db.transaction() as session:
        await outbox.publish(session, first, source="marketplace")
        await outbox.publish(session, BidOutbid(bid_id=uuid.uuid4(), slot_id=uuid.uuid4(), slot_title="Other",
                                                buyer_id=uuid.uuid4(), current_bid_cents=4_000,
                                                auction_end=datetime.now(UTC)), source="marketplace")
        await outbox.publish(session, second, source="marketplace")
    await db.dispose()
    prefix = f"replay{uuid.uuid4().hex[:6]}"
    env = {"MARKETPLACE_DATABASE_URL": db.url.replace("+psycopg", ""), "MARKETPLACE_AMQP_URL": amqp_url,
           "MARKETPLACE_BUS_PREFIX": prefix, "PINBID_VAR": str(tmp_path)}
    connection = await aio_pika.connect(amqp_url)
    async with connection:
        channel = await connection.channel()
        queue = await channel.declare_queue(f"{prefix}.payments", durable=True)  # payments started once
        try:
            done = replay(env, "--to", "payments")
            assert done.returncode == 0, done.stderr
            assert "marketplace -> payments: 2 event(s)" in done.stdout
            received = []
            while (message := await queue.get(no_ack=True, fail=False)) is not None:
                received.append(Envelope.from_json(message.body))
            assert [e.type for e in received] == ["marketplace.bid.approved.v1"] * 2  # payments takes no outbid
            assert [e.data["slotTitle"] for e in received] == ["First reel", "Second reel"]
        finally:
            await queue.delete(if_unused=False, if_empty=False)

    missing = replay({**env, "MARKETPLACE_BUS_PREFIX": f"none{uuid.uuid4().hex[:6]}"}, "--to", "payments")
    assert missing.returncode == 1 and missing.stderr.strip().startswith("Replaying marketplace's outbox to payments")
