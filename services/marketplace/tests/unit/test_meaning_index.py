"""The AI search box's index, without a database: the nearest by meaning, of a category, without the slots
dropped, across the matrix's growth; each category's meaning as a whole kept through puts, changes and drops; the
model loads from its wheel and knows coffee from a workout."""

import uuid

import numpy as np
import pytest
from pinbid_marketplace.meaning import (
    DIMENSIONS,
    SENTENCE_DIMENSIONS,
    WORD_DIMENSIONS,
    cosines,
    meaning_of,
    sentence_vector,
    sentences,
    slot_text,
    stored,
    vectors,
)
from pinbid_marketplace.meaning_index import CATEGORY_CODE, MeaningIndex


def unit(*values: float) -> np.ndarray:
    vector = np.zeros(DIMENSIONS, dtype=np.float32)
    vector[:len(values)] = values
    return vector / np.linalg.norm(vector)


def index_of(*slots: tuple[str, tuple[float, ...]]) -> tuple[MeaningIndex, list[uuid.UUID]]:
    """An index of new slots, each (category, direction of its meaning), and their ids in that order."""
    index = MeaningIndex()
    ids = [uuid.uuid4() for _ in slots]
    for slot, (category, direction) in zip(ids, slots, strict=True):
        index.put(slot, category, stored(unit(*direction)))
    return index, ids


def test_the_nearest_first_of_a_category_and_never_a_dropped_slot():
    index, (east, north, north_east) = index_of(("food", (1, 0)), ("tech", (0, 1)), ("food", (1, 1)))
    assert index.nearest(unit(1, 0.1), category=None, limit=3) == [east, north_east, north]
    assert index.nearest(unit(0, 1), category="food", limit=3) == [north_east, east]
    index.drop(north_east)
    assert index.nearest(unit(1, 1), category=None, limit=3) == [east, north]
    assert index.nearest(unit(1, 1), category="gaming", limit=3) == []
    assert len(index) == 2


def test_a_slot_put_again_keeps_its_row_and_takes_its_new_meaning():
    index, (slot, other) = index_of(("food", (1, 0)), ("food", (0.9, 0.1)))
    index.put(slot, "food", stored(unit(0, 1)))
    assert index.nearest(unit(1, 0), category=None, limit=1) == [other]
    assert len(index.ids) == 2


def test_the_matrix_grows_past_its_first_rows():
    index = MeaningIndex()
    ids = [uuid.uuid4() for _ in range(3000)]
    for n, slot in enumerate(ids):
        index.put(slot, "travel", stored(unit(1, n / 3000)))
    assert len(index) == 3000
    assert index.nearest(unit(1, 0), category="travel", limit=1) == [ids[0]]


def test_a_closed_slots_row_goes_to_the_next_slot_that_opens():
    index = MeaningIndex()
    ids = [uuid.uuid4() for _ in range(1024)]
    for slot in ids:
        index.put(slot, "food", stored(unit(1, 0)))
    for slot in ids[:1000]:  # a thousand auctions end...
        index.drop(slot)
    newer = [uuid.uuid4() for _ in range(1000)]  # ...and a thousand open: the matrix does not grow
    for slot in newer:
        index.put(slot, "tech", stored(unit(0, 1)))
    assert len(index.ids) == len(index.alive) == 1024 and len(index) == 1024
    assert set(index.nearest(unit(0, 1), category="tech", limit=2000)) == set(newer)
    assert set(index.nearest(unit(1, 0), category="food", limit=30)) == set(ids[1000:])
    index.drop(ids[0])  # already gone: nothing changes
    assert len(index) == 1024


def test_the_model_loads_from_its_wheel_and_reads_meaning():
    coffee = vectors(["coffee"])[0]
    latte, workout = (meaning_of(title, "", caption, category)
                      for title, caption, category in (("Latte art at dawn", "a burr grinder and espresso", "food"),
                                                       ("Twenty minute circuit", "bodyweight moves", "fitness")))
    for column, dimensions in (("meaning", DIMENSIONS), ("word_meaning", WORD_DIMENSIONS)):
        asked = vectors(["coffee"], dimensions)[0]
        close, far = (np.frombuffer(made[column], dtype=np.float16).astype(np.float32) for made in (latte, workout))
        assert len(close) == dimensions and float(asked @ close) > float(asked @ far)
    # a slot with only the index's dimensions is compared on the question's first ones
    whole_question = vectors(["coffee"], WORD_DIMENSIONS)[0]
    assert cosines(whole_question, [latte["meaning"]]) == pytest.approx(cosines(coffee, [latte["meaning"]]))
    assert np.isclose(np.linalg.norm(coffee), 1.0, atol=1e-3)
    nothing = vectors(["🔥", ""])
    assert nothing.shape == (2, DIMENSIONS) and np.isfinite(nothing).all()


