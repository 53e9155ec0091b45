"""The AI search box through the listing (`GET /marketplace/slots?ask=...`): the filters read from the question
applied and said, the rest ranked by meaning and keyword, the brand's own filters winning, bad questions answered
with ordinary results or a 422, and every process's index kept current from the database."""

import asyncio
import uuid
from datetime import timedelta

import psycopg
import pytest
from pinbid_kit.events import social as s
from pinbid_kit.product_rules import ASK_MAX_LENGTH as MAX_ASK
from pinbid_marketplace import asking, meaning_index
from pinbid_marketplace.meaning_index import MeaningIndex
from sqlalchemy import make_url, text

from .conftest import market_fixtures

SLOTS = [  # title, category, minimum bid, caption
    ("Morning ritual at the bar", "food", 12, "latte art and a fresh burr grinder on the counter"),
    ("Home workout plan", "fitness", 20, "twenty minutes, no gym, just a mat"),
    ("Trail running shoes", "fitness", 50, "testing grip on wet rocks"),
    ("Mechanical keyboard review", "tech", 25, "clicky switches and a walnut wrist rest"),
    ("Pasta night", "food", 15, "fresh tagliatelle with butter and sage"),
]


async def a_market(world):
    creator, posts = await world.creator(posts=len(SLOTS))
    user_id = creator["x-user"]
    await world.deliver(s.MediaSynced(user_id=user_id, instagram_id="ig", posts=[
        s.SyncedPost(id=post, media_type="IMAGE", media_url=f"https://img.test/{post}.jpg",
                     permalink=f"https://instagram.test/p/{post}", caption=caption)
        for post, (_, _, _, caption) in zip(posts, SLOTS, strict=True)]))
    ids = {}
    for post, (title, category, min_bid, _) in zip(posts, SLOTS, strict=True):
        ids[title] = (await world.slot(creator, post, title=title, category=category, minBid=min_bid,
                                       description=""))["id"]
    return world, await world.buyer(), ids, posts, user_id


market, asked_market = market_fixtures(a_market, shared="asked_market")


async def asked(world, buyer, **params) -> dict:
    response = await world.http.get("/marketplace/slots", params=params, headers=buyer)
    assert response.status_code == 200, response.text
    return response.json()


def titles(page: dict) -> list[str]:
    return [slot["title"] for slot in page["slots"]]


async def test_the_filters_read_are_applied_and_said(asked_market):
    world, buyer, *_ = asked_market
    page = await asked(world, buyer, ask="fitness creators under $30")
    assert titles(page) == ["Home workout plan"]
    understood = page["understood"]
    assert understood["filters"] == {"category": "fitness", "maxPrice": 30.0, "minPrice": None, "timeLeft": None,
                                     "minViews": None, "verified": None, "minKeptPercent": None, "noBids": None,
                                     "sortBy": None}
    assert understood["chips"] == [{"parameter": "category", "label": "Fitness"},
                                   {"parameter": "maxPrice", "label": "up to $30"}]
    assert understood["sentence"] == "Fitness · up to $30"
    assert (understood["ignored"], understood["rankedBy"]) == ([], None)


async def test_the_rest_is_ranked_by_meaning_where_the_word_appears_nowhere(asked_market):
    world, buyer, *_ = asked_market
    page = await asked(world, buyer, ask="coffee")
    assert titles(page)[0] == "Morning ritual at the bar"
    assert page["understood"]["rankedBy"] == "coffee"
    assert page["total"] == len(SLOTS)


async def test_exact_words_still_count(asked_market):
    world, buyer, *_ = asked_market
    assert titles(await asked(world, buyer, ask="keyboard"))[0] == "Mechanical keyboard review"


async def test_a_slot_with_every_word_counts_even_where_meaning_did_not_reach_it(asked_market, monkeypatch):
    world, buyer, *_ = asked_market
    monkeypatch.setattr(asking, "CANDIDATES", 0)  # nothing comes from the nearest in meaning
    page = await asked(world, buyer, ask="workouts")  # the plural finds "workout": the stem is looked up
    assert titles(page) == ["Home workout plan"] and page["total"] == 1
    assert titles(await asked(world, buyer, ask="fitness workouts under $10")) == []  # the filters still apply


async def test_a_sort_asked_for_orders_the_relevant_slots(asked_market):
    world, buyer, *_ = asked_market
    page = await asked(world, buyer, ask="fitness gear, most expensive first")
    assert titles(page) == ["Trail running shoes", "Home workout plan"]


