"""The AI search box's judged set: 300 slots written by hand (corpus_*.txt, one topic of ten slots after another,
six categories) and 46 questions with graded relevance (questions.txt), read into plain values."""

import math
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

HERE = Path(__file__).parent


@dataclass(frozen=True)
class JudgedSlot:
    key: str  # the corpus id, stored as the slot's post id
    category: str
    price: Decimal
    views: int
    verified: bool
    title: str
    description: str
    caption: str


@dataclass(frozen=True)
class Question:
    ask: str
    grades: dict[str, int]  # corpus id -> 1..3; every other slot 0


def corpus() -> list[JudgedSlot]:
    found = []
    for path in sorted(HERE.glob("corpus_*.txt")):
        for line in path.read_text().splitlines():
            if line and not line.startswith("#"):
                key, category, price, views, verified, title, description, caption = line.split("|")
                found.append(JudgedSlot(key, category, Decimal(price), int(views), verified == "y", title,
                                        description, caption))
    return found


def questions() -> list[Question]:
    found: list[Question] = []
    for line in (HERE / "questions.txt").read_text().splitlines():
        if line.startswith("? "):
            found.append(Question(line[2:], {}))
        elif line and not line.startswith("#"):
            for pair in line.split():
                key, grade = pair.split(":")
                found[-1].grades[key] = int(grade)
    return found


def ndcg(ranked: list[str], grades: dict[str, int], at: int = 10) -> float:
    """Normalised discounted cumulative gain of the first `at` results (gain 2^grade - 1)."""
    def dcg(values: list[int]) -> float:
        return sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(values[:at]))
    ideal = dcg(sorted(grades.values(), reverse=True))
    return dcg([grades.get(key, 0) for key in ranked]) / ideal if ideal else 0.0
