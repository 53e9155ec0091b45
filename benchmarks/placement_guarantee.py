"""The placement guarantee's background work at volume, each service on a fresh database of its own:

- social's tracker: N pinned placements checked (a provider that answers at once, so the figure is the tracker's
  own work: claim, apply, days kept, events), placements checked per second;
- payments: N paid bids pinned, then each kept day by day (PlacementKept through the consumers, as the bus
  delivers them), money stages posted per second (a release and its balanced ledger transaction each).

    uv run python -m benchmarks.placement_guarantee [--placements 2000] [--days 5]
"""

import argparse
import asyncio
import tempfile
import time
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography.fernet import Fernet
from pinbid_kit.events.marketplace import BidApproved
from pinbid_kit.events.social import CommentPinned, PlacementKept
from pinbid_kit.tokens import generate_keypair
from pinbid_testing import MovableClock, deliver, scratch_database
from sqlalchemy import text


class InstantInstagram:
    """Every comment is there, pinned, with a few likes: answers without a network."""

    async def comment_figures(self, access_token, comment_id):
        from pinbid_social.ports import CommentFigures

        return CommentFigures(exists=True, likes=len(comment_id) % 7, replies=1)

    async def pinned_comment_ids(self, session_blob, media):
        return {f"c-{media.id}"}


async def tracker(placements: int, keys: Path) -> str:
    from pinbid_social.app import build
    from pinbid_social.settings import SocialSettings

    with scratch_database("pinbid_social", prefix="bench_tracker") as url:
        settings = SocialSettings(database_url=url, jwt_public_key_file=keys / "k.pub",
                                  encryption_keys=Fernet.generate_key().decode(), log_level="WARNING",
                                  pin_sync_batch=200, pin_sync_concurrency=32)
        clock = MovableClock()
        service = build(settings, clock=clock)
        instant = InstantInstagram()
        tracker = service.state["tracker"]
        tracker.providers = replace(tracker.providers, api=instant, pinning=instant)
        box = settings.secret_box()
        creators = [uuid.uuid4() for _ in range(placements // 20 + 1)]
        pinned_at = clock.now - timedelta(days=3, hours=1)
        async with service.db.transaction() as session:
            for n, creator in enumerate(creators):
                await session.execute(text(
                    "INSERT INTO connections (user_id, provider, instagram_id, username, access_token, "
                    "token_expires_at, account_type, followers, avg_views, avg_engagement, verified, connected_at) "
                    "VALUES (:u, 'instagram', :i, :n, :t, now() + interval '50 days', 'CREATOR', 0, 0, 0, false, "
                    "now())"), {"u": creator, "i": f"ig{n}", "n": f"c{n}", "t": box.seal("token")})
                await session.execute(text("INSERT INTO pin_sessions (user_id, username, session, created_at) "
                                           "VALUES (:u, :n, :s, now())"), {"u": creator, "n": f"c{n}",
                                                                          "s": box.seal("{}")})
            await session.execute(text("""
                INSERT INTO placements (bid_id, slot_id, creator_id, buyer_id, post_id, duration_days, status,
                                        pinned_comment_id, pinned_text, pinned_at, ends_at, next_sync_at)
                SELECT gen_random_uuid(), gen_random_uuid(), (CAST(:creators AS uuid[]))[1 + n % :c],
                       gen_random_uuid(), 'm' || n, 7, 'PINNED', 'c-m' || n, 'Ad · @b: hi', :pinned,
                       :pinned + interval '7 days', :pinned
                FROM generate_series(0, :count - 1) AS n"""),
                {"creators": creators, "c": len(creators), "count": placements, "pinned": pinned_at})
        started = time.perf_counter()
        report = await tracker.run_once()
        elapsed = time.perf_counter() - started
        await service.db.dispose()
        return (f"tracker: {report.checked} placements checked in {elapsed:.2f}s = {report.checked / elapsed:.0f}/s "
                f"({report.kept_days} days kept and {report.metrics} figure changes announced)")


async def stages(placements: int, days: int, keys: Path) -> str:
    from pinbid_payments.app import build
    from pinbid_payments.completion import Completions
    from pinbid_payments.domain.webhooks import CheckoutPaid
    from pinbid_payments.settings import PaymentsSettings

    with scratch_database("pinbid_payments", prefix="bench_stages") as url:
        settings = PaymentsSettings(database_url=url, jwt_public_key_file=keys / "k.pub",
                                    encryption_keys=Fernet.generate_key().decode(), log_level="WARNING")
        service = build(settings)

        approved = [BidApproved(bid_id=uuid.uuid4(), slot_id=uuid.uuid4(), slot_title="Bench", creator_id=uuid.uuid4(),
                                buyer_id=uuid.uuid4(), final_price_cents=10_000 + n) for n in range(placements)]
        for a in approved:
            await deliver(service, a, source="bench")
        # paid through the webhook's own completion (one read and one write each)
        completions = Completions(service.db, pin_deadline=timedelta(days=3))
        async with service.db.transaction() as session:
            payments = (await session.execute(text("SELECT id, amount_cents FROM payments"))).all()
        for payment_id, amount in payments:
            paid = CheckoutPaid(session_id=f"cs_{payment_id.hex[:8]}", payment_id=payment_id,
                                payment_intent=f"pi_{payment_id.hex[:8]}", amount_cents=amount, currency="USD")
            assert await completions.complete({"id": f"evt_{payment_id.hex}", "type": "checkout.session.completed"},
                                              paid, datetime.now(UTC)) == "completed"
        now = datetime.now(UTC)
        events = [CommentPinned(bid_id=a.bid_id, slot_id=a.slot_id, creator_id=a.creator_id, buyer_id=a.buyer_id,
                                comment_id="c", comment_text="Ad · @b: hi", pinned_at=now) for a in approved]
        events += [PlacementKept(bid_id=a.bid_id, slot_id=a.slot_id, creator_id=a.creator_id, pinned_at=now,
                                 checked_at=now + timedelta(days=d), days_kept=d, duration_days=days)
                   for d in range(1, days + 1) for a in approved]
        gate = asyncio.Semaphore(8)

        async def one(data) -> None:
            async with gate:
                await deliver(service, data, source="bench")

        started = time.perf_counter()
        for day in range(days + 1):  # a day's events at once, the days in order (as the tracker sends them)
            await asyncio.gather(*(one(e) for e in events[day * placements:(day + 1) * placements]))
        elapsed = time.perf_counter() - started
        async with service.db.transaction() as session:
            released = await session.scalar(text("SELECT count(*) FROM earning_releases"))
            unbalanced = await session.scalar(text("SELECT coalesce(sum(amount_cents), 0) FROM ledger_entries"))
            available = await session.scalar(text("SELECT count(*) FROM earnings WHERE status = 'AVAILABLE'"))
        await service.db.dispose()
        return (f"stages: {released} money stages posted in {elapsed:.2f}s = {released / elapsed:.0f}/s, 8 events in "
                f"flight ({available} placements fully released, ledger sum {unbalanced})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--placements", type=int, default=2000)
    parser.add_argument("--days", type=int, default=5)
    args = parser.parse_args()
    keys = Path(tempfile.mkdtemp())
    generate_keypair(keys / "k.pem", keys / "k.pub")
    print(asyncio.run(tracker(args.placements, keys)))
    print(asyncio.run(stages(args.placements // 4, args.days, keys)))


if __name__ == "__main__":
    main()
