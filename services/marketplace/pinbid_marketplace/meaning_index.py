"""The AI search box's index (docs/decisions/listing-and-reliability.md): the open slots' vectors in one matrix in
every marketplace process, searched exactly, kept current by the `meaning-index` job from the database (the slots
changed since the last run, and the vectors still to be made)."""

import asyncio
import logging
import uuid
from datetime import datetime, timedelta

import numpy as np
from pinbid_kit.db import Database
from sqlalchemy import func, select, text, tuple_, update

from .domain.listing import CATEGORIES
from .meaning import DIMENSIONS, STORED, model, sentences, slot_text, stored, unit, word_meanings
from .models import WITHOUT_MEANING_SQL, Post, Slot

log = logging.getLogger(__name__)

# when the oldest transaction of this database still open (other than this one) began, or now: a slot it writes is
# stamped no earlier (`updated_at` is the transaction's `now()`) and may commit after this run reads
OLDEST_OPEN_TRANSACTION = text(
    "SELECT least(now(), min(xact_start)) FROM pg_stat_activity "
    "WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()")

CATCH_UP_MARGIN = timedelta(seconds=30)  # slack behind the oldest open transaction a run saw (clocks, snapshots)
BACKFILL_BATCH = 100  # 0.2 to 2 s of the sentence model, off the event loop and with no row locked
STREAMED = 10_000  # rows read at a time by a catch-up
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
        self.last_run_began: datetime | None = None

    def __len__(self) -> int:
        return int(self.alive[:len(self.ids)].sum())

    def put(self, slot_id: uuid.UUID, category: str, meaning: bytes) -> None:
        self.put_all([(slot_id, category, meaning)])

    def put_all(self, slots: list[tuple[uuid.UUID, str, bytes]]) -> None:
        """Open slots in (id, category, stored vector), each in its row, a closed slot's row, or a new one at the
        end; their vectors written at once (a first load takes a million)."""
        if not slots:
            return
        rows = []
        for slot_id, _, _ in slots:
            row = self.row_of.get(slot_id)
            if row is None:
                row = self.free.pop() if self.free else len(self.ids)
                if row == len(self.ids):
                    self.ids.append(slot_id)
                else:
                    self.ids[row] = slot_id
                self.row_of[slot_id] = row
            else:
                self._unsum(row)
            rows.append(row)
        self._grow(len(self.ids))
        at = np.array(rows, dtype=np.int64)
        self.matrix[at] = np.frombuffer(b"".join(meaning for _, _, meaning in slots), dtype=STORED).reshape(
            len(slots), DIMENSIONS)
        self.category[at] = [CATEGORY_CODE.get(category, -1) for _, category, _ in slots]
        self.alive[at] = True
        for code in np.unique(self.category[at]):
            if code >= 0:
                self.sums[code] += self.matrix[at[self.category[at] == code]].sum(axis=0)

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

    def _grow(self, at_least: int) -> None:
        """Room for `at_least` rows: twice the rows, or more where that is not enough."""
        if at_least <= len(self.alive):
            return
        size = max(len(self.alive) * 2, at_least)
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
        since = self.last_run_began - CATCH_UP_MARGIN if self.last_run_began else None
        changed = Slot.updated_at >= since if since else Slot.status == "ACTIVE"
        taken, after = 0, None
        async with self.db.autocommit() as conn:
            # read in pages in the order of change, a page a statement (the index on `updated_at` gives the order,
            # however many changed); a slot is stamped when its transaction began, and one still open as this run
            # begins may commit after the pages are read, so the next run reads again from before the oldest open
            # transaction (or this run) began
            began = await conn.scalar(OLDEST_OPEN_TRANSACTION)
            if since is None:  # the matrix made once at its size, not doubled a page at a time
                self._grow(await conn.scalar(select(func.count()).where(changed)) or 0)
            page = select(Slot.id, Slot.category, Slot.meaning, Slot.status, Slot.updated_at).where(changed)
            while rows := (await conn.execute(
                    (page.where(tuple_(Slot.updated_at, Slot.id) > after) if after else page)
                    .order_by(Slot.updated_at, Slot.id).limit(STREAMED))).all():
                self.take(rows)
                taken, after = taken + len(rows), (rows[-1].updated_at, rows[-1].id)
        self.last_run_began = began
        if taken >= STREAMED:  # a process's first load, or a bulk change: a replica's search is whole from here
            log.info("the search index took in %d changed slots; %d open", taken, len(self))
        return taken

    def take(self, rows: list) -> None:
        """A page of catch_up's rows: open slots in, closed ones out."""
        self.put_all([(row.id, row.category, row.meaning) for row in rows
                      if row.status == "ACTIVE" and row.meaning is not None])
        for row in rows:
            if row.status != "ACTIVE":
                self.drop(row.id)

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
