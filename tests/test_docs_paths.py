"""The newcomer's pages name real files: every repository path written in code quotes, and every relative
link, must exist. A file moved without its docs fails here."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ["docs/README.md", "docs/service-guide.md"]
TOP_LEVEL = ("services/", "gateway/", "web/", "infra/", "contracts/", "docs/", "tests/", "benchmarks/", "k8s/")

_CODE = re.compile(r"`([^`\s]+)`")
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def named_paths(markdown: str, page: Path) -> set[Path]:
    """The repository paths a page names: code-quoted paths from a top-level folder (placeholders such as
    `<svc>` are patterns, not paths) and relative links (anchors dropped, web addresses left out)."""
    found = {ROOT / quoted.rstrip("/") for quoted in _CODE.findall(markdown)
             if quoted.startswith(TOP_LEVEL) and "<" not in quoted and "*" not in quoted}
    for target in _LINK.findall(markdown):
        target = target.split("#", 1)[0]
        if target and "://" not in target and not target.startswith("mailto:"):
            found.add((page.parent / target).resolve())
    return found


def missing(page: Path) -> list[str]:
    inside = [p for p in named_paths(page.read_text(), page) if p.is_relative_to(ROOT)]
    return sorted(str(p.relative_to(ROOT)) for p in inside if not p.exists())


@pytest.mark.parametrize("page", CHECKED)
def test_every_path_a_page_names_exists(page):
    assert missing(ROOT / page) == []


def test_a_missing_path_is_reported():
    page = ROOT / "docs" / "README.md"
    text = "See `services/kit/pinbid_kit/outbox.py`, `services/kit/pinbid_kit/gone.py`, `pinbid_<svc>/api.py`, " \
           "[the guide](service-guide.md#layout) and [nowhere](nowhere.md)."
    names = {str(p.relative_to(ROOT)) for p in named_paths(text, page)}
    assert names == {"services/kit/pinbid_kit/outbox.py", "services/kit/pinbid_kit/gone.py",
                     "docs/service-guide.md", "docs/nowhere.md"}
    assert [n for n in sorted(names) if not (ROOT / n).exists()] == ["docs/nowhere.md",
                                                                      "services/kit/pinbid_kit/gone.py"]
