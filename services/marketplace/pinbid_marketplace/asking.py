"""The AI search box: a brand's question read into the listing's filters (domain/ask.py), the rest of it ranked by
one score of meaning (two models) and words (domain/relevance.py)."""

import asyncio
import dataclasses
import uuid
from dataclasses import dataclass

import numpy as np
from pinbid_kit.product_rules import TIME_LEFT_HOURS

from .domain.ask import Understood, understand
from .domain.relevance import blended_closeness, by_relevance, keywords, relevance
from .meaning import DIMENSIONS, WORD_DIMENSIONS, cosines, sentence_vector, unit, vectors
from .meaning_index import MeaningIndex
from .queries import Kept, Page, Queries, Search, StoredMeaning

CANDIDATES = 500  # the nearest in meaning, before the filters
RERANKED = 200  # of the nearest the filters keep, these are ranked again on all the model's dimensions
KEYWORD_CANDIDATES = 100  # the newest slots with every word of the question, whether near in meaning or not
SORTED_RELEVANT = 50  # with a sort asked for, the most relevant slots are the ones sorted

# the listing's parameter names -> Search's fields
FIELDS = {"category": "category", "minPrice": "min_price", "maxPrice": "max_price", "timeLeft": "time_left",
          "minViews": "min_views", "verified": "verified", "minKeptPercent": "min_kept_percent", "noBids": "no_bids",
          "sortBy": "sort_by"}


@dataclass(frozen=True)
class Answer:
    page: Page
    understood: Understood
    ranked: bool  # the rest of the question ranked the slots


@dataclass(frozen=True)
class Candidates:
    scored: list[uuid.UUID]  # ranked on their vectors
    tail: list[uuid.UUID]  # the rest of the nearest the filters keep, in their order
    kept: dict[uuid.UUID, Kept]
    meanings: dict[uuid.UUID, StoredMeaning]


@dataclass(frozen=True)
class Rankings:
    ask: list[uuid.UUID]  # what the box answers: meaning and words in one score
    by_meaning: list[uuid.UUID]  # the same without the words (for the benchmark)
    by_keyword: list[uuid.UUID]  # the most of the question's words first (for the benchmark)


def with_filters(search: Search, understood: Understood) -> Search:
    return dataclasses.replace(search, **{FIELDS[key]: value for key, value in understood.filters.items()})


class Asking:
    def __init__(self, queries: Queries, index: MeaningIndex):
        self.queries, self.index = queries, index

    async def ask(self, question: str, search: Search, *, set_by_brand: set[str]) -> Answer:
        """`set_by_brand`: the listing parameters the brand set itself or removed from the reading; theirs win."""
        understood = understand(question, TIME_LEFT_HOURS).without(set_by_brand)
        search = with_filters(search, understood)
        if not understood.rest:
            return Answer(await self.queries.marketplace(search), understood, ranked=False)
        ranked = await self.ranked(search, understood.rest)
        if "sortBy" in understood.filters or "sortBy" in set_by_brand:
            ranked = await self.queries.kept_in_order(search, ranked[:SORTED_RELEVANT])
        start = (search.page - 1) * search.limit
        slots = await self.queries.slots_in_order(ranked[start:start + search.limit])
        page = Page(slots=slots, total=len(ranked), total_is_exact=True, page=search.page, limit=search.limit)
        return Answer(page, understood, ranked=True)

    async def ranked(self, search: Search, rest: str) -> list[uuid.UUID]:
        """The open slots the filters keep, the most relevant to `rest` first."""
        return (await self.rankings(search, rest)).ask

    async def rankings(self, search: Search, rest: str) -> Rankings:
        """The candidates: the nearest in meaning on the index's dimensions, and the newest slots with every word
        of `rest` (an exact title far in meaning still counts), read at once. The first RERANKED of the nearest the
        filters keep, and the slots with every word, are scored by their stored vectors of both models (all the word
        model's dimensions), with their category's closeness to the question and their share of its words
        (domain/relevance.py); the rest of the nearest follow in their order. The question's sentence vector (the
        costliest step, several ms of the sentence model) is made in a thread while the candidates are read. Slots
        with only some of the words and far in meaning are not looked for: finding every slot with any word costs
        each of a common word's matches (220 ms for 'home ...' at a million slots)."""
        question = vectors([rest], WORD_DIMENSIONS)[0]
        query, words = unit(question[:DIMENSIONS]), keywords(rest)  # on the index's dimensions
        asked, found = await asyncio.gather(asyncio.to_thread(sentence_vector, rest),
                                            self.candidates(search, query, words))
        categories = self.index.category_closeness(query)
        word_close = cosines(question, [found.meanings[slot_id].word for slot_id in found.scored])
        sentence_close = cosines(asked, [found.meanings[slot_id].sentence for slot_id in found.scored])
        meaning, blended = {}, {}
        for slot_id, word_cosine, sentence_cosine in zip(found.scored, word_close, sentence_close, strict=True):
            slot = found.kept[slot_id]
            cosine = blended_closeness(word_cosine or 0.0, sentence_cosine)
            meaning[slot_id] = relevance(cosine, categories.get(slot.category, 0.0), 0.0)
            blended[slot_id] = relevance(cosine, categories.get(slot.category, 0.0),
                                         slot.hits / len(words) if words else 0.0)
        by_keyword = sorted((slot_id for slot_id in found.kept if found.kept[slot_id].hits),
                            key=lambda slot_id: -found.kept[slot_id].hits)
        return Rankings(ask=by_relevance(blended) + found.tail, by_meaning=by_relevance(meaning) + found.tail,
                        by_keyword=by_keyword)

    async def candidates(self, search: Search, query: np.ndarray, words: list[str]) -> Candidates:
        category = search.category if search.category and search.category.lower() != "all" else None
        # numpy lets go of the GIL: the event loop does not wait for the dot products
        nearest = await asyncio.to_thread(self.index.nearest, query, category=category and category.lower(),
                                          limit=CANDIDATES)
        kept, every_word = await asyncio.gather(self.queries.kept_with_words(search, nearest, words),
                                                self.queries.with_every_word(search, words, KEYWORD_CANDIDATES))
        near = [slot_id for slot_id in nearest if slot_id in kept]
        scored = list(dict.fromkeys(near[:RERANKED] + list(every_word)))
        tail = [slot_id for slot_id in near[RERANKED:] if slot_id not in every_word]
        return Candidates(scored, tail, every_word | kept, await self.queries.meanings(scored))
