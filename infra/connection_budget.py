"""The most connections a rendered overlay may open to PostgreSQL, against its max_connections (docs/operations.md,
"Connection budget"). infra/validate.sh runs it on every overlay: a manifest change that would exceed the budget,
or a pooled service without what transaction pooling needs, fails `make lint`.

  poolers:   PgBouncer replicas × databases × max_db_connections
  services:  per pod, behind the pooler: 1 (the relay's LISTEN, direct); without it: pool + overflow + 1
             pods: the HPA's maxReplicas (else replicas) + the rollout's maxSurge
  jobs:      1 per migration Job (they run while the release before serves)"""

import configparser
import sys

import yaml

MAX_CONNECTIONS = 100  # PostgreSQL's default
SUPERUSER_RESERVED = 3  # superuser_reserved_connections: kept for an operator's psql
DEFAULT_POOL, DEFAULT_OVERFLOW = 10, 20  # KitSettings' db_pool_size and db_max_overflow


class BudgetError(Exception):
    pass


def budget(documents: list[dict]) -> dict[str, int]:
    """Connections by source ({"poolers": …, "services": …, "jobs": …}); BudgetError on what cannot work."""
    scaled = {doc["spec"]["scaleTargetRef"]["name"]: doc["spec"]["maxReplicas"]
              for doc in documents if doc["kind"] == "HorizontalPodAutoscaler"}
    ini = next((doc["data"]["pgbouncer.ini"] for doc in documents
                if doc["kind"] == "ConfigMap" and "pgbouncer.ini" in doc.get("data", {})), None)
    found = {"poolers": 0, "services": 0, "jobs": 0}
    for doc in documents:
        if doc["kind"] == "Deployment" and doc["metadata"].get("labels", {}).get(
                "app.kubernetes.io/component") == "connection-pooler":
            found["poolers"] += doc["spec"].get("replicas", 1) * _pooler_connections(ini)
        elif doc["kind"] == "Deployment" and (env := _database_env(doc)):
            found["services"] += _most_pods(doc, scaled) * _pod_connections(doc["metadata"]["name"], env)
        elif doc["kind"] == "Job" and _database_env(doc):
            found["jobs"] += 1
    return found


def _database_env(doc: dict) -> dict[str, str] | None:
    env = {item["name"]: item.get("value", "<secret>")
           for item in doc["spec"]["template"]["spec"]["containers"][0].get("env", [])}
    return env if any(name.endswith("_DATABASE_URL") for name in env) else None


def _most_pods(deployment: dict, scaled: dict[str, int]) -> int:
    name, spec = deployment["metadata"]["name"], deployment["spec"]
    surge = spec.get("strategy", {}).get("rollingUpdate", {}).get("maxSurge", 1)
    if not isinstance(surge, int):
        raise BudgetError(f"{name}: maxSurge {surge!r} is not a number of pods; the budget cannot count it")
    return scaled.get(name, spec.get("replicas", 1)) + surge


def _pod_connections(name: str, env: dict[str, str]) -> int:
    prefix = name.upper() + "_"
    if env.get(prefix + "DATABASE_POOLED") != "true":
        return int(env.get(prefix + "DB_POOL_SIZE", DEFAULT_POOL)) + int(
            env.get(prefix + "DB_MAX_OVERFLOW", DEFAULT_OVERFLOW)) + 1
    if prefix + "DATABASE_LISTEN_URL" not in env:
        raise BudgetError(f"{name}: pooled without {prefix}DATABASE_LISTEN_URL (LISTEN cannot go through PgBouncer)")
    if env.get(prefix + "MIGRATE_ON_START") != "false":
        raise BudgetError(f"{name}: pooled with migrations at start (their session lock needs a direct URL)")
    return 1


def _pooler_connections(ini: str | None) -> int:
    if ini is None:
        raise BudgetError("a connection pooler without its pgbouncer.ini ConfigMap")
    config = configparser.ConfigParser(comment_prefixes=(";", "#"), inline_comment_prefixes=None,
                                       interpolation=None)
    config.read_string(ini)
    settings = config["pgbouncer"]
    if settings.get("pool_mode") != "transaction":
        raise BudgetError("pgbouncer.ini: pool_mode must be transaction (the services are built for it)")
    if "max_db_connections" not in settings:
        raise BudgetError("pgbouncer.ini: set max_db_connections, or PgBouncer's connections are unbounded")
    return len(config["databases"]) * int(settings["max_db_connections"])


def main(path: str, label: str) -> None:
    with open(path) as rendered:
        documents = [doc for doc in yaml.safe_load_all(rendered) if doc]
    try:
        found = budget(documents)
    except BudgetError as exc:
        raise SystemExit(f"{label}: {exc}") from None
    usable = MAX_CONNECTIONS - SUPERUSER_RESERVED
    total = sum(found.values())
    parts = ", ".join(f"{source} {count}" for source, count in found.items())
    if total > usable:
        raise SystemExit(f"{label}: up to {total} PostgreSQL connections ({parts}), more than {usable}")
    print(f"{label}: at most {total} of {usable} PostgreSQL connections ({parts})")


if __name__ == "__main__":
    main(sys.argv[1], label=sys.argv[2] if len(sys.argv) > 2 else sys.argv[1])