def test_the_sentence_model_loads_from_its_wheels_and_reads_meaning():
    latte, workout = (slot_text(title, "", caption, category)
                      for title, caption, category in (("Latte art at dawn", "a burr grinder and espresso", "food"),
                                                       ("Twenty minute circuit", "bodyweight moves", "fitness")))
    made = sentences([latte, workout, "🔥", "", "word " * 2000])  # a text past the model's 256 tokens is cut
    assert made.shape == (5, SENTENCE_DIMENSIONS) and np.isfinite(made).all()
    assert np.allclose(np.linalg.norm(made[:2], axis=1), 1.0, atol=1e-3)
    close = cosines(sentence_vector("coffee"), [stored(made[0]), stored(made[1]), None])
    assert close[0] > close[1] + 0.2 and close[2] is None
    assert sentences([]).shape == (0, SENTENCE_DIMENSIONS)


def test_cosines_on_every_dimension_put_the_closest_highest():
    stored_meanings = [meaning_of(title, "", "", "food")["word_meaning"]
                       for title in ("home workout plan", "latte art and a grinder")]
    scores = cosines(vectors(["espresso"], WORD_DIMENSIONS)[0], stored_meanings + [None])
    assert scores[1] > scores[0] and scores[2] is None
    assert cosines(vectors(["espresso"], WORD_DIMENSIONS)[0], []) == []


def test_a_slots_text_is_in_lower_case_as_the_question_is_read():
    assert slot_text("Latte Art", "By the CAFÉ", "Dawn", "food") == "latte art. latte art. food. by the café dawn"
    assert vectors(["latte art"]) @ vectors([slot_text("Latte Art", "", "", "food")])[0] > 0.8


def test_a_captions_links_and_handles_mean_nothing_and_its_hashtags_are_words():
    caption = "Morning pour with @barista.jane #LatteArt #coffee https://shop.example/x?y=1 www.example.com/z"
    assert slot_text("T", "", caption, "food").split() == ["t.", "t.", "food.", "morning", "pour", "with",
                                                             "latteart", "coffee"]


def test_each_category_means_the_mean_of_its_open_slots():
    index, (east, north, _) = index_of(("food", (1, 0)), ("food", (0, 1)), ("tech", (0, 1)))
    close = index.category_closeness(unit(1, 1))
    assert np.isclose(close["food"], 1.0, atol=1e-3) and np.isclose(close["tech"], 2 ** -0.5, atol=1e-3)
    assert close["gaming"] == 0.0  # no open slot: no meaning, no favour
    index.put(north, "food", stored(unit(1, 0)))  # its meaning changed: the old one no longer counts
    assert np.isclose(index.category_closeness(unit(1, 0))["food"], 1.0, atol=1e-3)
    index.put(north, "tech", stored(unit(0, 1)))  # it moved category
    index.drop(east)  # and the other closed
    assert index.category_closeness(unit(1, 0))["food"] == 0.0
    assert np.isclose(index.category_closeness(unit(0, 1))["tech"], 1.0, atol=1e-3)
    index.drop(east)  # already gone: nothing changes
    assert index.category_closeness(unit(1, 0))["food"] == 0.0


def test_the_nearest_of_many_rows_are_exactly_the_best_whatever_the_sample():
    rng = np.random.default_rng(7)
    index = MeaningIndex()
    ids = [uuid.uuid4() for _ in range(60_000)]
    for slot_id, row in zip(ids, rng.standard_normal((len(ids), DIMENSIONS)).astype(np.float32), strict=True):
        index.put(slot_id, ["food", "tech", "fitness"][slot_id.int % 3], stored(row / np.linalg.norm(row)))
    for slot_id in ids[::7]:
        index.drop(slot_id)
    open_rows = [index.row_of[slot_id] for slot_id in ids if slot_id in index.row_of]
    for query in rng.standard_normal((5, DIMENSIONS)).astype(np.float32):
        query /= np.linalg.norm(query)
        for category, limit in ((None, 500), ("tech", 500), ("food", 30_000), (None, 1)):
            rows = [row for row in open_rows if category is None or index.category[row] == CATEGORY_CODE[category]]
            scores = index.matrix[rows] @ query
            best = {index.ids[rows[i]] for i in np.argsort(-scores)[:limit]}
            found = index.nearest(query, category=category, limit=limit)
            assert set(found) == best and len(found) == min(limit, len(rows))
            closeness = [float(index.matrix[index.row_of[slot_id]] @ query) for slot_id in found]
            assert (np.diff(closeness) <= 1e-6).all()  # closest first (a dot product alone rounds a little apart)
