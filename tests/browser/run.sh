#!/usr/bin/env bash
# Browser tests: start the embedded product on a free port with a private var/ folder (fresh database,
# demo data, no background bidding so what the tests see holds still), then run the playwright-core tests (node --test) against it with Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")"
var=$(mktemp -d /tmp/pinbid-browser-XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd ../.. && PINBID_VAR="$var" exec .venv/bin/python -m pinbid_launcher embedded --port "$port" --no-demo-bidding > "$var/server.log" 2>&1) &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 1 240); do
  curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break
  kill -0 $server 2>/dev/null || { cat "$var/server.log"; exit 1; }
  sleep 0.5
done
curl -sf "http://127.0.0.1:$port/api/health" >/dev/null || { echo "server did not start"; cat "$var/server.log"; exit 1; }
npm ci --no-audit --no-fund --loglevel=error
PINBID_BASE_URL="http://127.0.0.1:$port" PINBID_MAIL_DIR="$var/mail" node --test --test-concurrency=1
