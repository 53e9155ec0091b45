"""How relevant a slot is to what is left of a brand's question, for the AI search box: the slot's closeness in
meaning (two models' cosines blended), how close the question is to the slot's category as a whole, and the share
of the question's words the slot has, in one score (docs/decisions/listing-and-reliability.md, "The AI search box
blends ..."). Also the plain suffix rule that lets "baristas" find "barista" and "watches" find "watch"."""

from collections.abc import Mapping

# Tuned on the judged set's tuning half (benchmarks/ask_quality.py); the held-out half is reported beside it.
CATEGORY_WEIGHT = 1.0  # a question close to a category's slots as a whole favours that category's slots
KEYWORD_WEIGHT = 0.1  # every word of the question in the slot's title or description adds this much
SENTENCE_WEIGHT = 1.0  # the sentence model's cosine against the word model's 1 (the tuning half's best of 0.5, 1, 2)
MIN_STEM = 4  # a suffix comes off only when this many letters stay: "news" stays "news", "ties" stays "ties"
SUFFIXES = ("ies", "es", "s", "ing", "ers", "er", "ed")  # the first that fits comes off, longest forms first
KEYWORD_LENGTH = 3  # shorter words have no trigram for the keyword search to look up


def stem(word: str) -> str:
    """The word less its plural or verb ending, so it matches its other forms ("stretching" -> "stretch" matches
    "stretches", "gamers" -> "gamer"); a short word is kept whole ("news", "ties", "baking")."""
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= MIN_STEM:
            return word[:-len(suffix)]
    return word


def keywords(rest: str) -> list[str]:
    """The stems of the words of `rest` (already lower case, each word once) the keyword search can look up."""
    return list(dict.fromkeys(stem(word) for word in rest.split() if len(word) >= KEYWORD_LENGTH))


def blended_closeness(word_model: float, sentence_model: float | None) -> float:
    """The slot's closeness to the question: the two models' cosines averaged by their weights. A slot whose
    sentence vector is not made yet is as close as the word model says, on the same scale."""
    if sentence_model is None:
        return word_model
    return (word_model + SENTENCE_WEIGHT * sentence_model) / (1 + SENTENCE_WEIGHT)


def relevance(closeness: float, category_closeness: float, word_share: float) -> float:
    """`closeness`: the question and the slot's blended cosine; `category_closeness`: cosine of the question and the
    mean of the slot's category's open slots; `word_share`: the share of the question's keywords in the slot (0 to
    1)."""
    return closeness + CATEGORY_WEIGHT * category_closeness + KEYWORD_WEIGHT * word_share


def by_relevance(scores: Mapping[object, float]) -> list:
    """The keys of `scores`, the most relevant first (ties keep their given order)."""
    return sorted(scores, key=lambda key: -scores[key])
