"""Listing benchmark: 100,000 slots (ROWS), filtered and sorted page queries through the service layer.
Prints p50/p99 per query shape, each beside the same page with its exact total (as the listing was before totals
were capped) measured in the same run, turn about, and the EXPLAIN plans.
Usage: ROWS=1000000 RUNS=100 uv run python services/marketplace/benchmarks/listing.py"""

import asyncio
import os
import statistics
import time
from datetime import UTC, datetime
from decimal import Decimal

import psycopg
from generated_slots import INSERT_SLOTS
from pinbid_kit.db import Database
from pinbid_kit.migrations import upgrade
from pinbid_marketplace import open_counts
from pinbid_marketplace.domain.listing import COUNT_CAP
from pinbid_marketplace.meaning import all_meanings, slot_text
from pinbid_marketplace.queries import Page, Queries, Search, page_query
from sqlalchemy.dialects import postgresql

PG = os.environ.get("PINBID_PG_URL", "postgresql://postgres@127.0.0.1:5432")
DB = "bench_marketplace_listing"
ROWS = int(os.environ.get("ROWS", "100000"))
RUNS = int(os.environ.get("RUNS", "200"))

# a slot's kind is n % 6: its title, what its description is about, its category
KINDS = [("Latte art", "coffee", "food"), ("Morning run", "running", "fitness"), ("Street style", "fashion", "fashion"),
         ("Gaming setup", "games", "gaming"), ("Beach sunset", "travel", "travel"), ("Pasta night", "food", "tech")]


def sql_array(values: list[str]) -> str:
    return "ARRAY[" + ",".join(f"'{value}'" for value in values) + "]"


SEED = INSERT_SLOTS + f"""
SELECT gen_random_uuid(), md5((n % 5000)::text)::uuid, 'post' || n,
       ({sql_array([title for title, _, _ in KINDS])})[1 + n % 6] || ' #' || n,
       'A post about ' || ({sql_array([about for _, about, _ in KINDS])})[1 + n % 6],
       ({sql_array([category for _, _, category in KINDS])})[1 + n % 6],
       5 + (n % 200), CASE WHEN n % 3 = 0 THEN NULL ELSE 10 + (n * 7 % 990) END,
       now() + ((n % 20000) || ' minutes')::interval, 7 + n % 24, 'ACTIVE', n % 40,
       'Creator ' || (n % 5000), 'creator' || (n % 5000), 1000 * (n % 5000), (n * 37) % 2000000,
       (n % 900) / 100.0, n % 4 = 0, 'IMAGE', 'https://img.test/' || n, 'https://ig.test/' || n,
       now() - (n || ' seconds')::interval, now(), false,
       n % 5000 % 30, CASE WHEN n % 5000 % 30 = 0 THEN NULL ELSE 60 + (n % 5000) % 41 END, 10 + (n % 5000) % 600,
       v.meaning, v.word_meaning, v.sentence_meaning
FROM generate_series(1, {ROWS}) AS n JOIN kinds v ON v.k = n % 6
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
# not in the comparison: matched or served differently before (a short search matched anywhere in a word; a page
# this deep was an OFFSET over every row before it)
MORE_SHAPES = {
    "search 'pa' (word starts), newest": Search(q="pa", sort_by="newest"),
    "search 'creator 4999', price-low": Search(q="creator 4999", sort_by="price-low"),
    "search 'zzzz' (no match), popular": Search(q="zzzz", sort_by="popular"),
    "page 1000 (the deepest), most-views": Search(sort_by="most-views", page=1000),
    "page 1000 (the deepest), 'latte'": Search(q="latte", page=1000),
}
EXACT = 10**12  # a cap no count reaches: the exact total, as before


def prepare() -> str:
    if os.environ.get("REUSE"):  # the database a KEEP=1 run left, seeded and migrated
        upgrade(f"{PG}/{DB}", "pinbid_marketplace")
        with psycopg.connect(f"{PG}/{DB}", autocommit=True) as conn:
            compact_open_counts(conn)
        return f"{PG}/{DB}"
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB}"')
    url = f"{PG}/{DB}"
    upgrade(url, "pinbid_marketplace")
    started = time.perf_counter()
    seed(url)
    print(f"seeded {ROWS:,} slots in {time.perf_counter() - started:.1f}s")
    return url


def seed(url: str) -> None:
    """The slots with their vectors made, as the AI search box's job leaves them (each kind of title has its own):
    a process serving the listing then has no vectors to make while it is measured."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE UNLOGGED TABLE kinds (k int, meaning bytea, word_meaning bytea, sentence_meaning bytea)")
        texts = [slot_text(f"{title} #{k}", f"A post about {about}", "", category)
                 for k, (title, about, category) in enumerate(KINDS)]
        for k, made in enumerate(all_meanings(texts)):
            conn.execute("INSERT INTO kinds VALUES (%s, %s, %s, %s)",
                         (k, made["meaning"], made["word_meaning"], made["sentence_meaning"]))
        conn.execute(SEED)
        conn.execute("DROP TABLE kinds")
        conn.execute(open_counts._FOLD.text)  # what the open-slot-counts job does every few seconds
        conn.execute("VACUUM ANALYZE slots")
        compact_open_counts(conn)


