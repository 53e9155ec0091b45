"""The rules the web shows (pinbid_kit.web_rules, with the default fee) as web/src/api/rules.json holds them,
the web's fallback when /runtime-config.json cannot be read (`rules_json`, written by contracts.py)."""

import json

from pinbid_kit.web_rules import DEFAULT_PLATFORM_FEE_PERCENT, web_rules


def rules_json() -> str:
    return json.dumps(web_rules(DEFAULT_PLATFORM_FEE_PERCENT), indent=2) + "\n"
