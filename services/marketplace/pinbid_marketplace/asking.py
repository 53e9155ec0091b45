"""The AI search box: a brand's question read into the listing's filters (domain/ask.py), the rest of it ranked by
meaning and by keyword, the two rankings fused (reciprocal rank fusion)."""

import asyncio
import dataclasses
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from pinbid_kit.product_rules import TIME_LEFT_HOURS

from .domain.ask import Understood, understand
from .meaning import MeaningIndex, reranked, vectors
from .queries import Page, Queries, Search

CANDIDATES = 500  # each ranking's first slots, before fusion
RERANKED = 200  # of the nearest the filters keep, these are ranked again on all the model's dimensions
RRF_K = 60  # reciprocal rank fusion's constant (Cormack et al., 2009): weight / (60 + rank)
# on the judged set meaning alone is the better half (meaning weighing 2 gave nDCG@10 0.675, 3 0.682, 4 0.684)
MEANING_WEIGHT, KEYWORD_WEIGHT = 3.0, 1.0
SORTED_RELEVANT = 50  # with a sort asked for, the most relevant slots are the ones sorted
KEYWORD_LENGTH = 3  # shorter words have no trigram to look up

# the listing's parameter names -> Search's fields
FIELDS = {"category": "category", "minPrice": "min_price", "maxPrice": "max_price", "timeLeft": "time_left",
          "minViews": "min_views", "verified": "verified", "minKeptPercent": "min_kept_percent", "noBids": "no_bids",
          "sortBy": "sort_by"}


@dataclass(frozen=True)
class Answer:
    page: Page
    understood: Understood
    ranked: bool  # the rest of the question ranked the slots


def fuse(*rankings: tuple[float, Sequence[uuid.UUID]]) -> list[uuid.UUID]:
    """Weighted reciprocal rank fusion: each slot scores weight / (RRF_K + its rank) in each ranking it is in."""
    scores: dict[uuid.UUID, float] = {}
    for weight, ranking in rankings:
        for rank, slot_id in enumerate(ranking, start=1):
            scores[slot_id] = scores.get(slot_id, 0.0) + weight / (RRF_K + rank)
    return sorted(scores, key=lambda slot_id: -scores[slot_id])


def keywords(rest: str) -> list[str]:
    return [word for word in rest.split() if len(word) >= KEYWORD_LENGTH]


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
        """The open slots the filters keep, the most relevant to `rest` first: its meaning's nearest and its
        keywords' best matches, fused."""
        by_meaning, by_keyword = await self.rankings(search, rest)
        return fuse((MEANING_WEIGHT, by_meaning), (KEYWORD_WEIGHT, by_keyword))

    async def rankings(self, search: Search, rest: str) -> tuple[list[uuid.UUID], list[uuid.UUID]]:
        """The two halves. By meaning: the nearest on the index's dimensions, the first RERANKED the filters keep
        ranked again on all the model's (embedding costs about 18 µs a slot). By keyword: the slots with every word
        (newest first), then those of the nearest in meaning with some of the words, the most words first. A slot
        with only some of the words and far in meaning is left out: ranking every slot by how many words it has
        costs each of a common word's matches (220 ms for 'home ...' at a million slots)."""
        category = search.category if search.category and search.category.lower() != "all" else None
        # numpy lets go of the GIL: the event loop does not wait for the dot products
        nearest = await asyncio.to_thread(self.index.nearest, vectors([rest])[0],
                                          category=category and category.lower(), limit=CANDIDATES)
        words = keywords(rest)
        kept, every_word = await asyncio.gather(self.queries.kept_with_words(search, nearest, words),
                                                self.queries.with_every_word(search, words, CANDIDATES))
        near = [slot_id for slot_id in nearest if slot_id in kept]
        by_meaning = await asyncio.to_thread(reranked, rest, {i: kept[i].text for i in near[:RERANKED]})
        by_meaning += near[RERANKED:]
        found = dict.fromkeys(every_word, len(words)) | {i: k.hits for i, k in kept.items()
                                                          if k.hits and i not in every_word}
        return by_meaning, sorted(found, key=lambda slot_id: -found[slot_id])
