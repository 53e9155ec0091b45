"""The docs' claims that a test can hold. The newcomer's pages name real files: every repository path written in
code quotes, and every relative link, must exist (a file moved without its docs fails here). Every setting a README's
table names is a field of its settings class, with the default the table says; every `make <target>` the docs
write is a target; the map's list of the web's features is the folders there are. Run by `make lint`."""

import re
from decimal import Decimal, InvalidOperation
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


# --- settings: every setting a README's table names exists, with the default it says --------------------------------
READMES = ["README.md", "services/marketplace/README.md", "services/payments/README.md",
           "services/social/README.md", "services/content/README.md"]
_PREFIX = re.compile(r"`([A-Z]+_)`")
_NAME = re.compile(r"`([A-Z][A-Z0-9_]*[A-Z0-9])`")


def settings_classes() -> dict[str, type]:
    """The settings class of each environment prefix; `""` for the kit's, whose names every service shares."""
    from pinbid_content.settings import ContentSettings
    from pinbid_gateway.settings import GatewaySettings
    from pinbid_identity.settings import IdentitySettings
    from pinbid_kit.settings import KitSettings
    from pinbid_marketplace.settings import MarketplaceSettings
    from pinbid_payments.settings import PaymentsSettings
    from pinbid_social.settings import SocialSettings

    classes = (ContentSettings, GatewaySettings, IdentitySettings, MarketplaceSettings, PaymentsSettings,
               SocialSettings)
    return {"": KitSettings} | {cls.model_config["env_prefix"]: cls for cls in classes}


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def settings_tables(markdown: str) -> list[tuple[str, list[list[str]]]]:
    """Each table of settings (its first header cell "variable..." or "setting"), with the prefix it is under: the
    one prefix the nearest line before it that names prefixes names, or "" (the shared names) when it names more."""
    lines = markdown.splitlines()
    tables = []
    for n, line in enumerate(lines):
        first = _cells(line)[0].lower() if line.startswith("|") else ""
        if not (first.startswith("variable") or first == "setting") or lines[n - 1].startswith("|"):
            continue
        prefixes = next((_PREFIX.findall(before) for before in reversed(lines[:n]) if _PREFIX.search(before)), [])
        rows = []
        for row in lines[n + 2:]:
            if not row.startswith("|"):
                break
            rows.append(_cells(row))
        tables.append((prefixes[0] if len(prefixes) == 1 else "", rows))
    return tables


def _said(default: str) -> str:
    return re.sub(r"\s*\(.*\)$", "", default.strip()).strip("`").strip()


def _number(value) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal | str):
        return None
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None


def default_holds(written: str, actual) -> bool | None:
    """Whether a README's default is the setting's (None: prose, such as "key file under `var/keys`" or
    "instagram.com"): none/empty, true/false and numbers always; text only when written in code quotes."""
    said = _said(written)
    quoted = re.sub(r"\s*\(.*\)$", "", written.strip()).startswith("`")
    if said in ("none", "empty"):
        return actual in (None, "", [], ())
    if said in ("true", "false"):
        return actual is (said == "true")
    if (number := _number(said)) is not None:
        return _number(actual) == number
    if quoted and isinstance(actual, str | Path) and not any(mark in said for mark in ("…", "...", "{", "<")):
        return str(actual) == said or str(actual).endswith("/" + said)  # paths under var/ or the checkout
    return None


def settings_problems(page: str, markdown: str) -> list[str]:
    from pydantic_core import PydanticUndefined

    classes = settings_classes()
    found = []
    for prefix, rows in settings_tables(markdown):
        cls = classes[prefix]
        for row in rows:
            if "(no prefix)" in row[0]:
                continue
            names = _NAME.findall(row[0])
            defaults = re.split(r"\s*(?:,|/)\s+", row[1]) if len(row) > 1 else []
            for i, name in enumerate(names):
                field = cls.model_fields.get(name.lower())
                if field is None:
                    found.append(f"{page}: {prefix}{name} is not a setting of {cls.__name__}")
                    continue
                if len(defaults) != len(names):
                    continue
                actual = field.default_factory() if field.default is PydanticUndefined and field.default_factory \
                    else field.default
                if default_holds(defaults[i], actual) is False:
                    found.append(f"{page}: {prefix}{name} defaults to {actual!r}, not {_said(defaults[i])}")
    return found


@pytest.mark.parametrize("page", READMES)
def test_every_setting_a_readme_names_exists_with_its_default(page):
    markdown = (ROOT / page).read_text()
    assert settings_tables(markdown), "no settings table found"
    assert settings_problems(page, markdown) == []


def test_a_wrong_setting_or_default_is_reported():
    markdown = "\n".join([
        "## Settings (env prefix `MARKETPLACE_`)", "| setting | default | |", "|---|---|---|",
        "| `BID_STEP` | 1.00 | |", "| `SOFT_CLOSE_SECONDS` | 60 | |", "| `NO_SUCH_THING` | 3 | |",
        "| `MIN_AUCTION_HOURS` / `MAX_AUCTION_DAYS` | 1 / 30 | |", "| `DATABASE_URL` | `…/pinbid_marketplace` | |"])
    assert settings_problems("x.md", markdown) == [
        "x.md: MARKETPLACE_SOFT_CLOSE_SECONDS defaults to 120, not 60",
        "x.md: MARKETPLACE_NO_SUCH_THING is not a setting of MarketplaceSettings"]


# --- make targets: every `make <target>` the docs write is a target of the Makefile ---------------------------------
DOCS = sorted({*READMES, *CHECKED, "web/README.md", "tests/browser/README.md",
               *(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md"))})
_MAKE = re.compile(r"`make ((?:[A-Z_]+=\S+ )*)([a-z][\w-]*)")
_TARGET = re.compile(r"^([a-z][\w-]*(?: [a-z][\w-]*)*):(?!=)", re.MULTILINE)


def make_targets() -> set[str]:
    return {t for line in _TARGET.findall((ROOT / "Makefile").read_text()) for t in line.split()}


@pytest.mark.parametrize("page", DOCS)
def test_every_make_target_a_page_names_exists(page):
    named = {target for _, target in _MAKE.findall((ROOT / page).read_text())}
    assert sorted(named - make_targets()) == []


def test_the_make_targets_are_read():
    assert {"run", "test", "lint", "contracts", "up", "down", "bench-hot", "operator"} <= make_targets()
    assert [t for _, t in _MAKE.findall("`make up REPLICAS=2`, `make PORT=9000 run`, `make -j 4 test`")] == [
        "up", "run"]


# --- the web's feature folders: the map lists exactly the folders there are ----------------------------------------
def test_the_map_lists_the_webs_features():
    row = next(line for line in (ROOT / "docs" / "README.md").read_text().splitlines()
               if line.startswith("| web app |"))
    listed = re.search(r"`features/` \(([^):]+)", row).group(1)
    folders = {p.name for p in (ROOT / "web" / "src" / "features").iterdir() if p.is_dir()}
    assert sorted(name.strip() for name in listed.split(",")) == sorted(folders)
