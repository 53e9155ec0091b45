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
# a loaded CI machine (every lane at once) has taken three minutes to seed the demo world: allow ten
for _ in $(seq 1 1200); do
  curl -sf --max-time 5 "http://127.0.0.1:$port/api/health" >/dev/null && break
  kill -0 $server 2>/dev/null || { cat "$var/server.log"; exit 1; }
  sleep 0.5
done
curl -sf --max-time 5 "http://127.0.0.1:$port/api/health" >/dev/null || { echo "server did not start"; cat "$var/server.log"; exit 1; }
# an operator for ops.test.mjs: the command prints its password and the otpauth:// URI holding its TOTP secret
operator_email=ops.browser@example.com
enrollment=$(cd ../.. && PINBID_VAR="$var" .venv/bin/python -m pinbid_identity.operators create --email "$operator_email" --name "Browser Ops" --embedded)
operator_password=$(sed -n 's/^Password[^:]*: //p' <<<"$enrollment")
operator_secret=$(grep -o 'secret=[A-Z2-7]*' <<<"$enrollment" | cut -d= -f2)
[ -n "$operator_password" ] && [ -n "$operator_secret" ] || { echo "could not read the operator's password and secret from:"; echo "$enrollment"; exit 1; }
npm ci --no-audit --no-fund --loglevel=error
export PINBID_BASE_URL="http://localhost:$port" PINBID_MAIL_DIR="$var/mail" PINBID_OPERATOR_EMAIL="$operator_email" \
  PINBID_OPERATOR_PASSWORD="$operator_password" PINBID_OPERATOR_TOTP_SECRET="$operator_secret"
status=0
# the accessibility and layout-shift checks only read, so they run beside the journeys (which run one file at a
# time, each making its own slot, brand and bids); their report is printed when both are done
a11y_report="$var/a11y.tap"
node --test a11y.test.mjs > "$a11y_report" 2>&1 &
a11y=$!
node --test --test-concurrency=1 $(ls *.test.mjs | grep -vx -e ops.test.mjs -e a11y.test.mjs) || status=$?
wait $a11y || status=$?
cat "$a11y_report"
# the operator's journey runs on its own, after every other one, since it changes the demo world (suspends a demo
# brand, opens and decides a dispute)
node --test --test-concurrency=1 ops.test.mjs || status=$?
exit $status
