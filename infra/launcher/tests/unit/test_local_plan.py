"""`make up`'s plan: each run its own broker names, links to its own gateway port, one key shared by all
processes and kept across restarts."""

import pytest
from pinbid_kit.secrets import SecretBox
from pinbid_launcher import local


def environments(monkeypatch, tmp_path, *, port: int, prefix: str) -> dict[str, dict[str, str]]:
    monkeypatch.setenv("PINBID_VAR", str(tmp_path))
    monkeypatch.setattr(local, "GATEWAY_PORT", port)
    monkeypatch.setattr(local, "DB_PREFIX", prefix)
    return {name: env for name, _, env, _ in local.plan()}


def test_every_process_links_to_the_gateway_port_and_uses_the_runs_prefix(monkeypatch, tmp_path):
    plan = environments(monkeypatch, tmp_path, port=9100, prefix="pinbid_e2e")
    for name, env in plan.items():
        variable = name.upper()
        assert env[f"{variable}_PUBLIC_URL"] == "http://127.0.0.1:9100"
        assert env[f"{variable}_BUS_PREFIX"] == "pinbid_e2e"
    assert plan["payments"]["PAYMENTS_DATABASE_URL"].endswith("/pinbid_e2e_payments")
    assert plan["gateway"]["GATEWAY_PORT"] == "9100"


def test_every_service_gets_the_same_encryption_key_again_after_a_restart(monkeypatch, tmp_path):
    first = environments(monkeypatch, tmp_path, port=8000, prefix="pinbid")
    again = environments(monkeypatch, tmp_path, port=8000, prefix="pinbid")
    keys = {env[f"{name.upper()}_ENCRYPTION_KEYS"] for name, env in first.items() if name != "gateway"}
    assert len(keys) == 1 and keys == {env[f"{name.upper()}_ENCRYPTION_KEYS"]
                                       for name, env in again.items() if name != "gateway"}
    box = SecretBox.from_setting(keys.pop())
    assert box.open(box.seal("session")) == "session"
    assert (tmp_path / "keys" / "data.key").stat().st_mode & 0o777 == 0o600


def test_two_replicas_are_two_processes_of_everything_each_gateway_calling_its_own_replicas(monkeypatch, tmp_path):
    monkeypatch.setattr(local, "REPLICAS", "2")
    monkeypatch.setattr(local, "BASE_PORT", 8101)
    plan = {name: (env, port) for name, _, env, port in _plan(monkeypatch, tmp_path)}
    services = [name for name in plan if not name.startswith("gateway") and not name.endswith("-2")]
    assert sorted(plan) == sorted(services + [f"{s}-2" for s in services] + ["gateway", "gateway-2"])
    assert {plan["gateway"][1], plan["gateway-2"][1]} == {8000, 8001}
    assert plan["marketplace-2"][0]["MARKETPLACE_DATABASE_URL"] == plan["marketplace"][0]["MARKETPLACE_DATABASE_URL"]
    second = plan["gateway-2"][0]
    assert second["GATEWAY_MARKETPLACE_URL"] == f"http://127.0.0.1:{plan['marketplace-2'][1]}"
    assert plan["gateway"][0]["GATEWAY_MARKETPLACE_URL"] == f"http://127.0.0.1:{plan['marketplace'][1]}"
    assert len({port for _, port in plan.values()}) == len(plan)  # no two processes on one port


def test_a_replica_count_that_is_not_a_small_whole_number_stops_with_one_line(monkeypatch, tmp_path):
    for bad in ("0", "two", "10", "-1"):
        monkeypatch.setattr(local, "REPLICAS", bad)
        with pytest.raises(SystemExit, match="PINBID_REPLICAS must be a whole number from 1 to 9"):
            _plan(monkeypatch, tmp_path)


def _plan(monkeypatch, tmp_path):
    monkeypatch.setenv("PINBID_VAR", str(tmp_path))
    monkeypatch.setattr(local, "GATEWAY_PORT", 8000)
    return local.plan()
