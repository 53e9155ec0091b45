"""Listing benchmark: 100,000 slots, filtered and sorted page queries through the service layer.
Prints p50/p99 per query shape and the EXPLAIN plans. Usage: uv run python services/marketplace/benchmarks/listing.py"""

import asyncio
import os
import statistics
import time
from datetime import UTC, datetime
from decimal import Decimal

import psycopg
from pinbid_kit.db import Database
from pinbid_kit.migrations import upgrade
from pinbid_marketplace import open_counts
from pinbid_marketplace.queries import Queries, Search, page_query
from sqlalchemy.dialects import postgresql

PG = os.environ.get("PINBID_PG_URL", "postgresql://postgres@127.0.0.1:5432")
DB = "bench_marketplace_listing"
ROWS = int(os.environ.get("ROWS", "100000"))
RUNS = int(os.environ.get("RUNS", "200"))

SEED = f"""
INSERT INTO slots (id, creator_id, post_id, title, description, category, min_bid, current_bid, auction_end,
                   duration_days, status, bid_count, creator_name, creator_handle, followers, avg_views,
                   avg_engagement, verified, media_type, media_url, permalink, created_at, updated_at, is_demo,
                   creator_placements, creator_kept_pct, creator_response_minutes)
SELECT gen_random_uuid(), md5((n % 5000)::text)::uuid, 'post' || n,
       (ARRAY['Latte art','Morning run','Street style','Gaming setup','Beach sunset','Pasta night'])[1 + n % 6]
         || ' #' || n,
       'A post about ' || (ARRAY['coffee','running','fashion','games','travel','food'])[1 + n % 6],
       (ARRAY['food','fitness','fashion','gaming','travel','tech'])[1 + n % 6],
       5 + (n % 200), CASE WHEN n % 3 = 0 THEN NULL ELSE 10 + (n * 7 % 990) END,
       now() + ((n % 20000) || ' minutes')::interval, 7 + n % 24, 'ACTIVE', n % 40,
       'Creator ' || (n % 5000), 'creator' || (n % 5000), 1000 * (n % 5000), (n * 37) % 2000000,
       (n % 900) / 100.0, n % 4 = 0, 'IMAGE', 'https://img.test/' || n, 'https://ig.test/' || n,
       now() - (n || ' seconds')::interval, now(), false,
       n % 5000 % 30, CASE WHEN n % 5000 % 30 = 0 THEN NULL ELSE 60 + (n % 5000) % 41 END, 10 + (n % 5000) % 600
FROM generate_series(1, {ROWS}) AS n
"""

SHAPES = {
    "newest, no filter": Search(sort_by="newest"),
    "popular": Search(sort_by="popular"),
    "price-low, 100..500": Search(sort_by="price-low", min_price=Decimal(100), max_price=Decimal(500)),
    "price-high, category": Search(sort_by="price-high", category="gaming"),
    "ending-soon, 24h": Search(sort_by="ending-soon", time_left="24h"),
    "most-views, >=100k, verified": Search(sort_by="most-views", min_views=100_000, verified=True),
    "search 'latte', newest": Search(q="latte", sort_by="newest"),
    "search 'creator 42', page 3": Search(q="creator 42", page=3),
    "page 200 newest": Search(page=200),
    "most-reliable": Search(sort_by="most-reliable"),
    "most-reliable, kept >= 95%, category": Search(sort_by="most-reliable", min_kept_percent=95, category="food"),
    "newest, kept >= 80%": Search(sort_by="newest", min_kept_percent=80),
}


def prepare() -> str:
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB}"')
    url = f"{PG}/{DB}"
    upgrade(url, "pinbid_marketplace")
    started = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(SEED)
        conn.execute(open_counts._FOLD.text)  # what the open-slot-counts job does every few seconds
        conn.execute("VACUUM ANALYZE slots")
        conn.execute("VACUUM ANALYZE open_slot_counts")
    print(f"seeded {ROWS:,} slots in {time.perf_counter() - started:.1f}s")
    return url


def explain(url: str, search: Search) -> str:
    """The plan of the listing's one statement: the page, and the exact total as an InitPlan."""
    sql = str(page_query(search, datetime.now(UTC)).compile(dialect=postgresql.dialect(),
                                                            compile_kwargs={"literal_binds": True}))
    with psycopg.connect(url) as conn:
        plan = conn.execute("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) " + sql).fetchall()
    return "\n".join("    " + row[0] for row in plan)


async def measure(url: str) -> None:
    db = Database(url)
    queries = Queries(db, lambda: datetime.now(UTC))
    overall = []
    print(f"{'query':34} {'total':>7} {'p50 ms':>8} {'p99 ms':>8}")
    for name, search in SHAPES.items():
        times = []
        page = None
        for _ in range(RUNS):
            started = time.perf_counter()
            page = await queries.marketplace(search)
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        overall += times
        print(f"{name:34} {page.total:>7} {statistics.median(times):8.2f} {times[int(len(times) * 0.99) - 1]:8.2f}")
    overall.sort()
    print(f"{'ALL':34} {'':>7} {statistics.median(overall):8.2f} {overall[int(len(overall) * 0.99) - 1]:8.2f}")
    await db.dispose()


def main() -> None:
    url = prepare()
    asyncio.run(measure(url))
    for name, search in SHAPES.items():
        print(f"\nEXPLAIN {name}:\n{explain(url, search)}")
    if not os.environ.get("KEEP"):
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')


if __name__ == "__main__":
    main()
