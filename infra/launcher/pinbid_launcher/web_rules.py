"""The rules the web shows (pinbid_kit.web_rules, with the default settings) as web/src/api/rules.json holds them,
the web's fallback when /runtime-config.json cannot be read (`rules_json`, written by contracts.py)."""

import json

from pinbid_kit.web_rules import web_rules


def rules_json() -> str:
    return json.dumps(web_rules(), indent=2) + "\n"
