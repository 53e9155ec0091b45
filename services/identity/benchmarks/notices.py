"""What a notice costs identity: an outbid event handled (notice, its live event in the outbox, the mail queued or
folded into a pending one), the notice mails sent to a folder, and due reminders fired.

    uv run python services/identity/benchmarks/notices.py [--events 1000] [--users 50] [--slots 20]
"""

import argparse
import asyncio
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pinbid_identity.accounts import Signup
from pinbid_identity.app import build
from pinbid_identity.domain.accounts import Role
from pinbid_identity.settings import IdentitySettings
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import marketplace as m
from pinbid_kit.events import payments as p
from pinbid_testing import MovableClock, scratch_database


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def outbid(buyer: uuid.UUID, slot: uuid.UUID, cents: int) -> Envelope:
    data = m.BidOutbid(bid_id=uuid.uuid4(), slot_id=slot, slot_title="Sunset reel", buyer_id=buyer,
                       current_bid_cents=cents, auction_end=datetime.now(UTC) + timedelta(hours=1))
    return Envelope(type=data.event_type, source="bench", data=data.payload())


async def timed(handle) -> float:
    start = time.perf_counter()
    await handle
    return (time.perf_counter() - start) * 1000


async def main(events: int, users: int, slots: int) -> None:
    with scratch_database("pinbid_identity", prefix="bench_identity") as url:
        await measure(url, events, users, slots)


async def measure(url: str, events: int, users: int, slots: int) -> None:
    folder = Path(tempfile.mkdtemp())
    clock = MovableClock()
    service = build(IdentitySettings(database_url=url, jwt_private_key_file=folder / "jwt.pem",
                                     jwt_public_key_file=folder / "jwt.pub", mail_folder=folder / "mail",
                                     log_json=False, log_level="WARNING", argon2_time_cost=1,
                                     argon2_memory_kib=1024), clock=clock)
    try:
        people = [(await service.state["accounts"].register(Signup(
            name=f"Brand {i}", email=f"brand{i}@example.com", password="correct horse", role=Role.BUYER,
            business_name=f"Brand {i} Co")))[0].id for i in range(users)]
        slot_ids = [uuid.uuid4() for _ in range(slots)]
        batch = [outbid(people[i % users], slot_ids[i % slots], 4000 + i) for i in range(events)]

        one_by_one = [await timed(service.consumers.dispatch(env, {})) for env in batch[: events // 2]]
        start = time.perf_counter()
        concurrent = await asyncio.gather(*(timed(service.consumers.dispatch(env, {}))
                                            for env in batch[events // 2:]))
        wall = time.perf_counter() - start
        print(f"outbid handled one at a time: p50 {percentile(one_by_one, 50):.1f} ms, "
              f"p99 {percentile(one_by_one, 99):.1f} ms ({len(one_by_one)} events)")
        print(f"outbid handled {len(concurrent)} at once: p50 {percentile(concurrent, 50):.1f} ms, "
              f"p99 {percentile(concurrent, 99):.1f} ms, {len(concurrent) / wall:.0f} events/s")

        worker = service.state["notice_mail"]
        start, sent = time.perf_counter(), 0
        while batch_sent := await worker.run_once(batch=50):
            sent += batch_sent
        clock.now += timedelta(hours=1)  # past every coalescing window: the pending mails go too
        while batch_sent := await worker.run_once(batch=50):
            sent += batch_sent
        elapsed = time.perf_counter() - start
        print(f"{events} outbids became {sent} mails (coalesced per user, slot and window); "
              f"sent to a folder at {sent / elapsed:.0f} mails/s")

        requested = [p.PaymentRequested(payment_id=uuid.uuid4(), bid_id=uuid.uuid4(), buyer_id=people[i % users],
                                        creator_id=uuid.uuid4(), amount_cents=4300,
                                        expires_at=clock.now + timedelta(hours=48)) for i in range(events)]
        for data in requested:
            await service.consumers.dispatch(Envelope(type=data.event_type, source="bench", data=data.payload()), {})
        clock.now += timedelta(hours=43)
        reminders = service.state["reminders"]
        start = time.perf_counter()
        fired = sum(await asyncio.gather(*(reminders.run_once() for _ in range(4))))
        while more := await reminders.run_once():
            fired += more
        print(f"{fired} due reminders fired by 4 concurrent job runs in {time.perf_counter() - start:.2f} s")
    finally:
        await service.db.dispose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--slots", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(main(args.events, args.users, args.slots))
