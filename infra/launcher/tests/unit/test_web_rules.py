"""`make contracts` writes the web's fallback rules; `make lint` fails when they are stale."""

import json

from pinbid_kit.paths import repo_root
from pinbid_kit.web_rules import ServedSettings, web_rules
from pinbid_launcher.contracts import write_or_check
from pinbid_launcher.web_rules import rules_json


def test_the_written_file_is_the_kits_rules_with_the_default_fee(tmp_path):
    path = tmp_path / "rules.json"
    assert write_or_check(path, rules_json(), check=False) == 0
    assert json.loads(path.read_text()) == web_rules()
    assert write_or_check(path, rules_json(), check=True) == 0


def test_check_fails_on_a_stale_or_missing_file(tmp_path, capsys):
    path = tmp_path / "rules.json"
    assert write_or_check(path, rules_json(), check=True) == 1
    path.write_text(json.dumps(web_rules(ServedSettings(platform_fee_percent=12))))
    assert write_or_check(path, rules_json(), check=True) == 1
    assert "run: make contracts" in capsys.readouterr().err


def test_the_web_app_carries_the_current_rules():
    assert write_or_check(repo_root() / "web" / "src" / "api" / "rules.json", rules_json(), check=True) == 0