def compact_open_counts(conn: psycopg.Connection) -> None:
    """The seed's one statement appended a row a slot to `open_slot_counts` and the fold left its six rows after
    them, so a plain VACUUM cannot truncate the table: every unfiltered total then read 5,400 empty pages. The
    product opens slots a few at a time between folds, so it never has this table; rewrite it."""
    conn.execute("VACUUM (FULL, ANALYZE) open_slot_counts")


def explain(url: str, search: Search, cap: int = COUNT_CAP) -> str:
    """The plan of the listing's one statement: the page, and the total as an InitPlan."""
    sql = str(page_query(search, datetime.now(UTC), cap).compile(dialect=postgresql.dialect(),
                                                                 compile_kwargs={"literal_binds": True}))
    with psycopg.connect(url) as conn:
        plan = conn.execute("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) " + sql).fetchall()
    return "\n".join("    " + row[0] for row in plan)


async def timed(queries: Queries, search: Search) -> tuple[float, Page]:
    started = time.perf_counter()
    page = await queries.marketplace(search)
    return (time.perf_counter() - started) * 1000, page


def p99(times: list[float]) -> float:
    return sorted(times)[max(int(len(times) * 0.99) - 1, 0)]


def total_text(page: Page) -> str:
    return f"{page.total:,}" + ("" if page.total_is_exact else "+")


async def measure(url: str) -> None:
    db = Database(url)
    capped, exact = (Queries(db, lambda: datetime.now(UTC), count_cap=cap) for cap in (COUNT_CAP, EXACT))
    overall: dict[str, list[float]] = {"capped": [], "exact": []}
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    print(f"{'query':38} {'total':>9} {'p50 ms':>7} {'p99 ms':>7} | {'exact total':>11} {'p50 ms':>7} {'p99 ms':>7}")
    for name, search in {**SHAPES, **MORE_SHAPES}.items():
        times: dict[str, list[float]] = {"capped": [], "exact": []}
        pages: dict[str, Page] = {}
        for run in range(RUNS):
            # turn about, so both see the same load
            for kind in (("capped", "exact") if run % 2 else ("exact", "capped")):
                if kind == "exact" and name in MORE_SHAPES:
                    continue
                took, pages[kind] = await timed(capped if kind == "capped" else exact, search)
                times[kind].append(took)
        line = f"{name:38} {total_text(pages['capped']):>9} {statistics.median(times['capped']):7.2f} " \
               f"{p99(times['capped']):7.2f}"
        if times["exact"]:
            exact_times = times["exact"]
            line += f" | {pages['exact'].total:>11,} {statistics.median(exact_times):7.2f} {p99(exact_times):7.2f}"
            for kind in overall:
                overall[kind] += times[kind]
        print(line)
    print(f"{'ALL (the first 12)':38} {'':>9} {statistics.median(overall['capped']):7.2f} "
          f"{p99(overall['capped']):7.2f} | {'':>11} {statistics.median(overall['exact']):7.2f} "
          f"{p99(overall['exact']):7.2f}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    await db.dispose()


def main() -> None:
    url = prepare()
    asyncio.run(measure(url))
    for name, search in {**SHAPES, **MORE_SHAPES}.items():
        print(f"\nEXPLAIN {name}:\n{explain(url, search)}")
    for name in ("search 'latte', newest", "most-views, >=100k, verified"):
        print(f"\nEXPLAIN {name}, the exact total:\n{explain(url, SHAPES[name], EXACT)}")
    if not os.environ.get("KEEP"):
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')


if __name__ == "__main__":
    main()
