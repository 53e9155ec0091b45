"""Every generated contract in one process (`make contracts`; `make lint` passes `--check`): the OpenAPI
document, the web's rules, the event schemas and the AsyncAPI document. Each alone imported the whole product
again. Every one is written or checked, so a stale contract does not hide another."""

import sys

from pinbid_kit.paths import repo_root

from . import asyncapi, event_contracts, openapi, web_rules


def main(argv: list[str]) -> int:
    results = [openapi.main(), web_rules.main(argv, repo_root() / "web" / "src" / "api" / "rules.json"),
               event_contracts.main(), asyncapi.main()]
    return max(results)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
