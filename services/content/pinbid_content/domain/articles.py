"""Articles as files: front matter (YAML) plus a body in Markdown, MDX-flavoured Markdown or HTML.

Pure rules: how a file becomes an article, how long it takes to read, what search sees."""

import hashlib
import html
import math
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

import nh3
import yaml
from markdown_it import MarkdownIt

TYPES = {".md": "md", ".mdx": "mdx", ".html": "html"}
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
CATEGORY = SLUG
MAX_SLUG = 120
MAX_TITLE = 200
MAX_EXCERPT = 500
MAX_TAGS = 20
MAX_TAG = 40
WORDS_PER_MINUTE = 200
# the two lines an mdx article may hold; the web app puts its interactive demos there
DEMO_LINE = re.compile(r"^\s*<(FormulaDemo|StepsDemo)\s*/>\s*$", re.MULTILINE)
_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.DOTALL)
# emphasis marks go, line-start markers (headings, quotes, bullets) become spaces; the rest stays for search
_EMPHASIS = re.compile(r"[*`]+")
_LINE_MARKERS = re.compile(r"^\s*(?:#{1,6}|>|[-+])\s", re.MULTILINE)
# CommonMark with GitHub's tables and strikethrough (what the web's react-markdown with remark-gfm showed)
_MARKDOWN = MarkdownIt("commonmark").enable(["table", "strikethrough"])
DEMOS = {"FormulaDemo": "formula", "StepsDemo": "steps"}


class BadArticle(ValueError):
    """A file that cannot be published as it is; the message says what to fix."""


@dataclass(frozen=True)
class FaqItem:
    question: str
    answer: str


@dataclass(frozen=True)
class Seo:
    title: str
    description: str


@dataclass(frozen=True)
class Article:
    slug: str
    type: str
    title: str
    author: str
    published_at: date
    excerpt: str
    category: str
    tags: tuple[str, ...]
    featured: bool
    image_url: str | None
    published: bool
    read_time: int
    content: str
    faq: tuple[FaqItem, ...] = ()
    seo: Seo | None = None
    search_text: str = field(default="", repr=False)
    body: tuple[dict[str, str], ...] = field(default=(), repr=False)

    @property
    def source_hash(self) -> str:
        """Changes whenever anything stored changes (search included); unchanged files cost no write."""
        parts = [self.slug, self.type, self.title, self.author, self.published_at.isoformat(), self.excerpt,
                 self.category, "\x1f".join(self.tags), str(self.featured), self.image_url or "", str(self.published),
                 str(self.read_time), self.content,
                 "\x1f".join(f"{f.question}\x1e{f.answer}" for f in self.faq),
                 f"{self.seo.title}\x1e{self.seo.description}" if self.seo else "", self.search_text,
                 "\x1f".join(f"{part['kind']}\x1e{part.get('html', '')}" for part in self.body)]
        return hashlib.sha256("\x1d".join(parts).encode()).hexdigest()


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    match = _FRONT_MATTER.match(text.lstrip("\ufeff"))
    if not match:
        raise BadArticle("the file must start with front matter between two '---' lines")
    try:
        meta = yaml.safe_load(match.group(1)) or {}
    except yaml.YAMLError as exc:
        raise BadArticle(f"the front matter is not valid YAML: {exc}") from None
    if not isinstance(meta, dict):
        raise BadArticle("the front matter must be a YAML mapping")
    return meta, text.lstrip("\ufeff")[match.end():]


def sanitize_html(body: str) -> str:
    """Keeps ordinary markup; drops scripts, event handlers, javascript: links and the like."""
    return nh3.clean(body).strip()


def render_body(article_type: str, content: str) -> tuple[dict[str, str], ...]:
    """The article's body as the page shows it: sanitised HTML parts (Markdown rendered here, once, when the
    article is saved, so that a browser never parses it), and for an mdx article the demos between them
    (`{"kind": "formula"}` for a line `<FormulaDemo />`)."""
    if article_type == "html":
        return ({"kind": "html", "html": content},)
    parts: list[dict[str, str]] = []
    pieces = DEMO_LINE.split(content) if article_type == "mdx" else [content]
    for i, piece in enumerate(pieces):
        if i % 2:  # split() puts each demo's name between the Markdown around it
            parts.append({"kind": DEMOS[piece]})
        elif piece.strip():
            parts.append({"kind": "html", "html": sanitize_html(_MARKDOWN.render(piece))})
    return tuple(parts)


def plain_text(article_type: str, body: str) -> str:
    if article_type == "html":
        return " ".join(html.unescape(nh3.clean(body, tags=set())).split())
    body = DEMO_LINE.sub(" ", body)
    return " ".join(_EMPHASIS.sub("", _LINE_MARKERS.sub(" ", body)).split())


def read_time(words: int) -> int:
    """Minutes at an ordinary reading pace, at least one."""
    return max(1, math.ceil(words / WORDS_PER_MINUTE))


