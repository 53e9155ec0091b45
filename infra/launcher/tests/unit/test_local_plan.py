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
        assert env[f"{variable}_PUBLIC_URL"] == "http://localhost:9100"
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


def test_settings_the_operator_exported_are_kept_but_not_the_wiring_between_processes(monkeypatch, tmp_path):
    monkeypatch.setattr(local, "REPLICAS", "2")
    monkeypatch.setenv("PAYMENTS_PUBLIC_URL", "https://tunnel.example")
    monkeypatch.setenv("MARKETPLACE_DB_POOL_SIZE", "4")
    monkeypatch.setenv("PAYMENTS_PORT", "9999")
    monkeypatch.setenv("GATEWAY_PAYMENTS_URL", "http://127.0.0.1:9999")
    plan = {name: (env, port) for name, _, env, port in _plan(monkeypatch, tmp_path)}
    assert plan["payments"][0]["PAYMENTS_PUBLIC_URL"] == plan["payments-2"][0]["PAYMENTS_PUBLIC_URL"] \
        == "https://tunnel.example"
    assert plan["identity"][0]["IDENTITY_PUBLIC_URL"] == "http://localhost:8000"  # not exported: the default
    assert plan["marketplace-2"][0]["MARKETPLACE_DB_POOL_SIZE"] == "4"
    # each replica keeps its own port, and each gateway its route to its own replica
    assert {plan["payments"][0]["PAYMENTS_PORT"], plan["payments-2"][0]["PAYMENTS_PORT"]} \
        == {str(plan["payments"][1]), str(plan["payments-2"][1])} and plan["payments"][1] != plan["payments-2"][1]
    assert plan["gateway-2"][0]["GATEWAY_PAYMENTS_URL"] == f"http://127.0.0.1:{plan['payments-2'][1]}"


def run_connections(monkeypatch, tmp_path, replica_count: int) -> tuple[int, set[tuple[str, str]]]:
    monkeypatch.setattr(local, "REPLICAS", str(replica_count))
    entries = _plan(monkeypatch, tmp_path)
    pools = {(env[f"{name.split('-')[0].upper()}_DB_POOL_SIZE"], env[f"{name.split('-')[0].upper()}_DB_MAX_OVERFLOW"])
             for name, _, env, _ in entries if not name.startswith("gateway")}
    return local.most_connections(entries), pools


def test_several_runs_and_two_replicas_fit_in_postgresqls_hundred_connections(monkeypatch, tmp_path):
    services = ("IDENTITY", "MARKETPLACE", "PAYMENTS", "SOCIAL", "CONTENT")
    pools = [f"{service}_DB_{setting}" for service in services for setting in ("POOL_SIZE", "MAX_OVERFLOW")]
    for name in ("PINBID_DB_CONNECTIONS", *pools):
        monkeypatch.delenv(name, raising=False)
    one, one_pools = run_connections(monkeypatch, tmp_path, 1)
    two, two_pools = run_connections(monkeypatch, tmp_path, 2)
    assert one_pools == {("2", "3")} and one == 5 * (2 + 3 + 1) == 30  # pool, overflow, the relay's LISTEN
    assert two_pools == {("1", "1")} and two == 10 * (1 + 1 + 1) == 30
    usable = 100 - 3  # max_connections minus those kept for superusers
    assert 3 * one <= usable and two + 2 * one <= usable
    nine, nine_pools = run_connections(monkeypatch, tmp_path, 9)
    assert nine_pools == {("1", "0")} and nine == 45 * 2  # the smallest pool, more than 30 only when needed


def test_the_runs_connections_can_be_set_and_too_few_stop_with_one_line(monkeypatch, tmp_path):
    monkeypatch.setenv("PINBID_DB_CONNECTIONS", "60")
    total, pools = run_connections(monkeypatch, tmp_path, 1)
    assert pools == {("5", "6")} and total == 60
    for bad in ("9", "many"):
        monkeypatch.setenv("PINBID_DB_CONNECTIONS", bad)
        with pytest.raises(SystemExit, match="PINBID_DB_CONNECTIONS must be a whole number of at least 10 "):
            run_connections(monkeypatch, tmp_path, 1)


def test_a_port_plan_that_overlaps_is_refused_before_anything_starts(monkeypatch, tmp_path):
    """PINBID_BASE_PORT one above the gateway's with REPLICAS=2 put the second gateway on identity's port."""
    monkeypatch.setattr(local, "REPLICAS", "2")
    monkeypatch.setattr(local, "BASE_PORT", 8001)
    with pytest.raises(SystemExit, match=r"The port plan overlaps: identity and gateway-2 would both listen on port "
                                         r"8001\..*PINBID_GATEWAY_PORT=8000 to 8001.*Nothing was started"):
        _plan(monkeypatch, tmp_path)
    monkeypatch.setattr(local, "REPLICAS", "1")
    monkeypatch.setattr(local, "BASE_PORT", 7996)  # the fifth service on the gateway's 8000
    with pytest.raises(SystemExit, match="would both listen on port 8000"):
        _plan(monkeypatch, tmp_path)
    monkeypatch.setattr(local, "BASE_PORT", 65533)
    with pytest.raises(SystemExit, match="would listen on port 65536, which cannot be"):
        _plan(monkeypatch, tmp_path)
    monkeypatch.setattr(local, "BASE_PORT", 8002)  # just clear of both gateways
    monkeypatch.setattr(local, "REPLICAS", "2")
    assert len({port for *_, port in _plan(monkeypatch, tmp_path)}) == 12
