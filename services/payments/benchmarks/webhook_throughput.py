"""Webhook handling throughput and latency, signature checking included.

Builds the payments service on a fresh PostgreSQL database, opens N payment requests, then posts N signed
`checkout.session.completed` events (each a real completion: ledger, earning, outbox) with C in flight,
followed by the same N events again (duplicates). Prints events/s and p50/p99 per request.

    uv run python services/payments/benchmarks/webhook_throughput.py [--events 2000] [--concurrency 32]
"""

import argparse
import asyncio
import json
import statistics
import tempfile
import time
import uuid
from pathlib import Path

import httpx
from cryptography.fernet import Fernet
from pinbid_kit.envelope import Envelope
from pinbid_kit.events.marketplace import BidApproved
from pinbid_kit.tokens import generate_keypair
from pinbid_payments.adapters.signing import stripe_signature
from pinbid_payments.app import build
from pinbid_payments.settings import PaymentsSettings
from pinbid_testing import scratch_database
from sqlalchemy import text


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def main(events: int, concurrency: int) -> None:
    with scratch_database("pinbid_payments", prefix="bench_payments") as url:
        keys = Path(tempfile.mkdtemp())
        generate_keypair(keys / "k.pem", keys / "k.pub")
        settings = PaymentsSettings(database_url=url, jwt_public_key_file=keys / "k.pub",
                                    encryption_keys=Fernet.generate_key().decode(), log_level="WARNING")
        service = build(settings)
        service.db.engine.pool._pool.maxsize = concurrency  # noqa: SLF001 (no pool waits in the figures)
        payments = []
        for _ in range(events):
            approved = BidApproved(bid_id=uuid.uuid4(), slot_id=uuid.uuid4(), slot_title="Bench",
                                   creator_id=uuid.uuid4(), buyer_id=uuid.uuid4(), final_price_cents=10_000)
            await service.consumers.dispatch(Envelope(type=approved.event_type, source="bench",
                                                      data=approved.payload()), {})
            payments.append(approved)
        async with service.db.transaction() as session:
            ids = dict((await session.execute(text("SELECT bid_id, id FROM payments"))).all())
        bodies = [json.dumps({"id": f"evt_{uuid.uuid4().hex}", "object": "event", "type": "checkout.session.completed",
                              "created": int(time.time()), "data": {"object": {
                                  "id": f"cs_{i}", "object": "checkout.session", "payment_status": "paid",
                                  "status": "complete", "amount_total": 10_000, "currency": "usd",
                                  "payment_intent": f"pi_{i}", "metadata": {"payment_id": str(ids[p.bid_id])}}}})
                  for i, p in enumerate(payments)]
        http = httpx.AsyncClient(transport=httpx.ASGITransport(app=service.app), base_url="http://bench")
        gate = asyncio.Semaphore(concurrency)

        async def post(body: str, latencies: list[float], outcomes: list[str]) -> None:
            async with gate:
                started = time.perf_counter()
                response = await http.post("/payments/webhook", content=body, headers={
                    "Stripe-Signature": stripe_signature(body, settings.webhook_secret)})
                latencies.append(time.perf_counter() - started)
                outcomes.append(response.json().get("outcome", str(response.status_code)))

        for label in ("first delivery", "duplicate delivery"):
            latencies: list[float] = []
            outcomes: list[str] = []
            started = time.perf_counter()
            await asyncio.gather(*[post(b, latencies, outcomes) for b in bodies])
            elapsed = time.perf_counter() - started
            kinds = {o: outcomes.count(o) for o in set(outcomes)}
            print(f"{label:>18}: {events} webhooks, concurrency {concurrency}: {events / elapsed:7.0f}/s, "
                  f"p50 {pct(latencies, 0.5):6.1f} ms, p99 {pct(latencies, 0.99):6.1f} ms, "
                  f"mean {statistics.mean(latencies) * 1000:6.1f} ms; outcomes {kinds}")
        await http.aclose()
        await service.db.dispose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args()
    asyncio.run(main(args.events, args.concurrency))
