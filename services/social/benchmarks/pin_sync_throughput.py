"""Pinned-comment sync throughput: 10,000 pinned comments checked by the worker (sandbox provider:
comment figures and pin state read from its tables), once with one worker and once with two
concurrent workers (replicas), which must still check each comment exactly once."""

import asyncio
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

from pinbid_kit.secrets import SecretBox
from sqlalchemy import text

sys.path.insert(0, str(Path(__file__).parent))
from _setup import service  # noqa: E402

PINNED = 10_000
CREATORS = 100


async def seed(svc, clock) -> None:
    """100 creators with sessions; 10,000 PINNED placements on their sandbox posts, one comment each."""
    sandbox = svc.state["providers"].sandbox
    box: SecretBox = svc.state["pins"].box
    now = clock()
    async with svc.db.transaction() as session:
        for c in range(CREATORS):
            creator = uuid.uuid4()
            account = f"creator{c}"
            await session.execute(text(
                "INSERT INTO sandbox_accounts (id, username, full_name, followers, account_type, created_at) "
                "VALUES (:id, :u, :u, 20000, 'MEDIA_CREATOR', :now)"), {"id": f"acc{c}", "u": account, "now": now})
            await session.execute(text(
                "INSERT INTO sandbox_media (id, account_id, media_type, caption, base_views, base_likes, posted_at) "
                "VALUES (:id, :a, 'IMAGE', 'x', 1000, 50, :now)"), {"id": f"m{c}", "a": f"acc{c}", "now": now})
            await session.execute(text(
                "INSERT INTO connections (user_id, provider, instagram_id, username, account_type, access_token, "
                "token_expires_at, followers, avg_views, avg_engagement, verified) VALUES "
                "(:u, 'sandbox', :i, :n, 'MEDIA_CREATOR', :t, :exp, 0, 0, 0, false)"),
                {"u": creator, "i": f"acc{c}", "n": account, "exp": now + timedelta(days=60),
                 "t": box.seal(await _token(sandbox, session, f"acc{c}"))})
            blob = f'{{"sandbox_session": "s{c}", "username": "{account}"}}'
            await session.execute(text("INSERT INTO sandbox_sessions (session_hash, account_id) VALUES (:h, :a)"),
                                  {"h": _hash(f"s{c}"), "a": f"acc{c}"})
            await session.execute(text("INSERT INTO pin_sessions (user_id, username, session) VALUES (:u, :n, :s)"),
                                  {"u": creator, "n": account, "s": box.seal(blob)})
            per = PINNED // CREATORS
            await session.execute(text(
                "INSERT INTO sandbox_comments (id, media_id, author, text, base_likes, base_replies, created_at, "
                "pinned_at) SELECT 'c' || :c || '_' || g, :m, 'brand', 'hi #ad', 0, 0, :now, :now "
                "FROM generate_series(1, :per) g"), {"c": c, "m": f"m{c}", "now": now, "per": per})
            await session.execute(text(
                "INSERT INTO placements (bid_id, slot_id, creator_id, buyer_id, post_id, duration_days, status, "
                "pinned_comment_id, pinned_text, pinned_at, ends_at, next_sync_at) "
                "SELECT gen_random_uuid(), gen_random_uuid(), :u, gen_random_uuid(), :m, 30, 'PINNED', "
                "'c' || :c || '_' || g, 'hi #ad', :now, :now + interval '30 days', :now "
                "FROM generate_series(1, :per) g"), {"u": creator, "m": f"m{c}", "c": c, "now": now, "per": per})


def _hash(value: str) -> str:
    import hashlib
    return hashlib.sha256(value.encode()).hexdigest()


async def _token(sandbox, session, account_id: str) -> str:
    grant = await sandbox._issue_token(session, account_id)
    return grant.access_token


async def main() -> None:
    async with service(pin_sync_batch=500, pin_sync_concurrency=8) as (svc, _signer, clock):
        await seed(svc, clock)
        tracker = svc.state["tracker"]
        for label, workers in (("1 worker", 1), ("2 concurrent workers (replicas)", 2)):
            clock.advance(hours=3)
            started = time.perf_counter()
            reports = await asyncio.gather(*(tracker.run_once() for _ in range(workers)))
            elapsed = time.perf_counter() - started
            checked = sum(r.checked for r in reports)
            events = sum(r.metrics for r in reports)
            assert checked == PINNED, checked
            print(f"pinned-comment sync, {label}: {checked} comments in {elapsed:.2f} s = "
                  f"{checked / elapsed:,.0f} comments/s ({events} metrics_updated events, each comment once)")


if __name__ == "__main__":
    asyncio.run(main())
