"""docs/decisions/index.py: the records' shape and links are checked, and the committed index is current."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("decisions_index", ROOT / "docs" / "decisions" / "index.py")
index = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(index)

GOOD = """# Bids

How bids are written.

## One lock per slot
Status: superseded by [The unlocked write](bids.md#the-unlocked-write)

**Decision.** Every bid locks its slot.

## The unlocked write
Status: current

**Decision.** Written if the slot's version is unchanged; see [One lock per slot](#one-lock-per-slot).
"""


def problems_of(folder: Path) -> list[str]:
    problems: list[str] = []
    index.read_topics(problems, folder)
    return problems


def test_anchors_are_githubs():
    assert index.anchor_of("Accepted bids are written without holding the slot's lock") == \
        "accepted-bids-are-written-without-holding-the-slots-lock"
    assert index.anchor_of("One text rule, in the kit") == "one-text-rule-in-the-kit"


def test_well_formed_records_pass_and_are_indexed(tmp_path):
    (tmp_path / "bids.md").write_text(GOOD)
    assert problems_of(tmp_path) == []
    text = index.render(index.read_topics([], tmp_path))
    assert "- [One lock per slot](bids.md#one-lock-per-slot): superseded by " \
           "[The unlocked write](bids.md#the-unlocked-write)" in text
    assert "| [Bids](bids.md) | 1 | 1 |" in text


def test_a_missing_status_a_dangling_successor_and_a_broken_link_are_refused(tmp_path):
    (tmp_path / "bids.md").write_text(GOOD.replace("Status: current", "Accepted")
                                      .replace("#the-unlocked-write", "#the-locked-write")
                                      .replace("(#one-lock-per-slot)", "(#one-lock)"))
    problems = problems_of(tmp_path)
    assert any("'The unlocked write' must be followed by" in p for p in problems)
    assert any("superseded by bids.md#the-locked-write, which is no entry" in p for p in problems)
    assert any("the link to bids.md#one-lock names no entry" in p for p in problems)


def test_the_committed_index_is_current():
    assert index.main(["--check"]) == 0
