"""The AI search box's quality on the judged set (ask_judged/): nDCG@10 of `ask` against the keyword search box
(the question typed into `q`, as a brand can today), and, to show what each half brings, the keyword ranking and
the meaning ranking alone. The 300 slots are stored through a fresh migrated database, their vectors made by the
index's own job from their title, description, caption and category, and each question runs through the same
use case as `GET /marketplace/slots?ask=`.
Usage: uv run python services/marketplace/benchmarks/ask_quality.py   (VERBOSE=1 prints every question;
DIMENSIONS=128 or 256 gives the index more of the model's dimensions; CATEGORY_WEIGHT=..., KEYWORD_WEIGHT=... and
SENTENCE_WEIGHT=... try other weights of domain/relevance.py, SENTENCE_WEIGHT=0 the word model alone)
The questions are split in two fixed halves by their order in questions.txt, decided before any result was seen:
the 1st, 3rd, 5th... are the tuning half (what a change was tried on), the 2nd, 4th, 6th... the held-out half (a
change is kept only if it holds there too)."""

import asyncio
import os
import statistics
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
from pinbid_kit.db import Database
from pinbid_kit.migrations import upgrade
from pinbid_kit.product_rules import TIME_LEFT_HOURS
from pinbid_marketplace import meaning
from pinbid_marketplace.asking import Asking, with_filters
from pinbid_marketplace.domain import relevance
from pinbid_marketplace.domain.ask import understand
from pinbid_marketplace.meaning import MODEL, SENTENCE_MODEL
from pinbid_marketplace.meaning_index import MeaningIndex
from pinbid_marketplace.models import WITHOUT_MEANING_SQL
from pinbid_marketplace.queries import Queries, Search
from sqlalchemy import text

sys.path.insert(0, str(Path(__file__).parent))
from ask_judged import corpus, ndcg, questions  # noqa: E402

PG = os.environ.get("PINBID_PG_URL", "postgresql://postgres@127.0.0.1:5432")
DB = "bench_marketplace_ask_quality"
NOW = datetime.now(UTC)
# another number of the index's dimensions (64, 128, 256): which slots reach the rerank on all 256 (at 300 slots,
# every one); the product's is meaning.DIMENSIONS
meaning.DIMENSIONS = int(os.environ.get("DIMENSIONS", meaning.DIMENSIONS))
relevance.CATEGORY_WEIGHT = float(os.environ.get("CATEGORY_WEIGHT", relevance.CATEGORY_WEIGHT))
relevance.KEYWORD_WEIGHT = float(os.environ.get("KEYWORD_WEIGHT", relevance.KEYWORD_WEIGHT))
relevance.SENTENCE_WEIGHT = float(os.environ.get("SENTENCE_WEIGHT", relevance.SENTENCE_WEIGHT))


def prepare() -> str:
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB}"')
    url = f"{PG}/{DB}"
    upgrade(url, "pinbid_marketplace")
    with psycopg.connect(url, autocommit=True) as conn:
        creator = uuid.uuid4()
        for n, slot in enumerate(corpus()):
            conn.execute("INSERT INTO posts (id, user_id, media_type, media_url, permalink, caption, views, "
                         "like_count, comments_count) VALUES (%s, %s, 'IMAGE', '', '', %s, %s, 0, 0)",
                         (slot.key, creator, slot.caption, slot.views))
            conn.execute(
                "INSERT INTO slots (id, creator_id, post_id, title, description, category, min_bid, auction_end, "
                "duration_days, status, bid_count, creator_name, followers, avg_views, avg_engagement, verified, "
                "created_at, updated_at, media_type, media_url, permalink, is_demo) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, 7, 'ACTIVE', 0, 'Creator', 0, %s, 0, %s, %s, %s, 'IMAGE', "
                "'', '', false)",
                (uuid.uuid4(), creator, slot.key, slot.title, slot.description, slot.category, slot.price,
                 NOW + timedelta(days=3), slot.views, slot.verified, NOW - timedelta(minutes=n), NOW))
    return url


async def keys_of(queries: Queries, slot_ids) -> list[str]:
    return [slot.post_id for slot in await queries.slots_in_order(list(slot_ids))]


async def unmade(db: Database) -> int:
    async with db.autocommit() as conn:
        return await conn.scalar(text(f"SELECT count(*) FROM slots WHERE {WITHOUT_MEANING_SQL}"))


async def measure(url: str) -> None:
    db = Database(url)
    index = MeaningIndex(db)
    while await index.catch_up() < len(corpus()) or await unmade(db):  # the first runs make the vectors, a batch
        pass  # each
    queries = Queries(db, lambda: NOW)
    asking = Asking(queries, index)
    scores: dict[str, list[float]] = {"ask": [], "keyword box": [], "keywords alone": [], "meaning alone": []}
    for question in questions():
        search = Search(limit=10)
        answer = await asking.ask(question.ask, search, set_by_brand=set())
        ranked = {"ask": [slot.post_id for slot in answer.page.slots]}
        box = await queries.marketplace(Search(q=question.ask, limit=10))
        ranked["keyword box"] = [slot.post_id for slot in box.slots]
        understood = understand(question.ask, TIME_LEFT_HOURS)
        if understood.rest:
            rankings = await asking.rankings(with_filters(search, understood), understood.rest)
            ranked["keywords alone"] = await keys_of(queries, rankings.by_keyword[:10])
            ranked["meaning alone"] = await keys_of(queries, rankings.by_meaning[:10])
        else:
            ranked["keywords alone"] = ranked["meaning alone"] = ranked["ask"]
        for name, keys in ranked.items():
            scores[name].append(ndcg(keys, question.grades))
        if os.environ.get("VERBOSE"):
            half = "T" if len(scores["ask"]) % 2 else "H"  # the 1st question (index 0) is tuning
            print(f"{half} {question.ask!r:58} " + " ".join(f"{scores[n][-1]:.2f}" for n in scores)
                  + f"  read: {answer.understood.sentence or '-'} | ranked by: {answer.understood.rest or '-'}")
    print(f"models: {MODEL}, first {meaning.DIMENSIONS} dimensions, and {SENTENCE_MODEL}; {len(corpus())} slots, "
          f"{len(questions())} questions; category weight {relevance.CATEGORY_WEIGHT}, keyword weight "
          f"{relevance.KEYWORD_WEIGHT}, sentence weight {relevance.SENTENCE_WEIGHT}")
    print(f"{'ranking':16} {'nDCG@10':>8} {'tuning':>7} {'held-out':>9} {'min':>5} {'questions at 0':>15}")
    for name, values in scores.items():
        tuning, held_out = values[0::2], values[1::2]
        print(f"{name:16} {statistics.mean(values):8.3f} {statistics.mean(tuning):7.3f} "
              f"{statistics.mean(held_out):9.3f} {min(values):5.2f} {sum(v == 0 for v in values):15}")
    await db.dispose()


def main() -> None:
    url = prepare()
    asyncio.run(measure(url))
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')


if __name__ == "__main__":
    main()