async def test_the_brands_own_filters_win_and_removed_chips_stay_removed(asked_market):
    world, buyer, *_ = asked_market
    page = await asked(world, buyer, ask="fitness under $30", category="tech")
    assert titles(page) == ["Mechanical keyboard review"]
    assert [chip["parameter"] for chip in page["understood"]["chips"]] == ["maxPrice"]
    page = await asked(world, buyer, ask="fitness under $30", ignore=["maxPrice"])
    assert sorted(titles(page)) == ["Home workout plan", "Trail running shoes"]
    assert page["understood"]["sentence"] == "Fitness"


async def test_no_bids_yet_leaves_out_the_slots_bid_on(market):
    world, buyer, ids, *_ = market
    assert (await world.bid(buyer, ids["Pasta night"], 15)).status_code == 201
    page = await asked(world, buyer, ask="food with no bids yet")
    assert titles(page) == ["Morning ritual at the bar"]
    assert titles(await asked(world, buyer, noBids="true", category="food")) == ["Morning ritual at the bar"]


@pytest.mark.parametrize("question", [
    "🔥🔥🔥", "zapatillas para correr", "'; DROP TABLE slots; --", "<script>alert(1)</script>", "ok " * 100,
    "under $-5", "between 100 and 50", "pets category", "%_\\", "   ", "مقهى", "咖啡",
])
async def test_bad_questions_get_ordinary_results_and_no_filter(asked_market, question):
    world, buyer, *_ = asked_market
    page = await asked(world, buyer, ask=question)
    assert len(page["slots"]) == len(SLOTS)
    if page["understood"] is not None:
        assert page["understood"]["chips"] == []


async def test_what_was_set_aside_is_said(asked_market):
    world, buyer, *_ = asked_market
    ignored = (await asked(world, buyer, ask="between 100 and 50"))["understood"]["ignored"]
    assert ignored == [{"phrase": "between 100 and 50",
                        "reason": "The lower price is above the higher one: no slot can be in that range."}]


async def test_a_question_too_long_or_with_unsafe_characters_is_a_422_in_the_error_format(asked_market):
    world, buyer, *_ = asked_market
    response = await world.http.get("/marketplace/slots", params={"ask": "coffee " * 300}, headers=buyer)
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "validation_error" and body["errors"][0]["field"].endswith("ask")
    assert (await world.http.get("/marketplace/slots", params={"ask": "a" * MAX_ASK},
                                 headers=buyer)).status_code == 200
    refused = await world.http.get("/marketplace/slots", params={"ask": "x", "ignore": "price"}, headers=buyer)
    assert refused.status_code == 422
    for unsafe in ("nul\x00byte", "bidi\u202eoverride", "two\nlines"):
        refused = await world.http.get("/marketplace/slots", params={"ask": unsafe}, headers=buyer)
        assert refused.status_code == 422 and refused.json()["errors"][0]["field"].endswith("ask")


async def test_another_process_takes_in_every_open_slot_and_drops_the_closed(market):
    world, buyer, ids, *_ = market
    other = MeaningIndex(world.service.db)
    await other.catch_up()
    assert len(other) == len(SLOTS)
    async with world.service.db.transaction() as session:
        await session.execute(text("UPDATE slots SET status = 'ENDED', updated_at = now() WHERE id = :id"),
                              {"id": ids["Pasta night"]})
    await other.catch_up()
    assert len(other) == len(SLOTS) - 1


async def test_a_first_load_in_pages_takes_every_slot_and_reads_again_what_changed_meanwhile(market, monkeypatch):
    world, buyer, ids, *_ = market
    first, *_, last = sorted(ids.values(), key=uuid.UUID)  # in the first page and the last
    monkeypatch.setattr(meaning_index, "STREAMED", 2)  # five open slots: three pages
    other, take, pages = MeaningIndex(world.service.db), MeaningIndex.take, []
    plain_url = make_url(world.service.db.url).set(drivername="postgresql").render_as_string(hide_password=False)

    def take_while_slots_change(index: MeaningIndex, rows: list) -> None:
        take(index, rows)
        if index is not other:  # the service's own index, whose job runs meanwhile
            return
        pages.append(rows)
        if len(pages) == 1:  # after the first page: its slot closes, and a later page's slot is written an hour on
            with psycopg.connect(plain_url, autocommit=True) as conn:
                conn.execute("UPDATE slots SET status = 'ENDED', updated_at = now() WHERE id = %s", (first,))
                conn.execute("UPDATE slots SET updated_at = now() + interval '1 hour' WHERE id = %s", (last,))

    monkeypatch.setattr(MeaningIndex, "take", take_while_slots_change)
    await other.catch_up()
    assert len(pages) == 3 and len(other) == len(SLOTS)  # the first page was read before its slot closed
    await other.catch_up()  # the next run reads from before the first began, not from the newest change it saw
    assert len(other) == len(SLOTS) - 1 and uuid.UUID(first) not in other.row_of


