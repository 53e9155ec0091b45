"""The web says no rule the server decides: no number of hours, days or megabytes is written in web/src (outside
tests and their helpers); the web reads them from the served rules (`web/src/api/rules.ts`, from
`pinbid_kit/web_rules.py`) and says them in words with `web/src/lib/spans.ts`. Run directly to list what it finds.

The legal pages are left out: their periods (notice of a change, how long logs and records are kept) are the
company's commitments in its own words, not limits a service enforces."""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "web" / "src"
NOT_RULES = {"api/schema.d.ts",  # generated from contracts/openapi.json (its descriptions come from the services)
             "lib/spans.ts",  # turns the served numbers into words: units and their conversions, no rule
             "pages/legal/TermsPage.tsx", "pages/legal/PrivacyPage.tsx"}
# the units in words in any case; sizes in capitals only (Tailwind's "mb-4" is a margin)
_UNIT = r"(?:(?i:hours?|hrs?|days?|weeks?|minutes?|seconds?|megabytes?|kilobytes?)|[KMG]i?B)"
_SPELLED = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|fourteen|twenty-four|thirty|forty-eight)"
WRITTEN_RULE = re.compile(
    rf"\b\d+(?:\.\d+)?\s*(?:-\s*)?{_UNIT}\b"  # "48 hours", "5 MB", "7-day"
    rf"|(?i:\b{_SPELLED}\s+(?:hours|days|weeks)\b)"  # "forty-eight hours"
    r"|\d+\s*\*\s*1024\b"  # 5 * 1024 * 1024
    r"|['\"`]\d+[hdw]['\"`]")  # '24h', "7d"


def _is_test(path: Path, src: Path) -> bool:
    return ".test." in path.name or path.relative_to(src).parts[0] == "test"


def written_rules(src: Path = SRC) -> list[str]:
    """`path:line: text` for each number of hours, days or megabytes written in the web's own code."""
    found = []
    for path in sorted([*src.rglob("*.ts"), *src.rglob("*.tsx")]):
        if _is_test(path, src) or path.relative_to(src).as_posix() in NOT_RULES:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if WRITTEN_RULE.search(line):
                found.append(f"{path.relative_to(src.parent)}:{number}: {line.strip()[:140]}")
    return found


def test_the_web_writes_no_number_of_hours_days_or_megabytes():
    found = written_rules()
    assert not found, ("read it from the served rules (web/src/api/rules.ts) and say it with web/src/lib/spans.ts:\n"
                       + "\n".join(found))


def test_the_check_finds_what_it_is_for(tmp_path):
    """Each form the web once wrote is caught; words for it and code that only looks alike are not."""
    caught = ["'The creator can answer within 48 hours'", "hint=\"JPEG, PNG or WebP, at most 5 MB.\"",
              "{ value: '72', label: '3 days' }", "const MAX = 5 * 1024 * 1024", "{ value: '7d', label: x }",
              "'a 7-day placement'", "'forty-eight hours'", "`${bytes} bytes or 2.5 MB`"]
    passed = ["`within ${hoursText(hours)}`", "{bid.duration} days", "className=\"-ml-3 mb-6 min-w-0 h-4\"",
              "const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7", "'Top 10 creators'"]
    (tmp_path / "a.ts").write_text("\n".join(caught + passed))
    (tmp_path / "a.test.ts").write_text("'48 hours'")
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "fixtures.ts").write_text("'5 MB'")
    found = [line.split(": ", 1)[1] for line in written_rules(tmp_path)]
    assert found == caught


if __name__ == "__main__":
    print("\n".join(written_rules()) or "none")
    sys.exit(1 if written_rules() else 0)
