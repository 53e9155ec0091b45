"""The AI search box's latency at ROWS open slots (100,000 by default; ROWS=1000000), through the service layer
(the use case `GET /marketplace/slots?ask=` calls), open loop: RATE requests a second are due on a fixed schedule
and each one's time is measured from when it was due, so a slow answer delays the ones behind it as it would a
brand's. Every other request is the listing's own keyword search (`q`, newest first) as the same-run peer.
The slots are the judged set's 300 (ask_judged/) repeated, each with its own vector, so the questions of the judged
set match as many slots in the same way as they would in a market of that size. Also printed: the models' load
times, the index's load time and the process's resident memory before and after it.
Usage: ROWS=100000 RATE=10 REQUESTS=400 uv run python services/marketplace/benchmarks/ask_latency.py
(SERIAL=1 first asks each question alone, in turn; KEEP=1 keeps the seeded database, REUSE=1 measures it again)"""

import asyncio
import os
import resource
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import psycopg
from pinbid_kit.db import Database
from pinbid_kit.migrations import upgrade
from pinbid_marketplace import meaning
from pinbid_marketplace.asking import Asking
from pinbid_marketplace.meaning import all_meanings, slot_text
from pinbid_marketplace.meaning_index import MeaningIndex
from pinbid_marketplace.queries import Queries, Search

sys.path.insert(0, str(Path(__file__).parent))
from ask_judged import corpus, questions  # noqa: E402
from generated_slots import INSERT_SLOTS  # noqa: E402

PG = os.environ.get("PINBID_PG_URL", "postgresql://postgres@127.0.0.1:5432")
ROWS = int(os.environ.get("ROWS", "100000"))
DB = f"bench_marketplace_ask_latency_{ROWS}"  # one a size: KEEP=1 keeps each for REUSE=1
RATE = float(os.environ.get("RATE", "10"))
REQUESTS = int(os.environ.get("REQUESTS", "400"))

SEED = INSERT_SLOTS + f"""
SELECT gen_random_uuid(), md5((n % 5000)::text)::uuid, 'post' || n, c.title || ' #' || n, c.description,
       c.category, c.price, NULL, now() + ((60 + n % 20000) || ' minutes')::interval, 7, 'ACTIVE', n % 7,
       'Creator ' || (n % 5000), 'creator' || (n % 5000), 1000 * (n % 5000), c.views, 1, c.verified, 'IMAGE', '',
       '', now() - (n || ' seconds')::interval, now(), false, n % 30, 60 + n % 41, 10 + n % 600, c.meaning,
       c.word_meaning, c.sentence
FROM generate_series(1, {ROWS}) AS n JOIN judged c ON c.k = n % 300
"""


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def prepare() -> str:
    url = f"{PG}/{DB}"
    if os.environ.get("REUSE"):
        return url
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB}"')
    upgrade(url, "pinbid_marketplace")
    started = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE UNLOGGED TABLE judged (k int, title text, description text, category text, price numeric, "
                     "views bigint, verified boolean, meaning bytea, word_meaning bytea, sentence bytea)")
        for k, slot in enumerate(corpus()):
            made = all_meanings([slot_text(slot.title, slot.description, slot.caption, slot.category)])[0]
            conn.execute("INSERT INTO judged VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                         (k, slot.title, slot.description, slot.category, slot.price, slot.views, slot.verified,
                          made["meaning"], made["word_meaning"], made["sentence_meaning"]))
        conn.execute(SEED)
        conn.execute("DROP TABLE judged")
        conn.execute("VACUUM ANALYZE slots")
    print(f"seeded {ROWS:,} slots in {time.perf_counter() - started:.1f}s")
    return url


def p95(times: list[float]) -> float:
    return sorted(times)[max(int(len(times) * 0.95) - 1, 0)]


async def measure(url: str) -> None:
    db = Database(url, pool_size=10)
    index, before = MeaningIndex(db), rss_mb()
    started = time.perf_counter()
    await index.catch_up()
    print(f"index of {len(index):,} slots loaded in {time.perf_counter() - started:.2f}s; resident memory "
          f"{before:.0f} -> {rss_mb():.0f} MB ({index.matrix.nbytes / 2**20:.0f} MB of matrix)")
    queries = Queries(db, lambda: datetime.now(UTC))
    asking = Asking(queries, index)
    asked = [q.ask for q in questions()]
    times: dict[str, list[float]] = {"ask": [], "listing q (peer)": []}

    async def one(n: int, due: float) -> None:
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        question = asked[(n // 2) % len(asked)]
        if n % 2 == 0:
            await asking.ask(question, Search(limit=10), set_by_brand=set())
            kind = "ask"
        else:
            await queries.marketplace(Search(q=question.split()[0], limit=10))
            kind = "listing q (peer)"
        times[kind].append((time.perf_counter() - due) * 1000)

    if os.environ.get("SERIAL"):
        await one_at_a_time(asking, asked)
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    start = time.perf_counter() + 0.5
    await asyncio.gather(*(one(n, start + n / RATE) for n in range(REQUESTS)))
    print(f"{ROWS:,} slots, {RATE:g} requests a second, {REQUESTS} requests, open loop")
    print(f"{'request':18} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7}")
    for kind, values in times.items():
        print(f"{kind:18} {statistics.median(values):7.1f} {p95(values):7.1f} {max(values):7.1f}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    await db.dispose()


async def one_at_a_time(asking: Asking, asked: list[str]) -> None:
    """Each question alone, in turn: what a question costs without a queue, and the CPU this process spent on it
    (PostgreSQL's is not in it): a figure that moves less with what else the machine runs."""
    took, cpu = [], []
    for question in asked:
        started, used = time.perf_counter(), time.process_time()
        await asking.ask(question, Search(limit=10), set_by_brand=set())
        took.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - used) * 1000)
    print(f"one at a time, {len(took)} questions: p50 {statistics.median(took):.1f} ms, max {max(took):.1f} ms; "
          f"this process's CPU p50 {statistics.median(cpu):.1f} ms, mean {statistics.mean(cpu):.1f} ms")


def main() -> None:
    before = rss_mb()
    started = time.perf_counter()
    meaning.model()
    print(f"model loaded in {time.perf_counter() - started:.2f}s; resident memory {before:.0f} -> {rss_mb():.0f} MB")
    before, started = rss_mb(), time.perf_counter()
    meaning.sentences(["a first text"])
    print(f"sentence model loaded (and run once) in {time.perf_counter() - started:.2f}s; resident memory "
          f"{before:.0f} -> {rss_mb():.0f} MB")
    url = prepare()
    asyncio.run(measure(url))
    if not os.environ.get("KEEP"):
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')


if __name__ == "__main__":
    main()


