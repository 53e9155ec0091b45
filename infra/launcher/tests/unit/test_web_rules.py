"""`make contracts` writes the web's fallback rules; `make lint` fails when they are stale."""

import json

from pinbid_kit.paths import repo_root
from pinbid_kit.web_rules import web_rules
from pinbid_launcher import web_rules as generator


def test_the_written_file_is_the_kits_rules_with_the_default_fee(tmp_path):
    path = tmp_path / "rules.json"
    assert generator.main([], path) == 0
    assert json.loads(path.read_text()) == web_rules(10)
    assert generator.main(["--check"], path) == 0


def test_check_fails_on_a_stale_or_missing_file(tmp_path, capsys):
    path = tmp_path / "rules.json"
    assert generator.main(["--check"], path) == 1
    path.write_text(json.dumps(web_rules(12)))
    assert generator.main(["--check"], path) == 1
    assert "run: make contracts" in capsys.readouterr().err


def test_the_web_app_carries_the_current_rules():
    assert generator.main(["--check"], repo_root() / "web" / "src" / "api" / "rules.json") == 0