def parse_article(filename: str, text: str) -> Article:
    """One file (name and text) as an article, or BadArticle saying what is wrong."""
    suffix = "." + filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    if suffix not in TYPES:
        raise BadArticle(f"unsupported file type {suffix or '(none)'}; use .md, .mdx or .html")
    article_type = TYPES[suffix]
    meta, body = split_front_matter(text)
    slug = _text(meta, "slug", MAX_SLUG)
    if not SLUG.match(slug):
        raise BadArticle("slug: lowercase letters, digits and single hyphens only")
    category = _text(meta, "category", 60)
    if not CATEGORY.match(category):
        raise BadArticle("category: lowercase words joined by hyphens, e.g. creator-tips")
    content = sanitize_html(body) if article_type == "html" else body.strip()
    if not content:
        raise BadArticle("the article has no body")
    text_only = plain_text(article_type, body)
    excerpt = _optional_text(meta, "excerpt", MAX_EXCERPT) or _optional_text(meta, "description", MAX_EXCERPT)
    if not excerpt:
        raise BadArticle("excerpt (or description) is required")
    tags = _tags(meta.get("tags"))
    title = _text(meta, "title", MAX_TITLE)
    minutes = meta.get("readTime")
    if minutes is None:
        minutes = read_time(len(text_only.split()))
    elif not isinstance(minutes, int) or isinstance(minutes, bool) or not 1 <= minutes <= 600:
        raise BadArticle("readTime: a whole number of minutes between 1 and 600")
    return Article(
        slug=slug, type=article_type, title=title, author=_text(meta, "author", 100),
        published_at=_date(meta.get("publishedAt", meta.get("date"))), excerpt=excerpt, category=category,
        tags=tags, featured=_flag(meta, "featured", False), image_url=_image_url(meta.get("imageUrl")),
        published=_flag(meta, "published", True), read_time=minutes, content=content,
        faq=_faq(meta.get("faq")), seo=_seo(meta.get("seo")),
        search_text=search_words(title, excerpt, " ".join(tags), text_only), body=render_body(article_type, content),
    )


def search_words(*texts: str) -> str:
    """What search looks in: each distinct lowercase word once. A query is matched word by word, so
    repeats add nothing but bytes to scan (an article's text shrinks to about a third)."""
    return " ".join(dict.fromkeys(" ".join(texts).lower().split()))


def search_terms(q: str | None, *, limit: int = 8) -> list[str]:
    """A query as lowercase words, each of which must appear; at most `limit` words count."""
    if not q:
        return []
    return [word for word in q.lower().split() if word][:limit]


def like_pattern(term: str) -> str:
    """`term` as a substring pattern for LIKE, with its wildcards taken literally."""
    return "%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _text(meta: dict[str, Any], key: str, max_length: int) -> str:
    value = _optional_text(meta, key, max_length)
    if not value:
        raise BadArticle(f"{key} is required")
    return value


def _optional_text(meta: dict[str, Any], key: str, max_length: int) -> str | None:
    value = meta.get(key)
    if value is None:
        return None
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise BadArticle(f"{key} must be text")
    value = " ".join(str(value).split())
    if len(value) > max_length:
        raise BadArticle(f"{key} must be at most {max_length} characters")
    return value or None


def _flag(meta: dict[str, Any], key: str, default: bool) -> bool:
    value = meta.get(key, default)
    if not isinstance(value, bool):
        raise BadArticle(f"{key} must be true or false")
    return value


def _date(value: Any) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value.strip().replace("Z", "+00:00")).date()
        except ValueError:
            pass
    raise BadArticle("date (or publishedAt) is required as an ISO date, e.g. 2026-11-02")


def _tags(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) > MAX_TAGS:
        raise BadArticle(f"tags must be a list of at most {MAX_TAGS} words")
    tags: list[str] = []
    for tag in value:
        if not isinstance(tag, str) or not tag.strip() or len(tag.strip()) > MAX_TAG:
            raise BadArticle(f"each tag must be text of 1 to {MAX_TAG} characters")
        cleaned = tag.strip().lstrip("#").lower()
        if cleaned not in tags:
            tags.append(cleaned)
    return tuple(tags)


def _image_url(value: Any) -> str | None:
    if value in (None, ""):
        return None
    if not isinstance(value, str) or len(value) > 500 or not re.match(r"^(https://|/)[^\s\"'<>]*$", value):
        raise BadArticle("imageUrl must be an https:// address or a path starting with /")
    return value


def _faq(value: Any) -> tuple[FaqItem, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise BadArticle("faq must be a list of {question, answer}")
    items = []
    for entry in value:
        if not isinstance(entry, dict):
            raise BadArticle("faq must be a list of {question, answer}")
        items.append(FaqItem(question=_text(entry, "question", 300), answer=_text(entry, "answer", 2000)))
    return tuple(items)


def _seo(value: Any) -> Seo | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise BadArticle("seo must be a mapping with title and description")
    return Seo(title=_text(value, "title", 200), description=_text(value, "description", 500))
