#!/usr/bin/env bash
# Validates what cannot be started here: docker-compose.yml (docker-compose config) and every k8s overlay
# (kustomize build, then the Kubernetes JSON schemas, strict, and the PostgreSQL connection budget).
set -euo pipefail
cd "$(dirname "$0")/.."
UV=${UV:-uv}
# docker-compose.yml takes its secrets from .env (`make .env` writes it), never from a default written in it
if grep -nE '\$\{PINBID_[A-Z_]+:?-' docker-compose.yml; then
  echo "docker-compose.yml: a secret has a default (above); it must come from .env"; exit 1
fi
no_env_file=$(mktemp)
PINBID_ENCRYPTION_KEYS=placeholder PINBID_POSTGRES_PASSWORD=placeholder PINBID_MINIO_SECRET_KEY=placeholder \
  docker-compose --env-file "$no_env_file" -f docker-compose.yml config -q
rm -f "$no_env_file"
echo "docker-compose.yml: valid, secrets from .env"
checked=$(mktemp -d)
for overlay in k8s/overlays/*/; do
  rendered="$checked/$(basename "$overlay").yaml"
  kubectl kustomize "$overlay" > "$rendered"
  # the Prometheus Operator's kinds (observability component) have no schema there: they are rendered, not checked
  $UV run kubernetes-validate --quiet --no-warn --strict -k 1.31.0 "$rendered"
  operator_kinds=$(grep -cE '^kind: (PodMonitor|PrometheusRule)$' "$rendered" || true)
  echo "$overlay: $(grep -c '^kind:' "$rendered") objects valid ($operator_kinds Prometheus Operator objects rendered only)"
  # PostgreSQL's connections: the pooler's, the services' LISTEN and the migration Jobs within max_connections
  $UV run python infra/connection_budget.py "$rendered" "$overlay"
done
# security and good-practice rules over what would be applied and built (skips and their reasons: infra/checkov.yaml)
$UV run checkov --config-file infra/checkov.yaml --framework kubernetes dockerfile \
  -f "$checked"/*.yaml -f Dockerfile
echo "checkov: rendered overlays and Dockerfile pass"
rm -rf "$checked"
# the alert rules' PromQL, with Prometheus's own checker
rules=$(mktemp --suffix=.yml)
$UV run python -c 'import sys, yaml; rule = yaml.safe_load(open(sys.argv[1])); yaml.safe_dump({"groups": rule["spec"]["groups"]}, sys.stdout)' \
  k8s/components/observability/alerts.yaml > "$rules"
promtool check rules "$rules"
rm -f "$rules"
