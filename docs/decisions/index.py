"""Writes docs/decisions/README.md, the index of the decision records, from the topic files beside it.

Each topic file is `# <topic>`, a paragraph saying what it covers, then entries: `## <title>`, on the next line
`Status: current` or `Status: superseded by [<title>](<file>#<anchor>)`, then the record. The script also refuses
records that break that shape, a title used twice, and any link between the records (a successor or a "see") to
an entry or a file that does not exist.

    uv run python docs/decisions/index.py           # rewrite the index
    uv run python docs/decisions/index.py --check   # exit 1 when the index is stale or a record is malformed
"""

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

FOLDER = Path(__file__).resolve().parent
INDEX = FOLDER / "README.md"
CURRENT = "Status: current"
_LINK = re.compile(r"\]\((?P<file>[^)\s#]*)(?:#(?P<anchor>[^)\s]+))?\)")
_SUPERSEDED = re.compile(r"^Status: superseded by \[(?P<title>[^\]]+)\]\((?P<file>[\w.-]*)#(?P<anchor>[\w-]+)\)$")

INTRODUCTION = """\
# Decisions

What we decided where `../shared/SPEC.md` and `../shared/ARCHITECTURE.md` are silent, one topic a file. Each
entry is a short record (context, decision, consequences) marked `Status: current`, or `Status: superseded by` the
entry that replaced it; superseded entries stay, so the reason for a change is not lost. No two current entries
contradict each other.

To add a decision, append an entry to its topic's file (or start a topic file), mark what it replaces as
superseded, then run `uv run python docs/decisions/index.py` (generated: this page; `make lint` checks it).
"""


@dataclass(frozen=True)
class Entry:
    title: str
    anchor: str
    superseded_by: tuple[str, str, str] | None  # (title, file, anchor)


@dataclass(frozen=True)
class Topic:
    file: str
    title: str
    summary: str
    entries: list[Entry]


def anchor_of(title: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def read_topic(path: Path, problems: list[str]) -> Topic:
    lines = path.read_text().splitlines()
    if not lines or not lines[0].startswith("# "):
        problems.append(f"{path.name}: the first line must be '# <topic>'")
        return Topic(path.name, path.stem, "", [])
    paragraph = []
    for line in lines[1:]:
        if line.startswith("## ") or (not line.strip() and paragraph):
            break
        if line.strip():
            paragraph.append(line.strip())
    summary = " ".join(paragraph)
    entries = []
    for number, line in enumerate(lines):
        if not line.startswith("## "):
            continue
        title = line[3:].strip()
        status = lines[number + 1] if number + 1 < len(lines) else ""
        replaced = _SUPERSEDED.match(status)
        if status != CURRENT and replaced is None:
            problems.append(f"{path.name}: '{title}' must be followed by '{CURRENT}' or "
                            "'Status: superseded by [<title>](<file>#<anchor>)'")
        by = None
        if replaced is not None:
            by = (replaced["title"], replaced["file"] or path.name, replaced["anchor"])
        entries.append(Entry(title, anchor_of(title), by))
    if not entries:
        problems.append(f"{path.name}: no entries")
    return Topic(path.name, lines[0][2:].strip(), summary, entries)


def read_topics(problems: list[str], folder: Path = FOLDER) -> list[Topic]:
    topics = [read_topic(path, problems) for path in sorted(folder.glob("*.md")) if path.name != INDEX.name]
    places: dict[str, str] = {}
    anchors = {(t.file, e.anchor): e for t in topics for e in t.entries}
    for topic in topics:
        for entry in topic.entries:
            if entry.title in places:
                problems.append(f"'{entry.title}' is a title in {places[entry.title]} and {topic.file}")
            places[entry.title] = topic.file
            if entry.superseded_by is not None:
                title, file, anchor = entry.superseded_by
                target = anchors.get((file, anchor))
                if target is None:
                    problems.append(f"{topic.file}: '{entry.title}' is superseded by {file}#{anchor}, "
                                    "which is no entry")
                elif target.title != title:
                    problems.append(f"{topic.file}: '{entry.title}' names its successor '{title}', "
                                    f"whose title is '{target.title}'")
    for topic in topics:
        for link in _LINK.finditer((folder / topic.file).read_text()):
            file, anchor = link["file"] or topic.file, link["anchor"]
            if "://" in file:
                continue
            if not (folder / file).exists():
                problems.append(f"{topic.file}: the link to {file} leads nowhere")
            elif anchor and "/" not in file and file != INDEX.name and (file, anchor) not in anchors:
                problems.append(f"{topic.file}: the link to {file}#{anchor} names no entry")
    return topics


def render(topics: list[Topic]) -> str:
    parts = [INTRODUCTION]
    parts.append("| topic | current | superseded |\n|---|---|---|")
    for topic in topics:
        current = sum(1 for e in topic.entries if e.superseded_by is None)
        parts[-1] += f"\n| [{topic.title}]({topic.file}) | {current} | {len(topic.entries) - current} |"
    parts[-1] += "\n"
    for topic in topics:
        lines = [f"## [{topic.title}]({topic.file})", ""]
        if topic.summary:
            lines += [topic.summary, ""]
        for entry in topic.entries:
            link = f"[{entry.title}]({topic.file}#{entry.anchor})"
            if entry.superseded_by is None:
                lines.append(f"- {link}: current")
            else:
                title, file, anchor = entry.superseded_by
                lines.append(f"- {link}: superseded by [{title}]({file}#{anchor})")
        parts.append("\n".join(lines) + "\n")
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail when the index is stale or a record malformed")
    args = parser.parse_args(argv)
    problems: list[str] = []
    text = render(read_topics(problems))
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    if args.check:
        if not INDEX.exists() or INDEX.read_text() != text:
            print(f"{INDEX.relative_to(FOLDER.parent.parent)} is stale; run: uv run python docs/decisions/index.py",
                  file=sys.stderr)
            return 1
        print("docs/decisions/README.md is up to date")
        return 0
    INDEX.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