async def test_a_run_reads_again_only_what_changed_within_the_margin_of_the_last_runs_start(market, monkeypatch):
    world, buyer, ids, *_ = market
    monkeypatch.setattr(meaning_index, "CATCH_UP_MARGIN", timedelta(0))
    other = MeaningIndex(world.service.db)
    assert await other.catch_up() == len(SLOTS)
    assert await other.catch_up() == 0  # nothing changed since the last run began: nothing read again
    async with world.service.db.transaction() as session:
        await session.execute(text("UPDATE slots SET status = 'ENDED', updated_at = now() WHERE id = :id"),
                              {"id": ids["Pasta night"]})
    assert await other.catch_up() == 1 and len(other) == len(SLOTS) - 1


async def test_a_slot_written_by_a_transaction_open_while_a_run_read_is_read_by_the_next(market, monkeypatch):
    world, buyer, ids, *_ = market
    monkeypatch.setattr(meaning_index, "CATCH_UP_MARGIN", timedelta(0))  # the open transaction alone must tell
    other = MeaningIndex(world.service.db)
    await other.catch_up()  # every slot in, its vectors made: the runs below write nothing
    plain_url = make_url(world.service.db.url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(plain_url) as long_running:  # stamps the slot with its start, commits after the next run
        long_running.execute("UPDATE slots SET status = 'ENDED', updated_at = now() WHERE id = %s",
                             (ids["Pasta night"],))
        await other.catch_up()
        assert len(other) == len(SLOTS)  # not committed yet as this run read
        long_running.commit()
    await other.catch_up()
    assert len(other) == len(SLOTS) - 1


async def test_a_changed_caption_makes_the_meaning_again(market):
    world, buyer, ids, posts, user_id = market
    await world.deliver(s.MediaSynced(user_id=user_id, instagram_id="ig", posts=[
        s.SyncedPost(id=posts[4], media_type="IMAGE", media_url="https://img.test/x.jpg",
                     permalink="https://instagram.test/p/x", caption="espresso shots and crema")]))
    vectors = text("SELECT meaning, word_meaning, sentence_meaning FROM slots WHERE id = :id")
    async with world.service.db.autocommit() as conn:
        assert tuple((await conn.execute(vectors, {"id": ids["Pasta night"]})).one()) == (None, None, None)
    other = MeaningIndex(world.service.db)
    await other.catch_up()
    async with world.service.db.autocommit() as conn:
        made, word, sentence = (await conn.execute(vectors, {"id": ids["Pasta night"]})).one()
    assert (len(made), len(word), len(sentence)) == (64 * 2, 256 * 2, 384 * 2)
    assert len(other) == len(SLOTS)


async def test_the_job_never_writes_vectors_over_a_slot_changed_while_they_were_made(market, monkeypatch):
    world, buyer, ids, *_ = market
    loop, real = asyncio.get_running_loop(), meaning_index.sentences

    async def change_pasta_night() -> None:
        async with world.service.db.transaction() as session:
            await session.execute(text("UPDATE slots SET description = 'now with truffle', "
                                       "updated_at = now() + interval '1 second' WHERE id = :id"),
                                  {"id": ids["Pasta night"]})

    def made_while_a_slot_changes(texts: list[str]):  # runs in a worker thread, as the job runs it
        asyncio.run_coroutine_threadsafe(change_pasta_night(), loop).result()
        return real(texts)

    monkeypatch.setattr(meaning_index, "sentences", made_while_a_slot_changes)
    await MeaningIndex(world.service.db).catch_up()
    made = text("SELECT id::text, sentence_meaning IS NOT NULL FROM slots")
    async with world.service.db.autocommit() as conn:
        has_sentence = dict((await conn.execute(made)).tuples().all())
    assert not has_sentence[ids["Pasta night"]]  # read before its change: made again from its new text, later
    assert all(has_sentence[slot_id] for title, slot_id in ids.items() if title != "Pasta night")
    monkeypatch.setattr(meaning_index, "sentences", real)
    await MeaningIndex(world.service.db).catch_up()
    async with world.service.db.autocommit() as conn:
        assert all(dict((await conn.execute(made)).tuples().all()).values())
