"""Every generated contract in one process (`make contracts`; `make lint` passes `--check`): the OpenAPI
document, the web's rules, the event schemas and the AsyncAPI document. Each alone imported the whole product
again. Every one is written or checked, so a stale contract does not hide another."""

import sys
from pathlib import Path

from pinbid_kit.paths import repo_root

from . import asyncapi, event_contracts, openapi, web_rules


def write_or_check(path: Path, text: str, *, check: bool) -> int:
    """Writes `text` to `path`, or with `check` fails (1) when the file is missing or differs."""
    shown = path.relative_to(repo_root()) if path.is_relative_to(repo_root()) else path
    if check:
        if not path.exists() or path.read_text() != text:
            print(f"{shown} is out of date; run: make contracts", file=sys.stderr)
            return 1
        print(f"{shown} is up to date")
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    print(f"wrote {shown}")
    return 0


def main(argv: list[str]) -> int:
    check, root = "--check" in argv, repo_root()
    files = {root / "contracts" / "openapi.json": openapi.render,
             root / "web" / "src" / "api" / "rules.json": web_rules.rules_json,
             root / "contracts" / "asyncapi.yaml": asyncapi.render}
    results = [write_or_check(path, render(), check=check) for path, render in files.items()]
    return max(*results, event_contracts.sync(check))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
