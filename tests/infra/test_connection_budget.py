"""infra/connection_budget.py, which `make lint` runs on every rendered overlay: it counts what each overlay may
open to PostgreSQL and refuses a pooled service that could not work behind PgBouncer in transaction mode."""

import importlib.util
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("connection_budget", ROOT / "infra" / "connection_budget.py")
connection_budget = importlib.util.module_from_spec(spec)
spec.loader.exec_module(connection_budget)


def rendered(overlay: str) -> list[dict]:
    out = subprocess.run(["kubectl", "kustomize", str(ROOT / "k8s" / "overlays" / overlay)], capture_output=True,
                         text=True, check=True).stdout
    return [doc for doc in yaml.safe_load_all(out) if doc]


def service(documents: list[dict], name: str) -> dict:
    return next(doc for doc in documents if doc["kind"] == "Deployment" and doc["metadata"]["name"] == name)


def env_of(deployment: dict) -> list[dict]:
    return deployment["spec"]["template"]["spec"]["containers"][0]["env"]


def test_production_fits_at_full_scale_in_a_rollout_with_the_migrations_running():
    found = connection_budget.budget(rendered("production"))
    # 2 PgBouncers × 5 databases × 3; 5 services × (10 pods + 1 surging) LISTENs; 5 migration Jobs
    assert found == {"poolers": 30, "services": 55, "jobs": 5}
    assert sum(found.values()) <= 100 - 3


def test_without_the_pooler_production_would_not_fit():
    documents = rendered("production")
    for name in ("identity", "marketplace", "payments", "social", "content"):
        deployment = service(documents, name)
        deployment["spec"]["template"]["spec"]["containers"][0]["env"] = [
            item for item in env_of(deployment) if not item["name"].endswith(("_DATABASE_POOLED", "_LISTEN_URL"))]
    assert connection_budget.budget(documents)["services"] == 5 * 11 * (10 + 20 + 1)


@pytest.mark.parametrize(("dropped", "reason"), [("MARKETPLACE_DATABASE_LISTEN_URL", "LISTEN"),
                                                 ("MARKETPLACE_MIGRATE_ON_START", "session lock")])
def test_a_pooled_service_without_a_direct_listen_url_or_with_migrations_at_start_is_refused(dropped, reason):
    documents = rendered("dev")
    marketplace = service(documents, "marketplace")
    marketplace["spec"]["template"]["spec"]["containers"][0]["env"] = [
        item for item in env_of(marketplace) if item["name"] != dropped]
    with pytest.raises(connection_budget.BudgetError, match=reason):
        connection_budget.budget(documents)
