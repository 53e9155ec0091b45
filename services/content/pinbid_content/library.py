"""Reads the article folder: every .md, .mdx and .html file, parsed, with the problems found."""

import logging
from dataclasses import dataclass, field
from pathlib import Path

from .domain.articles import TYPES, Article, BadArticle, parse_article

log = logging.getLogger("pinbid.content.library")
MAX_FILE_BYTES = 1_000_000


@dataclass
class FolderScan:
    articles: list[Article] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def read_folder(folder: Path) -> FolderScan:
    scan = FolderScan()
    if not folder.is_dir():
        scan.problems.append(f"{folder}: the article folder does not exist")
        return scan
    seen: dict[str, str] = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in TYPES):
        name = str(path.relative_to(folder))
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                raise BadArticle(f"larger than {MAX_FILE_BYTES} bytes")
            article = parse_article(path.name, path.read_text(encoding="utf-8"))
        except (BadArticle, UnicodeDecodeError, OSError) as problem:
            scan.problems.append(f"{name}: {problem}")
            continue
        if article.slug in seen:
            scan.problems.append(f"{name}: slug {article.slug!r} is already used by {seen[article.slug]}")
            continue
        seen[article.slug] = name
        scan.articles.append(article)
    for problem in scan.problems:
        log.error("article not loaded: %s", problem)
    return scan
