#!/usr/bin/env bash
# Validates what cannot be started here: docker-compose.yml (docker-compose config) and every k8s overlay
# (kustomize build, then the Kubernetes JSON schemas, strict).
set -euo pipefail
cd "$(dirname "$0")/.."
UV=${UV:-uv}
docker-compose -f docker-compose.yml config -q
echo "docker-compose.yml: valid"
for overlay in k8s/overlays/*/; do
  rendered=$(mktemp)
  kubectl kustomize "$overlay" > "$rendered"
  $UV run kubernetes-validate --quiet --strict -k 1.31.0 "$rendered"
  echo "$overlay: $(grep -c '^kind:' "$rendered") objects valid"
  rm -f "$rendered"
done
