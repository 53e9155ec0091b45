"""A blog post's page, written from its article so that it paints before any script runs.

The web build prerenders a post's page once, with a slot `@@name@@` for each thing an article changes
(web/src/entry-server.tsx, `renderPostFrame`): `blog/_post/index.html`, and `blog/_post/parts.json` with what the
body and the cover picture are made of. Here each slot gets the article's text, escaped, its body's parts, and the
article itself as a JSON data block, from which the app's first render starts: the same strings the app writes
(web/src/pages/blog/article-page.ts, `articleText`; both are checked against its post-text.cases.json), so that
the app hydrates the page instead of rendering it again."""

import gzip
import html
import json
import re
from datetime import date
from pathlib import Path
from typing import Any

FRAME = Path("blog") / "_post"
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")  # the content service's own rule; anything else is not an article
MAX_SLUG = 120
_SLOT = re.compile(r"@@(\w+)@@")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


class NotFillable(ValueError):
    """An article the frame has no place for (a body part of a kind the build does not know)."""


def is_slug(text: str) -> bool:
    return len(text) <= MAX_SLUG and bool(SLUG.match(text))


def read_frame(root: Path) -> tuple[str, dict[str, str]] | None:
    """The frame and its parts, or None from a build that has none."""
    folder = root / FRAME
    try:
        return (folder / "index.html").read_text(encoding="utf-8"), json.loads((folder / "parts.json").read_bytes())
    except FileNotFoundError:
        return None


def article_text(article: dict[str, Any]) -> dict[str, str]:
    """The strings the page writes from the article, as articleText writes them in the browser."""
    seo = article.get("seo") or {}
    day = date.fromisoformat(article["publishedAt"])
    views = article["views"]
    return {
        "pageTitle": f"{seo.get('title') or article['title']} — Pinbid Blog",
        "description": seo.get("description") or article["excerpt"],
        "category": article["category"].replace("-", " "),
        "title": article["title"],
        "excerpt": article["excerpt"],
        "initial": article["author"][:1].upper(),
        "author": article["author"],
        "publishedAt": article["publishedAt"],
        "date": f"{MONTHS[day.month - 1]} {day.day}, {day.year}",
        "readTime": f"{article['readTime']} min read",
        "views": f"{views:,} {'view' if views == 1 else 'views'}",
        "imageUrl": article.get("imageUrl") or "",
    }


def script_json(value: Any) -> str:
    """JSON for a `<script type="application/json">` block: no `<` at all, so neither `</script>` nor `<!--`
    can end or bend the block; U+2028 and U+2029 escaped too, for any reader that takes it as JavaScript."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def fill(frame: str, parts: dict[str, str], article: dict[str, Any]) -> str:
    """The post's page. Every slot is filled in one pass, so a slot's name inside the article stays text."""
    text = article_text(article)
    values = {name: html.escape(value) for name, value in text.items()}
    body = []
    for part in article["body"]:
        if part["kind"] == "html":  # sanitised by the content service when it saved the article
            body.append(parts["html"].replace("@@html@@", part["html"]))
        elif part["kind"] in parts and part["kind"] not in ("html", "cover"):
            body.append(parts[part["kind"]])
        else:
            raise NotFillable(f"no part {part['kind']!r} in the post frame")
    values["body"] = "".join(body)
    values["cover"] = parts["cover"].replace("@@imageUrl@@", values["imageUrl"]) if text["imageUrl"] else ""
    values["data"] = script_json(article)

    def value(slot: re.Match[str]) -> str:
        if slot.group(1) not in values:
            raise NotFillable(f"the post frame has a slot {slot.group(0)} this gateway does not know")
        return values[slot.group(1)]

    return _SLOT.sub(value, frame)


def encoded(page: str, accept_encoding: str) -> tuple[bytes, dict[str, str]]:
    """The page, gzipped when the browser takes it (a page made per request has no copy compressed at build)."""
    body = page.encode()
    if "gzip" in accept_encoding:
        return gzip.compress(body, compresslevel=6), {"Content-Encoding": "gzip"}
    return body, {}
