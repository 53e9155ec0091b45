"""Writes the rules the web shows (pinbid_kit.web_rules, with the default fee) to web/src/api/rules.json,
the web's fallback when /runtime-config.json cannot be read. `--check` fails when the file is stale."""

import json
import sys
from pathlib import Path

from pinbid_kit.paths import repo_root
from pinbid_kit.web_rules import DEFAULT_PLATFORM_FEE_PERCENT, web_rules


def rules_json() -> str:
    return json.dumps(web_rules(DEFAULT_PLATFORM_FEE_PERCENT), indent=2) + "\n"


def main(argv: list[str], path: Path) -> int:
    text = rules_json()
    shown = path.relative_to(repo_root()) if path.is_relative_to(repo_root()) else path
    if "--check" in argv:
        if not path.exists() or path.read_text() != text:
            print(f"{shown} is out of date; run: make contracts", file=sys.stderr)
            return 1
        print(f"{shown} is up to date")
        return 0
    path.write_text(text)
    print(f"wrote {shown}")
    return 0
